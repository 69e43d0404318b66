package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.net.Security;
import dev.waldoconf.WaldoConf;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.engine.EngineOptions;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lab whose switch services cannot start does not start. It used to report itself ready with
 * a note, and the user learned of it only when {@code apply} could reach none of the services
 * (a 1,000-switch lab whose picked port another program had taken: {@code lab-366: cannot listen
 * on ...: Address already in use}).
 */
@Timeout(120)
class LabServicesFailTest {
    @TempDir
    Path dir;

    @Test
    void aServiceThatCannotStartFailsTheLabAndStopsItsSwitches() throws Exception {
        LabDirectory directory = new LabDirectory(dir.resolve("lab"));
        // A file where the services' state folder belongs: no service can create its journal.
        Files.createDirectories(directory.serviceState().getParent());
        Files.writeString(directory.serviceState(), "not a folder");
        EngineOptions options = new EngineOptions(Security.INSECURE).withOperatorState(directory.operatorState());
        try (WaldoConf waldoconf = WaldoConf.open(options, Map.of())) {
            assertThatThrownBy(() -> LabRunner.start(directory, new LabSpec(2, false, Security.INSECURE), waldoconf,
                    Docker.from(Map.of())))
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith("the service of switch lab-1 did not start: ")
                    .hasMessageContaining("(and 1 more switches' services)")
                    .hasMessageContaining("the lab's switches were stopped again");
        }
        Inventory inventory = InventoryLoader.load(directory.inventory());
        for (SwitchEntry entry : inventory.switches()) {
            // The simulated switch released its SNMP port, so it can be bound again.
            try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(entry.snmp().host(),
                    entry.snmp().port()))) {
                assertThat(socket.isBound()).isTrue();
            }
        }
    }
}
