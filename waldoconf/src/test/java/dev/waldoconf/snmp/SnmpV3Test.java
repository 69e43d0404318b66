package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.waldoconf.device.DeviceException;
import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.UsmUserSpec;
import dev.waldoconf.lab.model.QuirkProfile;
import dev.waldoconf.model.SwitchState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SNMPv3 authPriv with SHA-2 and SHA-1 users, and secrets kept out of text. */
class SnmpV3Test {
    private SimulatedSwitch sw;

    @BeforeEach
    void start() throws Exception {
        sw = LabSwitches.start(QuirkProfile.STANDARD);
    }

    @AfterEach
    void stop() {
        sw.close();
    }

    @Test
    void aSha256UserAndASha1UserBothReadTheSwitch() throws Exception {
        for (UsmUserSpec user : new UsmUserSpec[] {UsmUserSpec.defaultSha256(), UsmUserSpec.defaultSha1()}) {
            try (SnmpVlanDevice device = SnmpVlanDevice.open(sw.name(), LabSwitches.v3(sw, user))) {
                assertThat(device.read()).as(user.name()).isEqualTo(SwitchState.factoryDefault(24));
            }
        }
    }

    @Test
    void aWrongPassphraseFailsWithoutRevealingIt() {
        UsmUserSpec lab = UsmUserSpec.defaultSha256();
        SnmpCredentials.Usm wrong = new SnmpCredentials.Usm(lab.name(), SnmpCredentials.Auth.SHA256,
                "not-the-auth-pass", SnmpCredentials.Priv.AES128, lab.privPassphrase());
        SnmpTarget target = new SnmpTarget(sw.snmpAddress(), wrong, LabSwitches.SHORT_TIMEOUT_MS, 0);

        DeviceException failure = catchThrowableOfType(DeviceException.class, () -> {
            try (SnmpVlanDevice device = SnmpVlanDevice.open(sw.name(), target)) {
                device.read();
            }
        });

        assertThat(failure.getMessage()).contains(sw.name(), "'waldo'")
                .doesNotContain("not-the-auth-pass", lab.privPassphrase());
    }

    @Test
    void aSha1UserAddressedAsSha256IsRefused() {
        UsmUserSpec lab = UsmUserSpec.defaultSha1();
        SnmpCredentials.Usm mismatched = new SnmpCredentials.Usm(lab.name(), SnmpCredentials.Auth.SHA256,
                lab.authPassphrase(), SnmpCredentials.Priv.AES128, lab.privPassphrase());

        assertThatThrownBy(() -> {
            try (SnmpVlanDevice device = SnmpVlanDevice.open(sw.name(),
                    new SnmpTarget(sw.snmpAddress(), mismatched, LabSwitches.SHORT_TIMEOUT_MS, 0))) {
                device.read();
            }
        }).isInstanceOf(DeviceException.class).hasMessageContaining(sw.name());
    }

    @Test
    void anUnresolvableHostIsReportedWhenTheDeviceIsOpened() {
        SnmpTarget target = SnmpTarget.of(java.net.InetSocketAddress.createUnresolved("no-such-switch.invalid", 161),
                new SnmpCredentials.Community("private"));

        assertThatThrownBy(() -> SnmpVlanDevice.open("ghost-1", target)).isInstanceOf(DeviceException.class)
                .hasMessageContaining("ghost-1").hasMessageContaining("no-such-switch.invalid");
    }

    @Test
    void credentialsAndTargetsNeverPrintTheirSecrets() {
        SnmpCredentials community = new SnmpCredentials.Community("c0mmunity-secret");
        SnmpCredentials usm = new SnmpCredentials.Usm("ops", SnmpCredentials.Auth.SHA512, "auth-secret-1",
                SnmpCredentials.Priv.AES256, "priv-secret-2");

        assertThat(community.toString()).doesNotContain("c0mmunity-secret").contains("v2c");
        assertThat(usm.toString()).doesNotContain("auth-secret-1", "priv-secret-2").contains("ops", "SHA-512", "AES-256");
        assertThat(SnmpTarget.of(sw.snmpAddress(), usm).toString()).doesNotContain("auth-secret-1", "priv-secret-2");
        assertThatThrownBy(() -> new SnmpCredentials.Usm("ops", SnmpCredentials.Auth.SHA1, "short", SnmpCredentials.Priv.AES128,
                "long-enough-1")).hasMessageNotContaining("short\"").hasMessageContaining("at least 8 characters");
    }
}
