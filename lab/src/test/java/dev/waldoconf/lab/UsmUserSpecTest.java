package dev.waldoconf.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class UsmUserSpecTest {

    @Test
    void protocolsAreFoundByTheirNetSnmpNamesIgnoringCase() {
        assertThat(UsmUserSpec.Auth.fromLabel("sha-256")).isEqualTo(UsmUserSpec.Auth.SHA_256);
        assertThat(UsmUserSpec.Priv.fromLabel("AES-192")).isEqualTo(UsmUserSpec.Priv.AES_192);
    }

    @Test
    void anUnknownProtocolNamesItsKindAndEveryChoice() {
        assertThatThrownBy(() -> UsmUserSpec.Auth.fromLabel("MD5"))
                .hasMessage("unknown authentication protocol 'MD5'; choose one of SHA, SHA-224, SHA-256, "
                        + "SHA-384, SHA-512");
        assertThatThrownBy(() -> UsmUserSpec.Priv.fromLabel("DES"))
                .hasMessage("unknown privacy protocol 'DES'; choose one of AES, AES-192, AES-256");
    }

    @Test
    void shortPassphrasesAreRefusedWithTheUsersName() {
        assertThatThrownBy(() -> new UsmUserSpec("ops", UsmUserSpec.Auth.SHA, "short", UsmUserSpec.Priv.AES,
                "longenough")).hasMessage("USM user 'ops': passphrases need at least 8 characters");
    }
}
