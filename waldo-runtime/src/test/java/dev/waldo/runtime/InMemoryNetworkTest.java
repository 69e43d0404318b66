package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.Message;
import dev.waldo.runtime.core.TxnId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The in-memory network's links: unhurried messages travel with the next message to the same host, in order. */
class InMemoryNetworkTest {
    private final InMemoryNetwork network = new InMemoryNetwork();
    private final Transport a = network.attach("a");
    private final Transport b = network.attach("b");
    private final List<Message> received = new CopyOnWriteArrayList<>();

    InMemoryNetworkTest() {
        a.start(new Recording(new CopyOnWriteArrayList<>()));
        b.start(new Recording(received));
    }

    @AfterEach
    void close() {
        network.close();
    }

    @Test
    void anUnhurriedMessageArrivesBeforeTheNextMessageToTheSameHost() {
        TxnId txn = new TxnId(a.localHost(), 1);
        a.send(new Envelope(a.localHost(), b.localHost(), 1, new Message.Commit(txn), true));
        a.send(new Envelope(a.localHost(), b.localHost(), 2, new Message.Wound(txn)));
        Awaiting.until(() -> received.size() == 2, "both messages at b");
        assertThat(received).containsExactly(new Message.Commit(txn), new Message.Wound(txn));
    }

    @Test
    void anUnhurriedMessageAloneArrivesAfterThePiggybackDelay() {
        TxnId txn = new TxnId(a.localHost(), 1);
        a.send(new Envelope(a.localHost(), b.localHost(), 1, new Message.Ack(txn), true));
        Awaiting.until(() -> received.size() == 1, "the ack at b");
        assertThat(received).containsExactly(new Message.Ack(txn));
    }

    private record Recording(List<Message> messages) implements Transport.Receiver {
        @Override
        public void onMessage(Envelope envelope) {
            messages.add(envelope.message());
        }

        @Override
        public void onLinkDown(int host) {
        }

        @Override
        public void onLinkUp(int host) {
        }

        @Override
        public void onTick() {
        }
    }
}
