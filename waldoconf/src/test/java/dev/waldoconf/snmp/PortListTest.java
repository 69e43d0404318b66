package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** RFC 4363 PortList: octet 1 holds ports 1-8, the most significant bit the lowest port. */
class PortListTest {
    private static TreeSet<Integer> ports(Integer... ports) {
        return new TreeSet<>(Set.of(ports));
    }

    @Test
    void encodesTheLowestPortInTheMostSignificantBit() {
        assertThat(PortList.encode(ports(1), 24)).containsExactly(0x80, 0x00, 0x00);
        assertThat(PortList.encode(ports(8), 24)).containsExactly(0x01, 0x00, 0x00);
        assertThat(PortList.encode(ports(9, 24), 24)).containsExactly(0x00, 0x80, 0x01);
    }

    @Test
    void usesExactlyTheOctetsThePortCountNeeds() {
        assertThat(PortList.encode(ports(), 24)).hasSize(3);
        assertThat(PortList.encode(ports(), 26)).hasSize(4);
        assertThat(PortList.encode(ports(52), 52)).containsExactly(0, 0, 0, 0, 0, 0, 0x10);
    }

    @Test
    void decodesWhatItEncodes() {
        TreeSet<Integer> ports = ports(1, 2, 7, 8, 9, 16, 17, 23, 24);

        assertThat(PortList.decode(PortList.encode(ports, 24))).containsExactlyElementsOf(ports);
        assertThat(PortList.decode(new byte[] {(byte) 0xc0, 0x00, 0x01})).containsExactly(1, 2, 24);
    }

    @Test
    void refusesPortsOutsideTheSwitch() {
        assertThatThrownBy(() -> PortList.encode(ports(25), 24)).hasMessageContaining("port 25 is outside 1..24");
        assertThatThrownBy(() -> PortList.encode(ports(0), 24)).hasMessageContaining("port 0");
    }
}
