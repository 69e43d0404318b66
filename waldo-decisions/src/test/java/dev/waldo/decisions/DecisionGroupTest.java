package dev.waldo.decisions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A decision group written on one line for a command line, and read back. */
class DecisionGroupTest {
    @Test
    void aGroupReadsBackFromItsSpec() {
        Map<String, InetSocketAddress> replicas = new LinkedHashMap<>();
        replicas.put("r1", InetSocketAddress.createUnresolved("127.0.0.1", 9871));
        replicas.put("r2", InetSocketAddress.createUnresolved("10.0.0.2", 9872));
        DecisionGroup group = new DecisionGroup(UUID.fromString("0f5b9d36-6f1e-4d3c-9a55-3b1d8f0c2a11"), replicas);

        assertThat(group.spec()).isEqualTo("0f5b9d36-6f1e-4d3c-9a55-3b1d8f0c2a11@r1=127.0.0.1:9871,r2=10.0.0.2:9872");
        DecisionGroup read = DecisionGroup.parse(group.spec());
        assertThat(read.id()).isEqualTo(group.id());
        assertThat(read.spec()).isEqualTo(group.spec());
    }

    @Test
    void aMalformedSpecSaysWhichPartIsWrong() {
        assertThatThrownBy(() -> DecisionGroup.parse("r1=127.0.0.1:9871"))
                .hasMessageContaining("is not ID@NAME=HOST:PORT");
        assertThatThrownBy(() -> DecisionGroup.parse("group@r1=127.0.0.1:9871"))
                .hasMessageContaining("'group' is not a UUID");
        assertThatThrownBy(() -> DecisionGroup.parse(UUID.randomUUID() + "@r1:9871"))
                .hasMessageContaining("replica 'r1:9871' is not NAME=HOST:PORT");
        assertThatThrownBy(() -> DecisionGroup.parse(UUID.randomUUID() + "@r1=localhost:x"))
                .hasMessageContaining("replica 'r1=localhost:x' has no port number");
    }
}
