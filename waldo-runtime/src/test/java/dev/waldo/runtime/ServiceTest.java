package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.testing.Hub;
import dev.waldo.runtime.testing.Node;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A service driving many endpoints in one transaction, and partners on one host. */
class ServiceTest {
    private InMemoryNetwork network;
    private Host server;
    private Host clientA;
    private Host clientB;

    @BeforeEach
    void start() {
        network = new InMemoryNetwork();
        server = Host.inMemory(network, "server");
        clientA = Host.inMemory(network, "clientA");
        clientB = Host.inMemory(network, "clientB");
    }

    @AfterEach
    void stop() {
        network.close();
    }

    @Test
    void serviceRunsASequenceOnEveryMemberInOneTransaction() {
        Host.Connection<Node, Node> toA = server.connect(Node::create, clientA, Node::create);
        Host.Connection<Node, Node> toB = server.connect(Node::create, clientB, Node::create);
        Hub hub = Hub.create(server);
        hub.join(toA.local().ref());
        hub.join(toB.local().ref());
        assertThat(hub.bumpAll(1)).isEqualTo(2.0 + 2.0);
        assertThat(toA.remote().committedValue("x")).isEqualTo(1.0);
        assertThat(toB.remote().committedValue("x")).isEqualTo(1.0);
        assertThat(hub.committedValue("reached")).isEqualTo(2.0);
    }

    @Test
    void serviceGoesOnWithoutAMemberWhoseHostClosed() {
        Node onA = Node.create(clientA);
        Node onB = Node.create(clientB);
        Host.pair(onA, Node.create(server));
        Host.pair(onB, Node.create(server));
        Hub hub = Hub.create(server);
        hub.join(onA.ref());
        hub.join(onB.ref());
        clientB.close();
        hub.bumpAll(1);
        assertThat(hub.committedValue("reached")).isEqualTo(1.0);
        assertThat(onA.committedValue("x")).isEqualTo(1.0);
        assertThat(onB.committedValue("x")).isEqualTo(0.0);
    }

    @Test
    void partnersOnOneHostRunSequencesToo() {
        Host.Connection<Node, Node> pair = server.connect(Node::create, server, Node::create);
        assertThat(pair.local().bump(3)).isEqualTo(3.0 + 3.0);
        assertThat(pair.remote().committedValue("x")).isEqualTo(3.0);
    }
}
