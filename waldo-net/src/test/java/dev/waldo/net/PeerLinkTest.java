package dev.waldo.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A link's write path: an unhurried message waits for the next message to the same peer and
 * leaves in its flush, in order, or leaves on its own once the piggyback delay passed.
 */
class PeerLinkTest {
    /** Records each write and each flush, as the wire would see them. */
    private static final class Wire extends ChannelOutboundHandlerAdapter {
        final List<String> events = new ArrayList<>();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            events.add((String) msg);
            promise.setSuccess();
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            events.add("flush");
        }
    }

    private final Wire wire = new Wire();
    private final EmbeddedChannel channel = new EmbeddedChannel(wire);
    private final PeerLink link = new PeerLink(channel, new PeerIdentity("peer", "peer", Set.of(), false), 1);

    PeerLinkTest() {
        channel.freezeTime(); // the delay passes only when a test says so
    }

    @Test
    void anUnhurriedMessageLeavesInTheFlushOfTheNextMessageBeforeIt() {
        link.sendUnhurried("commit");
        channel.runPendingTasks();
        assertThat(wire.events).isEmpty();

        link.send("call");
        channel.runPendingTasks();
        assertThat(wire.events).containsExactly("commit", "call", "flush");
    }

    @Test
    void anUnhurriedMessageLeavesOnItsOwnOnceThePiggybackDelayPassed() {
        link.sendUnhurried("ack");
        channel.advanceTimeBy(PeerLink.PIGGYBACK_MICROS - 1, TimeUnit.MICROSECONDS);
        channel.runScheduledPendingTasks();
        assertThat(wire.events).isEmpty();

        channel.advanceTimeBy(1, TimeUnit.MICROSECONDS);
        channel.runScheduledPendingTasks();
        assertThat(wire.events).containsExactly("ack", "flush");
    }
}
