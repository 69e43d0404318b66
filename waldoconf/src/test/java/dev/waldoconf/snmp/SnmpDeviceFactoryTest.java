package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldoconf.config.Credentials;
import dev.waldoconf.config.HostPort;
import dev.waldoconf.config.SecretRef;
import dev.waldoconf.config.SnmpVersion;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class SnmpDeviceFactoryTest {
    private static final SwitchEntry SW1 = new SwitchEntry("sw1", new HostPort("127.0.0.1", 17101),
            new HostPort("127.0.0.1", 16101), SnmpVersion.V3, "core", OptionalInt.empty());

    @Test
    void missingSecretNamesTheSwitchTheCredentialsAndTheVariable() {
        var factory = new SnmpDeviceFactory(Map.of());
        var credentials = new Credentials.Community("lab", new SecretRef(SecretRef.Source.ENV, "LAB_COMMUNITY"));
        assertThatThrownBy(() -> factory.open(SW1, credentials)).isInstanceOf(DeviceException.class)
                .hasMessage("sw1: credentials 'lab': environment variable LAB_COMMUNITY is not set; export it with the"
                        + " secret before running waldoconf");
    }

    @Test
    void badV3SecretsAreReportedWithoutTheSecret() {
        var factory = new SnmpDeviceFactory(Map.of("AUTH", "short", "PRIV", "long-enough-privacy"));
        var credentials = new Credentials.Usm("core", "waldo", "SHA-256", new SecretRef(SecretRef.Source.ENV, "AUTH"),
                "AES", new SecretRef(SecretRef.Source.ENV, "PRIV"));
        assertThatThrownBy(() -> factory.open(SW1, credentials)).isInstanceOf(DeviceException.class)
                .hasMessageContaining("sw1: credentials 'core': ")
                .hasMessageContaining("at least 8 characters")
                .message().doesNotContain("short").doesNotContain("long-enough-privacy");
    }
}
