package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.net.Security;
import dev.waldoconf.WaldoConf;
import dev.waldoconf.config.HostPort;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.engine.StatusReport;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lab larger than the one whose inventory named a service port twice ({@code lab up --switches
 * 256}: "service '127.0.0.1:40539' is already used"): every switch gets an SNMP port of its own,
 * the lab's site agent listens on the one address the inventory gives site 'lab', and every
 * switch's service answers through it.
 */
@Timeout(300)
class LabScaleTest {
    private static final int SWITCHES = 300;

    @TempDir
    Path dir;

    @Test
    void threeHundredSwitchesGetDistinctPortsAndAllAnswerThroughTheSiteAgent() throws Exception {
        LabDirectory directory = new LabDirectory(dir.resolve("lab"));
        // TLS off keeps 300 services cheap to start; the ports are chosen the same way under every security mode.
        EngineOptions options = new EngineOptions(Security.INSECURE).withOperatorState(directory.operatorState());
        try (WaldoConf waldoconf = WaldoConf.open(options, Map.of());
             LabRunner lab = LabRunner.start(directory, new LabSpec(SWITCHES, false, Security.INSECURE), waldoconf,
                     Docker.from(Map.of()))) {
            assertThat(lab.servicesNote()).startsWith("services running");
            Inventory inventory = InventoryLoader.load(directory.inventory());
            List<SwitchEntry> switches = inventory.switches();
            assertThat(switches).hasSize(SWITCHES);
            assertThat(switches).extracting(SwitchEntry::snmp).doesNotHaveDuplicates();
            HostPort agent = inventory.sites().get("lab");
            assertThat(agent).as("the lab's site in %s", directory.inventory()).isNotNull();
            assertThat(switches).extracting(SwitchEntry::site).containsOnly(Optional.of("lab"));
            assertThat(switches).extracting(SwitchEntry::service).containsOnly(agent);
            // The reservation is released once the agent listens; what answers now is the agent itself.
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(agent.host(), agent.port()), 5000);
            }
            StatusReport status = waldoconf.status(inventory);
            assertThat(status.switches()).hasSize(SWITCHES)
                    .allSatisfy(one -> assertThat(one.reachable()).as(one.switchName() + ": " + one.detail()).isTrue());
        }
    }
}
