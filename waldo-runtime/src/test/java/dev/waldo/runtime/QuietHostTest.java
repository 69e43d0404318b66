package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.testing.Node;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A host tells its transport when it needs no ticks ({@link Transport#wantTicks}): after a tick
 * that found its core with nothing timed, and wants them again as soon as anything reaches its
 * core, so a transport that leaves quiet hosts out of its ticks misses none of their work.
 */
class QuietHostTest {
    private InMemoryNetwork network;
    private TickWishes rootLink;
    private TickWishes partnerLink;
    private Node root;

    @BeforeEach
    void connect() {
        network = new InMemoryNetwork();
        rootLink = new TickWishes(network.attach("root"));
        partnerLink = new TickWishes(network.attach("partner"));
        root = Host.create("root", rootLink).connect(Node::create, Host.create("partner", partnerLink), Node::create)
                .local();
    }

    @AfterEach
    void close() {
        network.close();
    }

    @Test
    void aHostReachedByACallWantsTicksAgainAndLetsThemGoOnceTheTransactionIsOver() {
        Awaiting.until(() -> rootLink.last() == Boolean.FALSE && partnerLink.last() == Boolean.FALSE,
                "both hosts, idle after connecting, let their ticks go");
        rootLink.clear();
        partnerLink.clear();

        assertThat(root.bump(2)).isEqualTo(4.0);
        Awaiting.until(() -> rootLink.last() == Boolean.FALSE && partnerLink.last() == Boolean.FALSE,
                "both hosts let their ticks go again once the commit is acknowledged");

        assertThat(rootLink.wishes()).as("the root's host wanted ticks while its transaction ran")
                .startsWith(true).endsWith(false);
        assertThat(partnerLink.wishes()).as("the partner wanted ticks from the call until it was quiet")
                .startsWith(true).endsWith(false);
    }

    /** Records what its host says about ticks, in order; ticks still arrive as the network sends them. */
    private static final class TickWishes extends ForwardingTransport {
        private final List<Boolean> wishes = new ArrayList<>();

        TickWishes(Transport inner) {
            super(inner);
        }

        @Override
        public synchronized void wantTicks(boolean wanted) {
            wishes.add(wanted);
            super.wantTicks(wanted);
        }

        synchronized List<Boolean> wishes() {
            return List.copyOf(wishes);
        }

        synchronized Boolean last() {
            return wishes.isEmpty() ? null : wishes.getLast();
        }

        synchronized void clear() {
            wishes.clear();
        }
    }
}
