package dev.waldoconf.lab.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PortSetTest {

    @Test
    void firstOctetHoldsPortsOneToEightWithTheMostSignificantBitAsPortOne() {
        assertThat(PortSet.of(1).toPortList(24)).containsExactly(0x80, 0x00, 0x00);
        assertThat(PortSet.of(8).toPortList(24)).containsExactly(0x01, 0x00, 0x00);
        assertThat(PortSet.of(9, 24).toPortList(24)).containsExactly(0x00, 0x80, 0x01);
    }

    @Test
    void decodesWhatItEncodes() {
        PortSet ports = PortSet.of(1, 2, 3, 10, 17, 24);
        assertThat(PortSet.fromPortList(ports.toPortList(24))).isEqualTo(ports);
        assertThat(PortSet.fromHex(ports.toHex(24))).isEqualTo(ports);
    }

    @Test
    void aShortPortListMeansTheMissingPortsAreNotMembers() {
        assertThat(PortSet.fromPortList(new byte[] {(byte) 0xc0})).isEqualTo(PortSet.of(1, 2));
        assertThat(PortSet.fromPortList(new byte[0]).isEmpty()).isTrue();
    }

    @Test
    void encodesToTheOctetCountOfThePortCount() {
        assertThat(PortSet.firstPorts(20).toPortList(20)).containsExactly(0xff, 0xff, 0xf0);
        assertThat(PortSet.octetsFor(48)).isEqualTo(6);
        assertThat(PortSet.octetsFor(1)).isEqualTo(1);
    }

    @Test
    void setOperationsAndDescription() {
        PortSet egress = PortSet.of(1, 2, 3, 4, 7);
        assertThat(PortSet.of(2, 3).isSubsetOf(egress)).isTrue();
        assertThat(PortSet.of(2, 9).isSubsetOf(egress)).isFalse();
        assertThat(egress.intersection(PortSet.of(4, 5))).isEqualTo(PortSet.of(4));
        assertThat(egress.minus(PortSet.of(1, 2))).isEqualTo(PortSet.of(3, 4, 7));
        assertThat(egress.highestPort()).isEqualTo(7);
        assertThat(egress).hasToString("{1-4,7}");
    }
}
