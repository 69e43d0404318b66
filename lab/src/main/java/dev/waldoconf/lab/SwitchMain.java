package dev.waldoconf.lab;

import dev.waldoconf.lab.control.ControlCommands;
import dev.waldoconf.lab.model.QuirkProfile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one simulated switch as a process until it is terminated (or the exit-after fault fires).
 * Once listening it prints one line that scripts and tests can parse:
 *
 * <pre>
 * lab switch sw1 listening snmp=udp:127.0.0.1:1161 control=tcp:127.0.0.1:1162 state=/tmp/sw1.state profile=fast(...)
 * </pre>
 */
public final class SwitchMain {
    /** Exit status for bad command-line arguments. */
    public static final int EXIT_USAGE = 2;
    /** Exit status when the switch cannot start (port taken, bad state file). */
    public static final int EXIT_START_FAILED = 1;
    /** Exit status of the exit-after fault. */
    public static final int EXIT_FAULT = 3;

    static final String USAGE = """
            usage: java -jar lab-switch.jar [options]
              --name NAME              switch name and default sysName (default: switch)
              --host ADDRESS           address to bind, keep it on loopback (default: 127.0.0.1)
              --port PORT              SNMP UDP port, 0 = any free port (default: 1161)
              --control-port PORT      control TCP port, 0 = any free, -1 = off (default: SNMP port + 1)
              --ports N                number of bridge ports (default: 24)
              --quirks PROFILE         standard | strict-order | no-create-and-wait (default: standard)
              --state-file PATH        keep configuration across restarts in PATH (default: none)
              --profile NAME           device profile: fast | slow-cpu | rate-limited | flaky (default: fast)
              --profile-seed N         seed of the profile's jitter and losses (default: 1)
              --read-community TEXT    v1/v2c read community (default: public)
              --write-community TEXT   v1/v2c write community (default: private)
              --user SPEC              USM user name:auth:authPass:priv:privPass, repeatable; replaces the
                                       defaults waldo (SHA-256/AES) and waldo-sha1 (SHA/AES)
              --verbose                log every refused SET with its reason (to stderr)
              --help                   show this help
            control interface: one command a line over TCP, e.g. `echo "delay 200" | nc 127.0.0.1 1162`
            """ + "  " + ControlCommands.HELP + "\n";

    /** Held strongly: java.util.logging forgets the level of loggers nobody references. */
    private static final Logger LAB_LOGGER = Logger.getLogger("dev.waldoconf.lab");

    private SwitchMain() {
    }

    /** Starts the switch and blocks until the process is told to stop. */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Parses the arguments, starts the switch and waits for shutdown.
     *
     * @return the exit status (0 after a normal shutdown)
     */
    static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> options = new ArrayList<>(List.of(args));
        if (options.remove("--verbose")) {
            logRefusals();
        }
        SwitchConfig config;
        try {
            config = parse(options.toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.print(USAGE);
            return EXIT_USAGE;
        }
        if (config == null) {
            out.print(USAGE);
            return 0;
        }
        SimulatedSwitch sw;
        try {
            sw = SimulatedSwitch.start(config, SwitchMain::exitForFault);
        } catch (IOException e) {
            err.println("error: switch " + config.name() + " did not start: " + e.getMessage());
            return EXIT_START_FAILED;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            sw.close();
            stopped.countDown();
        }));
        out.println(listeningLine(sw));
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    static String listeningLine(SimulatedSwitch sw) {
        var snmp = sw.snmpAddress();
        var control = sw.controlAddress();
        return "lab switch " + sw.name() + " listening snmp=udp:" + snmp.getAddress().getHostAddress() + ":"
                + snmp.getPort() + " control="
                + (control == null ? "off" : "tcp:" + control.getAddress().getHostAddress() + ":" + control.getPort())
                + " state=" + (sw.config().stateFile() == null ? "memory" : sw.config().stateFile())
                + " profile=" + sw.config().profile().describe();
    }

    /** Lets the agent's debug messages (each refused SET and why) reach the console. */
    private static void logRefusals() {
        LAB_LOGGER.setLevel(Level.FINE);
        ConsoleHandler handler = new ConsoleHandler();
        handler.setLevel(Level.FINE);
        LAB_LOGGER.addHandler(handler);
    }

    private static void exitForFault(SimulatedSwitch sw) {
        System.err.println("lab switch " + sw.name() + ": exit-after fault reached, exiting now");
        System.err.flush();
        Runtime.getRuntime().halt(EXIT_FAULT);
    }

    /** The configuration the arguments ask for, or null when they ask for help. */
    static SwitchConfig parse(String[] args) {
        SwitchConfig config = SwitchConfig.named("switch").withSnmpPort(1161);
        Integer controlPort = null;
        Long profileSeed = null;
        List<UsmUserSpec> users = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--help") || option.equals("-h")) {
                return null;
            }
            String value = valueOf(args, i++);
            config = switch (option) {
                case "--name" -> config.withName(value);
                case "--host" -> config.withHost(value);
                case "--port" -> config.withSnmpPort(number(option, value));
                case "--control-port" -> {
                    controlPort = number(option, value);
                    yield config;
                }
                case "--ports" -> config.withPortCount(number(option, value));
                case "--quirks" -> config.withQuirks(QuirkProfile.fromLabel(value));
                case "--state-file" -> config.withStateFile(Path.of(value));
                case "--profile" -> config.withProfile(DeviceProfile.named(value));
                case "--profile-seed" -> {
                    profileSeed = (long) number(option, value);
                    yield config;
                }
                case "--read-community" -> config.withCommunities(value, config.writeCommunity());
                case "--write-community" -> config.withCommunities(config.readCommunity(), value);
                case "--user" -> {
                    users.add(UsmUserSpec.parse(value));
                    yield config;
                }
                default -> throw new IllegalArgumentException("unknown option '" + option + "'");
            };
        }
        if (!users.isEmpty()) {
            config = config.withUsers(users);
        }
        if (profileSeed != null) {
            config = config.withProfile(config.profile().withSeed(profileSeed));
        }
        int control = controlPort != null ? controlPort : (config.snmpPort() == 0 ? 0 : config.snmpPort() + 1);
        return config.withControlPort(control);
    }

    private static String valueOf(String[] args, int i) {
        if (!args[i].startsWith("--")) {
            throw new IllegalArgumentException("unexpected argument '" + args[i] + "'; options start with --");
        }
        if (i + 1 >= args.length) {
            throw new IllegalArgumentException("option " + args[i] + " needs a value");
        }
        return args[i + 1];
    }

    private static int number(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + option + " needs a number, got '" + value + "'");
        }
    }
}
