package dev.waldoconf.cli;

import dev.waldoconf.WaldoConf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.ReservedPorts;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.SwitchConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the ends authenticate, end to end with the real change engine: {@code serve} and {@code apply}
 * with TLS off, each mix of TLS and plain failing at once with a message that says which end to
 * change (only the first bytes from the other end can tell the mismatch, so the message itself shows
 * that no connect or heartbeat timeout was waited for: no clock is asserted on a shared machine), a lab started with {@code --insecure}, and the default (the project CA) taking changes
 * from its own operators only.
 */
@Timeout(120)
class InsecureTest {
    private static final String PLAN = Path.of("..", "configs", "vlan.yaml").toString();

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
    void serveAndApplyWithTlsOffChangeTheSwitch() throws Exception {
        SimulatedSwitch sw = startSwitch();
        Path inventory = inventory(sw);
        InetSocketAddress service = serve(inventory, "--insecure");

        assertThat(firstBytesFrom(service)).as("a plain service greets in clear text").contains("switch-lab-1");
        CliHarness.Result apply = CliHarness.run(context(), "apply", PLAN, "-i", inventory.toString(), "--yes",
                "--insecure");

        assertThat(apply.exitCode()).as(apply.out() + apply.err()).isZero();
        assertThat(apply.out()).contains("Applied change");
        assertThat(sw.state().isActiveVlan(10)).isTrue();
        assertThat(sw.state().isActiveVlan(20)).isTrue();
    }

    @Test
    void aTlsCommandAgainstAServiceWithTlsOffFailsAtOnceSayingSo() throws Exception {
        SimulatedSwitch sw = startSwitch();
        Path inventory = inventory(sw);
        serve(inventory, "--insecure");

        CliHarness.Result apply = CliHarness.run(context(), "apply", PLAN, "-i", inventory.toString(), "--yes",
                "--tofu");

        assertThat(apply.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(apply.err()).contains("the service does not speak TLS: it was started with --insecure, so pass"
                + " --insecure here too");
        assertThat(sw.state().isActiveVlan(10)).as("nothing changed").isFalse();
    }

    @Test
    void aCommandWithTlsOffAgainstATlsServiceFailsAtOnceSayingSo() throws Exception {
        SimulatedSwitch sw = startSwitch();
        Path inventory = inventory(sw);
        InetSocketAddress service = serve(inventory);

        assertThat(firstBytesFrom(service)).as("a TLS server waits for the client's hello").isEmpty();
        CliHarness.Result status = CliHarness.run(context(), "status", "-i", inventory.toString(), "--insecure");

        assertThat(status.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(status.out() + status.err()).contains("this command has TLS off (--insecure) and the service"
                + " closed the connection").contains("drop --insecure");
    }

    @Test
    void byDefaultAServiceTakesChangesFromTheProjectCasOperatorsOnly() throws Exception {
        SimulatedSwitch sw = startSwitch();
        Path inventory = inventory(sw);
        serve(inventory);
        String operatorDir = dir.resolve("operator").toString();

        CliHarness.Result stranger = CliHarness.run(context(), "init", "--ca-dir", dir.resolve("other-ca").toString(),
                "--operator", "mallory", "--operator-dir", operatorDir);
        assertThat(stranger.exitCode()).as(stranger.err()).isZero();
        CliHarness.Result refused = CliHarness.run(context(), "apply", PLAN, "-i", inventory.toString(), "--yes");
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(refused.err()).contains("the service did not accept this operator's certificate");
        assertThat(sw.state().isActiveVlan(10)).as("nothing changed").isFalse();

        CliHarness.run(context(), "init", "--ca-dir", dir.resolve("ca").toString(), "--operator", "alice",
                "--operator-dir", operatorDir);
        CliHarness.Result apply = CliHarness.run(context(), "apply", PLAN, "-i", inventory.toString(), "--yes");
        assertThat(apply.exitCode()).as(apply.out() + apply.err()).isZero();
        assertThat(sw.state().isActiveVlan(10)).isTrue();
        CliHarness.Result log = CliHarness.run(context(), "log", "-i", inventory.toString(), "--state-dir",
                dir.resolve("services").toString());
        assertThat(log.out()).contains("lab-1  operator-alice  committed");
    }

    /** The lab process runs its services with TLS off; commands on its inventory must say --insecure too. */
    @Test
    void aLabStartedWithInsecureTakesChangesOnlyWithInsecure() throws Exception {
        Path labDir = dir.resolve("lab");
        CliContext context = context();
        try {
            CliHarness.Result up = CliHarness.run(context, "lab", "up", "--switches", "1", "--insecure", "--dir",
                    labDir.toString());
            assertThat(up.exitCode()).as(up.err()).isZero();
            assertThat(up.out()).contains("1 switch, services with TLS off (--insecure)");
            CliHarness.Result status = CliHarness.run(context, "lab", "status", "--dir", labDir.toString());
            assertThat(status.out()).contains("services running with TLS off (--insecure)");

            CliHarness.Result withTls = CliHarness.run(context, "apply", PLAN, "--lab-dir", labDir.toString(),
                    "--yes");
            assertThat(withTls.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(withTls.out()).as("refused before the plan and the prompt").isEmpty();
            assertThat(withTls.err()).contains("the lab in " + labDir + " runs its services with TLS off (lab up"
                    + " --insecure); pass --insecure too");

            CliHarness.Result insecure = CliHarness.run(context, "apply", PLAN, "--lab-dir", labDir.toString(),
                    "--yes", "--insecure");
            assertThat(insecure.exitCode()).as(insecure.out() + insecure.err()).isZero();
            assertThat(insecure.out()).contains("Applied change");
        } finally {
            CliHarness.run(context, "lab", "down", "--dir", labDir.toString());
        }
    }

    @Test
    void everyCommandThatReachesServicesTakesInsecureAndPassesItToTheEngine() {
        CliHarness cli = new CliHarness(dir);
        for (String command : List.of("confirm", "rollback", "status")) {
            CliHarness.Result result = cli.run(command, "-i", dir.resolve("missing.yaml").toString(), "--insecure");
            assertThat(result.exitCode()).as(command).isEqualTo(ExitCodes.USAGE);
        }
        assertThat(cli.engineOptions).extracting(o -> o.insecure()).containsExactly(true, true, true);
        assertThat(cli.run("plan", "--help").out()).contains("--insecure").contains("benchmarks and debugging ONLY");
        assertThat(cli.run("call", "--help").out()).contains("--insecure");
        assertThat(cli.run("serve", "--help").out()).contains("--insecure");
        assertThat(cli.run("lab", "up", "--help").out()).contains("--insecure");
    }

    /** The real engine (operator TLS state in the test folder), SNMP devices, the real lab launcher. */
    private CliContext context() {
        Map<String, String> environment = Map.of();
        return new CliContext(options -> WaldoConf.open(options.operatorState().isPresent() ? options
                : options.withOperatorState(dir.resolve("operator")), environment), environment, Terminal.system(),
                LabLauncher.process());
    }

    private SimulatedSwitch startSwitch() throws IOException {
        SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("lab-1").withControlPort(-1));
        running.add(sw);
        return sw;
    }

    /** A lab-style inventory of {@code sw}, served alone at its own port. */
    private Path inventory(SimulatedSwitch sw) throws IOException {
        Files.writeString(dir.resolve("community"), LabRunner.LAB_COMMUNITY + "\n");
        ReservedPorts servicePort = ReservedPorts.reserve(java.net.InetAddress.getLoopbackAddress(), 1);
        running.add(servicePort);
        return Files.writeString(dir.resolve("inventory.yaml"), StandaloneInventory.yaml(
                List.of(new LabSwitch(sw.name(), sw.snmpAddress(), sw.spec().portCount())), servicePort.ports()));
    }

    /** Runs {@code waldoconf serve} for lab-1 in a thread until the test ends; returns once it listens. */
    private InetSocketAddress serve(Path inventory, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("serve", "--switch", "lab-1", "-i", inventory.toString(),
                "--state-dir", dir.resolve("services").toString(), "--ca-dir", dir.resolve("ca").toString()));
        args.addAll(List.of(options));
        CliContext context = context();
        Thread server = new Thread(() -> CliHarness.run(context, args.toArray(String[]::new)), "serve");
        server.start();
        running.add(() -> {
            server.interrupt();
            server.join(10_000);
        });
        var entry = dev.waldoconf.config.InventoryLoader.load(inventory).switches().get(0).service();
        InetSocketAddress address = new InetSocketAddress(entry.host(), entry.port());
        awaitListening(address);
        return address;
    }

    private static void awaitListening(InetSocketAddress address) throws InterruptedException {
        for (int attempt = 0; attempt < 200; attempt++) {
            try (Socket socket = new Socket()) {
                socket.connect(address, 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new AssertionError("waldoconf serve did not listen on " + address + " within 10 s");
    }

    /** What a raw TCP client reads from {@code address} within a second, as text. */
    private static String firstBytesFrom(InetSocketAddress address) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(address, 1000);
            socket.setSoTimeout(1000);
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[256];
            try {
                int read = in.read(buffer);
                return read <= 0 ? "" : new String(buffer, 0, read, StandardCharsets.ISO_8859_1);
            } catch (java.net.SocketTimeoutException silent) {
                return "";
            }
        }
    }
}
