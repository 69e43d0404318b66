package dev.waldo.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.net.wire.Attach;
import dev.waldo.net.wire.Frame;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A link's write path on its connection: an unhurried message waits for the next message on the
 * connection and leaves in its flush, before it, or leaves on its own once the piggyback delay
 * passed. Real pipelines over embedded channels ({@link EmbeddedPair}); the messages are host
 * wiring frames, which the receiving node hands on as they are, so their order can be read there.
 */
class PeerLinkTest {
    /** Counts what leaves a's pipeline: each write (of bytes) and each flush. */
    private static final class Wire extends ChannelOutboundHandlerAdapter {
        final List<String> events = new ArrayList<>();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            events.add("write");
            ctx.write(msg, promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            events.add("flush");
            ctx.flush();
        }
    }

    private final EmbeddedPair pair = new EmbeddedPair(config -> config);
    private final Wire wire = new Wire();

    PeerLinkTest() {
        pair.aChannel.pipeline().addFirst(wire);
        pair.aChannel.freezeTime(); // the delay passes only when a test says so
    }

    @AfterEach
    void close() {
        pair.close();
    }

    @Test
    void anUnhurriedMessageLeavesInTheFlushOfTheNextMessageBeforeIt() throws Exception {
        pair.aToB.sendUnhurried(attach(1));
        pair.aChannel.runPendingTasks();
        assertThat(wire.events).as("nothing written while the message waits").isEmpty();

        pair.aToB.send(attach(2));
        pair.aChannel.runPendingTasks();
        assertThat(wire.events).as("both written, one flush").endsWith("flush").containsOnlyOnce("flush");

        EmbeddedPair.pump(pair.aChannel, pair.bChannel);
        assertThat(requestOf(pair.bEvents.nextMessage())).isEqualTo(1);
        assertThat(requestOf(pair.bEvents.nextMessage())).isEqualTo(2);
    }

    @Test
    void anUnhurriedMessageLeavesOnItsOwnOnceThePiggybackDelayPassed() throws Exception {
        pair.aToB.sendUnhurried(attach(3));
        pair.aChannel.advanceTimeBy(Connection.PIGGYBACK_MICROS - 1, TimeUnit.MICROSECONDS);
        pair.aChannel.runScheduledPendingTasks();
        assertThat(wire.events).isEmpty();

        pair.aChannel.advanceTimeBy(1, TimeUnit.MICROSECONDS);
        pair.aChannel.runScheduledPendingTasks();
        assertThat(wire.events).endsWith("flush").containsOnlyOnce("flush");
        EmbeddedPair.pump(pair.aChannel, pair.bChannel);
        assertThat(requestOf(pair.bEvents.nextMessage())).isEqualTo(3);
    }

    private static Frame attach(long request) {
        return Frame.newBuilder().setAttach(Attach.newBuilder().setRequest(request).setPort(1)).build();
    }

    private static long requestOf(Object message) {
        return ((Frame) message).getAttach().getRequest();
    }
}
