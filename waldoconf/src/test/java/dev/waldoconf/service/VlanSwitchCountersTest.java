package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldoconf.device.MemoryVlanDevice;
import dev.waldoconf.model.SwitchPart;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The VLAN service keeps change counters (vlan_switch.wld's name_changes, member_changes,
 * pvid_changes) only for the VLANs its switch names: counting all 4,094 VLAN ids up front put
 * 12,282 map entries (about 1.3 MB of heap) in every switch's service, 1.3 GB in a site agent of
 * 1,000 switches, and each commit copied them.
 */
class VlanSwitchCountersTest {
    private static final int PORTS = 8;

    @TempDir
    Path dir;
    private final InMemoryNetwork network = new InMemoryNetwork();
    private Host host;
    private DeviceService<SwitchPart, VlanSwitchProgram> service;

    @AfterEach
    void stop() {
        if (service != null) {
            service.close();
        }
        if (host != null) {
            host.close();
        }
    }

    private VlanSwitchProgram started(SwitchState onSwitch) throws Exception {
        host = Host.inMemory(network, "sw-1");
        service = VlanSwitchProgram.mount("sw-1", host, new MemoryVlanDevice("sw-1", PORTS, onSwitch),
                dir.resolve("journal"), Clock.systemUTC(), true);
        return service.program();
    }

    @Test
    void aFactoryDefaultSwitchCountsOnlyItsDefaultVlan() throws Exception {
        assertThat(started(SwitchState.factoryDefault(PORTS)).countedVlans()).containsExactly(1);
    }

    @Test
    void theServiceCountsTheVlansOfItsTableAndThoseItsPvidsName() throws Exception {
        SwitchState onSwitch = SwitchState.factoryDefault(PORTS)
                .with(new Vlan(20, "voice", new TreeSet<>(Set.of(8)), new TreeSet<>()))
                .withPvid(3, 30);

        assertThat(started(onSwitch).countedVlans()).containsExactly(1, 20, 30);
    }
}
