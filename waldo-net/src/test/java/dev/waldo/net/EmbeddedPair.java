package dev.waldo.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Host "a" and host "b", each on a node of its own (no TLS), linked by one stream over a pair of
 * EmbeddedChannels: the real pipelines, codecs and guards, with bytes moved by {@link #pump}
 * instead of sockets. "a" dialed, "b" accepted.
 */
final class EmbeddedPair implements AutoCloseable {
    final RecordingListener aEvents = new RecordingListener();
    final RecordingListener bEvents = new RecordingListener();
    final HostNumbers aHosts = new HostNumbers();
    final HostNumbers bHosts = new HostNumbers();
    final int a = aHosts.register("a");
    final int b = bHosts.register("b");
    final EmbeddedChannel aChannel;
    final EmbeddedChannel bChannel;
    /** a's link to b, and b's to a. */
    final PeerLink aToB;
    final PeerLink bToA;
    private final NetNode aNode;
    private final NetNode bNode;

    /** A pair whose nodes' configurations are the defaults changed by {@code tune}. */
    EmbeddedPair(UnaryOperator<NetConfig> tune) {
        aNode = NetNode.own(tune.apply(NetConfig.defaults("a", Path.of("unused")).insecure()));
        bNode = NetNode.own(tune.apply(NetConfig.defaults("b", Path.of("unused")).insecure()));
        NetNode.Resident aHost = join(aNode, aHosts, a, aEvents);
        join(bNode, bHosts, b, bEvents);
        aChannel = new EmbeddedChannel(new WaldoChannelInitializer(aNode, null, null, new TrafficCounter(), false));
        bChannel = new EmbeddedChannel(new WaldoChannelInitializer(bNode, null, null, new TrafficCounter(), true));
        pump(aChannel, bChannel);
        pump(bChannel, aChannel);
        var opened = aChannel.pipeline().get(Connection.class).open(aHost, "b", null,
                new InetSocketAddress("127.0.0.1", 1));
        pump(aChannel, bChannel);
        pump(bChannel, aChannel);
        try {
            aToB = opened.get(1, TimeUnit.SECONDS);
            bToA = bEvents.nextUp();
            aEvents.nextUp();
        } catch (Exception e) {
            throw new AssertionError("the embedded stream did not open", e);
        }
    }

    private static NetNode.Resident join(NetNode node, HostNumbers hosts, int local, RecordingListener events) {
        ProtocolGuard guard = new ProtocolGuard(local, 0);
        ValueCodec values = new ValueCodec(StructResolver.NONE);
        return node.join(node.config().hostId(), 1, events,
                peer -> new ProtocolCodec(local, hosts.register(peer), hosts, guard, values));
    }

    /** Moves every byte {@code from} wrote into {@code to}; returns how many. */
    static int pump(EmbeddedChannel from, EmbeddedChannel to) {
        int moved = 0;
        from.runPendingTasks();
        for (ByteBuf bytes = from.readOutbound(); bytes != null; bytes = from.readOutbound()) {
            moved += bytes.readableBytes();
            to.writeInbound(bytes);
        }
        return moved;
    }

    @Override
    public void close() {
        aChannel.close();
        bChannel.close();
        aNode.close();
        bNode.close();
    }
}
