package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.net.NetConfig;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.custom.CustomService;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.SwitchConfig;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code waldoconf call} and {@code serve --service} with the shipped example
 * configs/system_group.wld: custom services in this JVM in front of embedded lab switches.
 */
class CallCommandTest {
    private static final String EXAMPLE = Path.of("..", "configs", "system_group.wld").toString();
    private static final String SET_ALL = "SystemGroupChange.set_all";

    @TempDir
    Path dir;
    private final List<AutoCloseable> running = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (int i = running.size() - 1; i >= 0; i--) {
            running.get(i).close();
        }
    }

    @Test
    void callsTheCoordinatorAcrossEveryServiceAndPrintsTheResult() throws Exception {
        SimulatedSwitch a = lab("sw-a");
        SimulatedSwitch b = lab("sw-b");
        Path inventory = inventory(List.of(a, b), "");
        serve(inventory);

        CliHarness.Result result = run("call", EXAMPLE, SET_ALL, "rack 7, row 2", "noc@example.net", "-i",
                inventory.toString());

        assertThat(result.exitCode()).as(result.err()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).contains("Committed on 2 switch(es): sw-a, sw-b.", "\n2\n");
        for (SimulatedSwitch sw : List.of(a, b)) {
            assertThat(sw.state().sysLocation()).isEqualTo("rack 7, row 2");
            assertThat(sw.state().sysContact()).isEqualTo("noc@example.net");
        }
    }

    @Test
    void callWithInsecureReachesServicesWithTlsOffAndWithoutItSaysWhy() throws Exception {
        SimulatedSwitch a = lab("sw-a");
        Path inventory = inventory(List.of(a), "");
        serve(inventory, true);

        CliHarness.Result withTls = run("call", EXAMPLE, SET_ALL, "rack 3", "noc", "-i", inventory.toString());
        assertThat(withTls.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(withTls.err()).contains("the service does not speak TLS", "pass --insecure here too",
                "no switch was changed");

        CliHarness.Result insecure = run("call", EXAMPLE, SET_ALL, "rack 3", "noc", "-i", inventory.toString(),
                "--insecure");
        assertThat(insecure.exitCode()).as(insecure.err()).isEqualTo(ExitCodes.OK);
        assertThat(a.state().sysLocation()).isEqualTo("rack 3");
    }

    @Test
    void aSwitchThatRefusesChangesNoSwitchAndExitsOne() throws Exception {
        SimulatedSwitch a = lab("sw-a");
        SimulatedSwitch b = lab("sw-b");
        String before = a.state().sysLocation();
        Path inventory = inventory(List.of(a, b), "sw-b");
        serve(inventory);

        CliHarness.Result result = run("call", EXAMPLE, SET_ALL, "rack 8", "noc", "-i", inventory.toString(),
                "--switches", "sw-b,sw-a");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.CHANGE_FAILED);
        assertThat(result.err()).contains("refused: ", "sw-b", "1.3.6.1.2.1.1.6.0", "no switch was changed");
        assertThat(a.state().sysLocation()).isEqualTo(before);
        assertThat(b.state().sysLocation()).isNotEqualTo("rack 8");
    }

    @Test
    void aTrialIsListedConfirmedAndRolledBackFromTheCommandLine() throws Exception {
        SimulatedSwitch a = lab("sw-a");
        SimulatedSwitch b = lab("sw-b");
        String before = a.state().sysLocation();
        Path inventory = inventory(List.of(a, b), "");
        serve(inventory);
        String inv = inventory.toString();

        CliHarness.Result staged = run("call", EXAMPLE, SET_ALL, "rack 31", "noc", "--trial", "10m", "-i", inv);
        assertThat(staged.exitCode()).as(staged.err()).isEqualTo(ExitCodes.OK);
        assertThat(staged.out()).contains(" on 2 switch(es): sw-a, sw-b. Every one reverts at ");
        String change = staged.out().replaceAll("(?s).*Committed trial (\\S+) on.*", "$1");
        assertThat(staged.out()).contains("unless 'waldoconf call " + EXAMPLE + " --confirm " + change + "'");
        assertThat(a.state().sysLocation()).isEqualTo("rack 31");

        CliHarness.Result listed = run("call", EXAMPLE, "--trials", "-i", inv);
        assertThat(listed.out()).contains("Trial " + change + " reverts at ", " on sw-a, sw-b;");
        CliHarness.Result blocked = run("call", EXAMPLE, SET_ALL, "rack 32", "noc", "-i", inv);
        assertThat(blocked.exitCode()).isEqualTo(ExitCodes.CHANGE_FAILED);
        assertThat(blocked.err()).contains("trial " + change + " is pending here");

        CliHarness.Result rolledBack = run("call", EXAMPLE, "--rollback", change, "-i", inv);
        assertThat(rolledBack.exitCode()).as(rolledBack.err()).isEqualTo(ExitCodes.OK);
        assertThat(rolledBack.out()).contains("Rolled back trial " + change + " on sw-a, sw-b.");
        assertThat(a.state().sysLocation()).isEqualTo(before);
        assertThat(b.state().sysLocation()).isNotEqualTo("rack 31");

        CliHarness.Result gone = run("call", EXAMPLE, "--confirm", change, "-i", inv);
        assertThat(gone.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(gone.err()).contains("no trial " + change + " is pending on sw-a, sw-b; no trial is pending there");
        assertThat(run("call", EXAMPLE, "--trials", "-i", inv).out()).contains("No pending trials.");

        String second = run("call", EXAMPLE, SET_ALL, "rack 33", "noc", "--trial", "10m", "-i", inv).out()
                .replaceAll("(?s).*Committed trial (\\S+) on.*", "$1");
        CliHarness.Result confirmed = run("call", EXAMPLE, "--confirm", second, "-i", inv);
        assertThat(confirmed.out()).contains("Confirmed trial " + second + " on sw-a, sw-b.");
        assertThat(b.state().sysLocation()).isEqualTo("rack 33");
        assertThat(run("call", EXAMPLE, "--trials", "-i", inv).out()).contains("No pending trials.");
        CliHarness.Result mixed = run("call", EXAMPLE, SET_ALL, "--confirm", second, "-i", inv);
        assertThat(mixed.exitCode()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void anUnreachableServiceExitsThree() throws Exception {
        Path inventory = inventory(List.of(lab("sw-a")), "");

        CliHarness.Result result = run("call", EXAMPLE, SET_ALL, "rack 9", "noc", "-i", inventory.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(result.err()).contains("cannot reach the service of switch sw-a", "no switch was changed");
    }

    @Test
    void badProgramsFunctionsArgumentsAndSwitchesAreUsageErrors() throws Exception {
        Path inventory = inventory(List.of(lab("sw-a")), "");
        Path broken = Files.writeString(dir.resolve("broken.wld"), "Service S {\n    Number n = 'x';\n}\n");

        CliHarness.Result compile = run("call", broken.toString(), "S.f", "-i", inventory.toString());
        assertThat(compile.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(compile.err()).contains(broken + ":2:", "    Number n = 'x';", "^");

        assertThat(run("call", EXAMPLE, "SystemGroupChange.nope", "-i", inventory.toString()).err())
                .contains("has no Public function nope; its Public functions: set_all, show");
        CliHarness.Result arguments = run("call", EXAMPLE, SET_ALL, "only one", "-i", inventory.toString());
        assertThat(arguments.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(arguments.err()).contains("takes 2 argument(s) after the services (Text location, Text contact)");
        CliHarness.Result unknown = run("call", EXAMPLE, SET_ALL, "x", "y", "-i", inventory.toString(),
                "--switches", "sw-z");
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("no switch named 'sw-z'");
    }

    @Test
    void serveRefusesAServiceWithErrorsBeforeStartingAnything() throws Exception {
        Path inventory = inventory(List.of(lab("sw-a")), "");
        Path two = Files.writeString(dir.resolve("two.wld"), """
                Service A {
                    @snmp(oid: '1.3.6.1.2.1.1.6.0') Text a;
                }
                Service B {
                    @snmp(oid: '1.3.6.1.2.1.1.4.0') Number b;
                }
                """);

        CliHarness.Result result = run("serve", "--service", two.toString(), "--switch", "sw-a", "-i",
                inventory.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains(two + ":1:9: error: several Services", two + ":4:9:");
    }

    private CliHarness.Result run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        if (args[0].equals("call")) {
            all.addAll(List.of("--operator-dir", dir.resolve("operator").toString()));
            if (!all.contains("--insecure")) {
                // The services here are started as in-process tools start them: trusting on first use.
                all.add("--tofu");
            }
        }
        try (CliHarness harness = new CliHarness(dir)) {
            return harness.run(all.toArray(String[]::new));
        }
    }

    private SimulatedSwitch lab(String name) throws Exception {
        SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named(name).withControlPort(-1));
        running.add(sw);
        return sw;
    }

    /** Starts the example's service for every switch of {@code inventory}, as 'serve --service' does. */
    private void serve(Path inventoryFile) throws Exception {
        serve(inventoryFile, false);
    }

    /** As {@link #serve(Path)}; {@code insecure} as 'serve --service --insecure' does. */
    private void serve(Path inventoryFile, boolean insecure) throws Exception {
        Inventory inventory = InventoryLoader.load(inventoryFile);
        for (SwitchEntry entry : inventory.switches()) {
            NetConfig net = NetConfig.defaults("switch-" + entry.name(), dir.resolve("served").resolve(entry.name()));
            running.add(CustomService.serve(Path.of(EXAMPLE), inventory, entry, insecure ? net.insecure() : net,
                    null, Map.of()));
        }
    }

    /**
     * An inventory of {@code switches} with fresh service ports; {@code readOnly} (if named) gets the
     * lab's read-only community, the others its write community, both from secret files.
     */
    private Path inventory(List<SimulatedSwitch> switches, String readOnly) throws Exception {
        Files.writeString(dir.resolve("rw"), switches.get(0).config().writeCommunity() + "\n");
        Files.writeString(dir.resolve("ro"), switches.get(0).config().readCommunity() + "\n");
        StringBuilder yaml = new StringBuilder("switches:\n");
        for (SimulatedSwitch sw : switches) {
            yaml.append("  - {name: ").append(sw.name()).append(", service: 127.0.0.1:").append(freeTcpPort())
                    .append(", snmp: 127.0.0.1:").append(sw.snmpAddress().getPort()).append(", version: '2c',")
                    .append(" credentials: ").append(sw.name().equals(readOnly) ? "ro" : "rw").append("}\n");
        }
        yaml.append("credentials:\n  rw: {community: {file: ").append(dir.resolve("rw")).append("}}\n")
                .append("  ro: {community: {file: ").append(dir.resolve("ro")).append("}}\n");
        return Files.writeString(dir.resolve("inventory.yaml"), yaml.toString());
    }

    private static int freeTcpPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
