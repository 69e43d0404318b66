package dev.waldoconf.lab;

import static dev.waldoconf.lab.Q.ACTIVE;
import static dev.waldoconf.lab.Q.CREATE_AND_GO;
import static dev.waldoconf.lab.Q.CREATE_AND_WAIT;
import static dev.waldoconf.lab.Q.DESTROY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.LabClient.Response;
import dev.waldoconf.lab.model.PortSet;
import dev.waldoconf.lab.model.RowStatus;
import dev.waldoconf.lab.snmp.Oids;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.VariableBinding;

/** The switch over SNMP (SNMP4J as the manager), embedded in the test JVM. */
class SwitchSnmpTest {
    @TempDir
    Path dir;

    private SimulatedSwitch sw;
    private LabClient writer;

    @BeforeEach
    void start() throws IOException {
        sw = SimulatedSwitch.start(SwitchConfig.named("sw1").withStateFile(dir.resolve("sw1.state")));
        writer = LabClient.v2c(sw.snmpAddress(), "private", 2000);
    }

    @AfterEach
    void stop() throws IOException {
        writer.close();
        sw.close();
    }

    private String errorOf(VariableBinding... bindings) throws IOException {
        Response response = writer.set(bindings);
        return response.errorName() + "@" + response.errorIndex();
    }

    @Test
    void readsTheMibsItImplements() throws IOException {
        Response response = writer.get(Oids.scalar(Oids.SYS_NAME), Oids.scalar(Oids.DOT1D_BASE_NUM_PORTS),
                Oids.scalar(Oids.DOT1Q_NUM_VLANS), Oids.scalar(Oids.DOT1Q_MAX_VLAN_ID), Oids.child(Oids.IF_DESCR, 3),
                Oids.child(Oids.DOT1D_BASE_PORT_IF_INDEX, 24), Oids.child(Oids.IF_OPER_STATUS, 1));
        assertThat(response.bindings()).extracting(vb -> vb.getVariable().toString())
                .containsExactly("sw1", "24", "1", "4094", "port 3", "24", "1");
        assertThat(writer.walk(Oids.IF_INDEX)).hasSize(24);
        assertThat(writer.walk(Oids.DOT1Q_PVID)).hasSize(24).allSatisfy(vb -> assertThat(vb.getVariable().toInt())
                .isEqualTo(1));
    }

    @Test
    void missingObjectsAndInstancesAreReportedAsSuch() throws IOException {
        Response response = writer.get(new OID("1.3.6.1.2.1.1.9.0"), Oids.child(Oids.SYS_NAME, 1), Q.rowStatusOid(99),
                new OID("1.3.6.1.2.1.4.1.0"));
        assertThat(response.bindings()).extracting(VariableBinding::getVariable)
                .containsExactly(Null.noSuchObject, Null.noSuchInstance, Null.noSuchInstance, Null.noSuchObject);
    }

    @Test
    void createsModifiesAndDestroysAVlan() throws IOException {
        assertThat(writer.set(Q.rowStatus(10, CREATE_AND_GO), Q.name(10, "users"), Q.egress(10, 1, 2, 3),
                Q.untagged(10, 3)).isOk()).isTrue();
        assertThat(writer.walk(Oids.DOT1Q_VLAN_FDB_ID)).extracting(vb -> vb.getOid().last()).containsExactly(1, 10);
        assertThat(writer.get(Oids.child(Oids.DOT1Q_VLAN_CURRENT_EGRESS_PORTS, 0, 10)).bindings().get(0).getVariable())
                .isEqualTo(new OctetString(new byte[] {(byte) 0xe0, 0, 0}));
        assertThat(writer.set(Q.egress(10, 1, 2, 3, 4), Q.name(10, "staff")).isOk()).isTrue();
        assertThat(sw.state().vlan(10).egress()).isEqualTo(PortSet.of(1, 2, 3, 4));
        assertThat(sw.state().vlan(10).name()).isEqualTo("staff");
        assertThat(writer.set(Q.rowStatus(10, DESTROY)).isOk()).isTrue();
        assertThat(sw.state().vlan(10)).isNull();
        assertThat(writer.get(Oids.scalar(Oids.DOT1Q_VLAN_NUM_DELETES)).bindings().get(0).getVariable().toInt())
                .isEqualTo(1);
    }

    @Test
    void createAndWaitThenActive() throws IOException {
        assertThat(writer.set(Q.rowStatus(20, CREATE_AND_WAIT)).isOk()).isTrue();
        assertThat(writer.get(Q.rowStatusOid(20)).bindings().get(0).getVariable().toInt())
                .isEqualTo(RowStatus.NOT_IN_SERVICE.code());
        assertThat(writer.walk(Oids.DOT1Q_VLAN_STATUS)).hasSize(1);
        assertThat(writer.set(Q.egress(20, 5), Q.rowStatus(20, ACTIVE)).isOk()).isTrue();
        assertThat(writer.walk(Oids.DOT1Q_VLAN_STATUS)).hasSize(2);
    }

    @Test
    void setsPvidsAndSystemScalars() throws IOException {
        writer.set(Q.rowStatus(30, CREATE_AND_GO), Q.egress(30, 7), Q.untagged(30, 7));
        assertThat(writer.set(Q.pvid(7, 30), new VariableBinding(Oids.scalar(Oids.SYS_LOCATION),
                new OctetString("lab rack"))).isOk()).isTrue();
        assertThat(writer.get(Q.pvidOid(7), Oids.scalar(Oids.SYS_LOCATION)).bindings())
                .extracting(vb -> vb.getVariable().toString()).containsExactly("30", "lab rack");
    }

    @Test
    void theObjectsNoSetChangesAreStillThereAfterOne() throws IOException {
        assertThat(writer.set(Q.pvid(7, 1)).isOk()).isTrue();

        assertThat(writer.walk(Oids.IF_INDEX)).hasSize(24);
        assertThat(writer.walk(Oids.DOT1D_BASE_PORT)).hasSize(24);
        assertThat(writer.walk(Oids.DOT1Q_PORT_INGRESS_FILTERING)).hasSize(24);
        assertThat(writer.get(Oids.child(Oids.IF_DESCR, 3), Oids.child(Oids.DOT1Q_PORT_ACCEPTABLE_FRAME_TYPES, 24),
                Q.pvidOid(7)).bindings()).extracting(vb -> vb.getVariable().toString())
                .containsExactly("port 3", "1", "1");
    }

    @Test
    void everyRejectionCarriesItsStandardErrorStatus() throws IOException {
        writer.set(Q.rowStatus(10, CREATE_AND_GO), Q.egress(10, 1, 2), Q.pvid(2, 10));
        assertThat(errorOf(Q.rowStatus(1, CREATE_AND_GO))).isEqualTo("inconsistentValue@1");
        assertThat(errorOf(Q.rowStatus(0, CREATE_AND_GO))).isEqualTo("noCreation@1");
        assertThat(errorOf(Q.rowStatus(4095, CREATE_AND_GO))).isEqualTo("noCreation@1");
        assertThat(errorOf(new VariableBinding(Q.egressOid(10), new OctetString(new byte[4]))))
                .isEqualTo("wrongLength@1");
        assertThat(errorOf(Q.untagged(10, 2, 3))).isEqualTo("inconsistentValue@1");
        assertThat(errorOf(Q.forbidden(10, 1))).isEqualTo("inconsistentValue@1");
        assertThat(errorOf(Q.pvid(3, 99))).isEqualTo("inconsistentValue@1");
        assertThat(errorOf(Q.rowStatus(10, DESTROY))).isEqualTo("inconsistentValue@1");
        assertThat(errorOf(new VariableBinding(Q.pvidOid(3), new Integer32(10)))).isEqualTo("wrongType@1");
        assertThat(errorOf(new VariableBinding(Q.rowStatusOid(11), new OctetString("go")))).isEqualTo("wrongType@1");
        assertThat(errorOf(new VariableBinding(Oids.scalar(Oids.SYS_DESCR), new OctetString("x"))))
                .isEqualTo("notWritable@1");
    }

    @Test
    void aPduWithOneBadVarbindChangesNothing() throws IOException {
        var before = sw.state();
        assertThat(errorOf(Q.rowStatus(40, CREATE_AND_GO), Q.egress(40, 1, 2), Q.name(40, "new"),
                new VariableBinding(Oids.scalar(Oids.SYS_NAME), new OctetString("renamed")), Q.pvid(1, 41)))
                .isEqualTo("inconsistentValue@5");
        assertThat(sw.state()).isEqualTo(before);
        assertThat(writer.get(Q.rowStatusOid(40)).bindings().get(0).getVariable()).isEqualTo(Null.noSuchInstance);
    }

    @Test
    void theReadCommunityCannotWriteAndUnknownCommunitiesGetNoAnswer() throws IOException {
        try (LabClient reader = LabClient.v2c(sw.snmpAddress(), "public", 2000);
             LabClient stranger = LabClient.v2c(sw.snmpAddress(), "guess", 300)) {
            assertThat(reader.get(Oids.scalar(Oids.SYS_NAME)).isOk()).isTrue();
            Response refused = reader.set(Q.rowStatus(50, CREATE_AND_GO));
            assertThat(refused.errorName()).isEqualTo("noAccess");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> stranger.get(Oids.scalar(Oids.SYS_NAME)))
                    .hasMessageContaining("no response");
        }
        assertThat(sw.state().vlan(50)).isNull();
    }

    @Test
    void snmpV3AuthPrivWithSha2AndWithSha1() throws IOException {
        for (UsmUserSpec user : List.of(UsmUserSpec.defaultSha256(), UsmUserSpec.defaultSha1())) {
            try (LabClient v3 = LabClient.v3(sw.snmpAddress(), user, 2000)) {
                int vlan = user.auth() == UsmUserSpec.Auth.SHA ? 61 : 62;
                assertThat(v3.set(Q.rowStatus(vlan, CREATE_AND_GO)).isOk()).isTrue();
                assertThat(v3.get(Q.rowStatusOid(vlan)).bindings().get(0).getVariable().toInt()).isEqualTo(ACTIVE);
            }
        }
        UsmUserSpec wrongKey = new UsmUserSpec("waldo", UsmUserSpec.Auth.SHA_256, "not-the-pass",
                UsmUserSpec.Priv.AES, "waldo-priv-pass");
        try (LabClient v3 = LabClient.v3(sw.snmpAddress(), wrongKey, 300)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> v3.get(Oids.scalar(Oids.SYS_NAME)))
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void configurationSurvivesARestart() throws IOException {
        writer.set(Q.rowStatus(10, CREATE_AND_GO), Q.name(10, "kept"), Q.egress(10, 1, 2), Q.untagged(10, 2),
                Q.pvid(2, 10), Q.rowStatus(11, CREATE_AND_WAIT),
                new VariableBinding(Oids.scalar(Oids.SYS_CONTACT), new OctetString("noc")));
        var before = sw.state();
        int boots = sw.engineBoots();
        sw.close();
        writer.close();
        sw = SimulatedSwitch.start(sw.config().withSnmpPort(0));
        writer = LabClient.v2c(sw.snmpAddress(), "private", 2000);
        assertThat(sw.engineBoots()).isEqualTo(boots + 1);
        assertThat(sw.state().vlans().keySet()).containsExactly(1, 10, 11);
        assertThat(sw.state().vlan(10).name()).isEqualTo("kept");
        assertThat(sw.state().pvid(2)).isEqualTo(10);
        assertThat(sw.state().sysContact()).isEqualTo("noc");
        assertThat(sw.state().vlan(11).status()).isEqualTo(RowStatus.NOT_IN_SERVICE);
        assertThat(sw.state().vlan(10).egress()).isEqualTo(before.vlan(10).egress());
        assertThat(writer.get(Q.nameOid(10)).bindings().get(0).getVariable().toString()).isEqualTo("kept");
    }
}
