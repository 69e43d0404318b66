package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.WaldoConf;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.SwitchConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code waldoconf serve --site SITE} as a user runs it, with the real engine: one command
 * serves a site's three lab switches at the site's one address, and {@code apply} changes them through it.
 */
@Timeout(120)
class ServeAgentCommandTest {
    private static final String PLAN = Path.of("..", "configs", "vlan.yaml").toString();

    @TempDir
    Path dir;
    private final List<SimulatedSwitch> switches = new ArrayList<>();
    private InetSocketAddress site;
    private Thread agent;

    @AfterEach
    void stop() throws InterruptedException {
        if (agent != null) {
            agent.interrupt();
            agent.join(30_000);
        }
        switches.forEach(SimulatedSwitch::close);
    }

    @Test
    void oneServeCommandServesEverySwitchOfASiteAndApplyChangesThemThroughIt() throws Exception {
        Path inventory = siteInventory(3);
        AtomicReference<CliHarness.Result> served = new AtomicReference<>();
        agent = new Thread(() -> served.set(CliHarness.run(context(), "serve", "--site", "access", "-i",
                inventory.toString(), "--insecure", "--state-dir", dir.resolve("services").toString())), "agent");
        agent.start();
        awaitListening(site, served);
        awaitEverySwitchServed(inventory, served);

        CliHarness.Result apply = CliHarness.run(context(), "apply", PLAN, "-i", inventory.toString(), "--yes",
                "--insecure");

        assertThat(apply.exitCode()).as(apply.out() + apply.err()).isZero();
        for (SimulatedSwitch sw : switches) {
            assertThat(sw.state().isActiveVlan(10)).as(sw.name()).isTrue();
        }
        agent.interrupt();
        agent.join(30_000);
        assertThat(served.get()).as("serve stopped when interrupted").isNotNull();
        assertThat(served.get().exitCode()).as(served.get().err()).isZero();
        assertThat(served.get().out()).startsWith("Serving 3 of the 3 switches of site access at 127.0.0.1:"
                + site.getPort() + " with 2 I/O threads;");
        for (int i = 1; i <= 3; i++) {
            assertThat(dir.resolve("services/lab-" + i + "/journal")).as("lab-%d's own journal", i).exists();
        }
    }

    @Test
    void anUnknownSiteIsBadUsageAndNamesTheKnownOnes() throws Exception {
        Path inventory = siteInventory(1);

        CliHarness.Result result = CliHarness.run(context(), "serve", "--site", "south", "-i",
                inventory.toString(), "--insecure");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).isEqualTo("error: no site named 'south' with switches in " + inventory
                + "; known: access\n");
    }

    @Test
    void aSwitchOfASiteIsNotServedAloneAndTheMessageSaysByWhat() throws Exception {
        Path inventory = siteInventory(1);

        CliHarness.Result result = CliHarness.run(context(), "serve", "--switch", "lab-1", "-i",
                inventory.toString(), "--insecure");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).isEqualTo("error: switch lab-1 belongs to site access in " + inventory
                + ", whose agent serves it at the site's address: run 'waldoconf serve --site access'\n");
    }

    @Test
    void oneSwitchOrASiteNotBoth() throws Exception {
        Path inventory = siteInventory(1);

        CliHarness.Result result = CliHarness.run(context(), "serve", "--switch", "lab-1", "--site", "access",
                "-i", inventory.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("--switch=NAME, --site=SITE are mutually exclusive");
    }

    /** The real engine (operator state in the test folder) and SNMP devices. */
    private CliContext context() {
        Map<String, String> environment = Map.of();
        return new CliContext(options -> WaldoConf.open(options.operatorState().isPresent() ? options
                : options.withOperatorState(dir.resolve("operator")), environment), environment, Terminal.system(),
                LabLauncher.process());
    }

    /** {@code count} lab switches of site access, whose agent gets a free port. */
    private Path siteInventory(int count) throws IOException {
        Files.writeString(dir.resolve("community"), LabRunner.LAB_COMMUNITY + "\n");
        site = new InetSocketAddress("127.0.0.1", freeTcpPort());
        StringBuilder yaml = new StringBuilder("sites:\n  access: {service: 127.0.0.1:" + site.getPort()
                + "}\nswitches:\n");
        for (int i = 1; i <= count; i++) {
            SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("lab-" + i).withControlPort(-1)
                    .withSnmpPort(0));
            switches.add(sw);
            yaml.append("  - {name: lab-").append(i)
                    .append(", snmp: 127.0.0.1:").append(sw.snmpAddress().getPort())
                    .append(", version: '2c', credentials: lab, ports: ").append(sw.spec().portCount())
                    .append(", site: access}\n");
        }
        yaml.append("credentials:\n  lab: {community: {file: community}}\n");
        return Files.writeString(dir.resolve("inventory.yaml"), yaml.toString());
    }

    private static int freeTcpPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * Waits until {@code status} reaches every switch: the agent listens at the site's address as
     * soon as it starts, and starts its switches' services after that (16 at a time), so an apply
     * made at once may find a switch whose service does not serve yet, which fails that switch.
     */
    private void awaitEverySwitchServed(Path inventory, AtomicReference<CliHarness.Result> served)
            throws InterruptedException {
        long giveUpAt = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        CliHarness.Result status;
        do {
            status = CliHarness.run(context(), "status", "-i", inventory.toString(), "--insecure");
            if (status.exitCode() == ExitCodes.OK) {
                return;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < giveUpAt && served.get() == null);
        throw new AssertionError("the agent of site access did not serve every switch within 60 s: "
                + status.out() + status.err());
    }

    private static void awaitListening(InetSocketAddress address, AtomicReference<CliHarness.Result> served)
            throws InterruptedException {
        // Generous: the machine is shared, and a slow start is no failure of the agent.
        long giveUpAt = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < giveUpAt && served.get() == null) {
            try (Socket socket = new Socket()) {
                socket.connect(address, 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        CliHarness.Result ended = served.get();
        throw new AssertionError("waldoconf serve --site did not listen on " + address + " within 60 s"
                + (ended == null ? "" : "; it ended with " + ended.exitCode() + ": " + ended.out() + ended.err()));
    }
}
