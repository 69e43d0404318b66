package dev.waldo.net;

import dev.waldo.net.wire.Address;
import dev.waldo.net.wire.Frame;
import dev.waldo.net.wire.NameDefinition;
import dev.waldo.runtime.core.Envelope;
import dev.waldo.runtime.core.Message;
import dev.waldo.runtime.core.Priority;
import dev.waldo.runtime.core.TxnId;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Translates between the core's protocol messages and wire frames on one
 * stream (one host at each end of a connection). It owns the stream's name aliases and
 * Lamport clock deltas, so it runs on the connection's I/O thread in write
 * order, and it checks every inbound message against the {@link ProtocolGuard}
 * before the core may see it.
 */
final class ProtocolCodec {
    private static final Logger log = LoggerFactory.getLogger(ProtocolCodec.class);
    private final int localHost;
    private final HostNumbers hosts;
    private final ProtocolGuard guard;
    private final WireMessages messages;
    private final OutboundNames outboundNames = new OutboundNames();
    private final InboundNames inboundNames = new InboundNames();
    private final int peerHost;
    private long lastClockSent;
    private long lastClockReceived;
    /** Per root host, the last attempt serial sent and received on this connection (see the .proto file). */
    private final Map<Integer, Long> lastSerialSent = new HashMap<>();
    private final Map<Integer, Long> lastSerialReceived = new HashMap<>();
    /** The last call, reply and frame ids sent and received on this connection (see the .proto file). */
    private long lastCallSent;
    private long lastCallReceived;
    private long lastReplySent;
    private long lastReplyReceived;
    private long lastFrameSent;
    private long lastFrameReceived;

    /**
     * The codec of a stream between host {@code localHost} and host {@code peerHost} (both registered
     * in {@code hosts}, the local host's directory).
     */
    ProtocolCodec(int localHost, int peerHost, HostNumbers hosts, ProtocolGuard guard, ValueCodec values) {
        this.localHost = localHost;
        this.peerHost = peerHost;
        this.hosts = hosts;
        this.guard = guard;
        this.messages = new WireMessages(values, new Aliases());
    }

    /** The frame that carries {@code envelope} to the peer host; the caller sets its stream. */
    Frame.Builder encode(Envelope envelope) {
        Frame.Builder frame = Frame.newBuilder().setClockDelta(envelope.clock() - lastClockSent);
        lastClockSent = envelope.clock();
        messages.encode(envelope.message(), envelope.clock(), frame);
        outboundNames.attachDefinitions(frame);
        guard.sent(peerHost, envelope.message());
        if (log.isTraceEnabled()) {
            log.trace("to {}: {}", peerHost, envelope.message());
        }
        return frame;
    }

    /**
     * The core message {@code frame} carries from the peer host, checked by the guard.
     *
     * @throws ProtocolViolationException if it is no core message, or one no correct host could send
     */
    Envelope decode(Frame frame) {
        for (NameDefinition definition : frame.getNamesList()) {
            inboundNames.define(definition);
            if (definition.hasAddress()) {
                hosts.hearOf(definition.getName(), address(definition.getAddress()));
            }
        }
        long clock = lastClockReceived + frame.getClockDelta();
        Message message = messages.decode(frame, clock);
        lastClockReceived = clock;
        if (log.isTraceEnabled()) {
            log.trace("from {}: {}", peerHost, message);
        }
        guard.received(peerHost, message);
        return new Envelope(peerHost, localHost, clock, message);
    }

    /** An address a peer gave for a host; resolved only when dialed, never on the I/O thread. */
    private static InetSocketAddress address(Address address) {
        if (address.getHost().isEmpty() || address.getHost().length() > 255
                || address.getPort() < 1 || address.getPort() > 65_535) {
            throw new ProtocolViolationException("peer gave an invalid host address " + address.getHost() + ":"
                    + address.getPort());
        }
        return InetSocketAddress.createUnresolved(address.getHost(), address.getPort());
    }

    /** Host numbers and names as aliases of this connection, in both directions. */
    final class Aliases {
        /** The wire alias of host {@code number} in a frame this host sends. */
        int hostAlias(int number) {
            if (number == localHost) {
                return OutboundNames.SENDER;
            }
            if (number == peerHost) {
                return OutboundNames.RECEIVER;
            }
            String id = hosts.id(number);
            if (id == null) {
                throw new IllegalStateException("core sent host number " + number + ", which no link announced");
            }
            return outboundNames.hostAlias(id, hosts.address(number));
        }

        /** The host number behind wire alias {@code alias} in a frame the peer sent. */
        int hostNumber(int alias) {
            return switch (alias) {
                case OutboundNames.SENDER -> peerHost;
                case OutboundNames.RECEIVER -> localHost;
                default -> hosts.register(inboundNames.name(alias));
            };
        }

        int nameAlias(String name) {
            return outboundNames.alias(name);
        }

        String name(int alias) {
            return inboundNames.name(alias);
        }

        /** The inverse of the peer's {@link #serialDelta}: the attempt a received message concerns. */
        TxnId txn(int hostAlias, long serialDelta) {
            int host = hostNumber(hostAlias);
            long serial = lastSerialReceived.getOrDefault(host, 0L) + serialDelta;
            lastSerialReceived.put(host, serial);
            return new TxnId(host, serial);
        }

        /** How {@code txn}'s serial travels: relative to the last one sent here for the same root host. */
        long serialDelta(TxnId txn) {
            Long last = lastSerialSent.put(txn.host(), txn.serial());
            return txn.serial() - (last == null ? 0 : last);
        }

        /** Participants without the sender, which the receiver adds back. */
        Set<Integer> participantsOf(List<Integer> aliases) {
            return hostsAnd(peerHost, aliases);
        }

        /** Aliases of {@code hosts} except the two ends of this connection, which the receiver adds back. */
        List<Integer> thirdPartyAliases(Set<Integer> hosts) {
            List<Integer> aliases = new ArrayList<>();
            for (int number : hosts) {
                if (number != localHost && number != peerHost) {
                    aliases.add(hostAlias(number));
                }
            }
            return aliases;
        }

        /** The inverse of the peer's {@link #thirdPartyAliases}, for a set that held the receiver. */
        Set<Integer> receiverAnd(List<Integer> aliases) {
            return hostsAnd(localHost, aliases);
        }

        private Set<Integer> hostsAnd(int host, List<Integer> aliases) {
            Set<Integer> hosts = new HashSet<>();
            hosts.add(host);
            for (int alias : aliases) {
                hosts.add(hostNumber(alias));
            }
            return hosts;
        }

        /** A Call's id as it travels: relative to the previous Call sent on this connection. */
        long callIdOut(long id) {
            long delta = id - lastCallSent;
            lastCallSent = id;
            return delta;
        }

        /** The inverse of the peer's {@link #callIdOut}. */
        long callIdIn(long delta) {
            lastCallReceived += delta;
            return lastCallReceived;
        }

        /** A Reply's call id as it travels: relative to the previous Reply sent on this connection. */
        long replyIdOut(long id) {
            long delta = id - lastReplySent;
            lastReplySent = id;
            return delta;
        }

        /** The inverse of the peer's {@link #replyIdOut}. */
        long replyIdIn(long delta) {
            lastReplyReceived += delta;
            return lastReplyReceived;
        }

        /** A step's sequence frame id as it travels: relative to the previous step's sent on this connection. */
        long frameIdOut(long id) {
            long delta = id - lastFrameSent;
            lastFrameSent = id;
            return delta;
        }

        /** The inverse of the peer's {@link #frameIdOut}. */
        long frameIdIn(long delta) {
            lastFrameReceived += delta;
            return lastFrameReceived;
        }

        boolean isLocal(int number) {
            return number == localHost;
        }

        /** A priority's wire form is relative to the attempt it travels with (see the .proto file). */
        dev.waldo.net.wire.Priority priority(Priority priority, TxnId txn, long clock) {
            var wire = dev.waldo.net.wire.Priority.newBuilder().setPrimary(priority.primary())
                    .setAge(clock - priority.timestamp()).setRootOffset(txn.serial() - priority.root() - 1);
            if (priority.host() != txn.host()) {
                wire.setHost(hostAlias(priority.host()));
            }
            return wire.build();
        }

        Priority priority(dev.waldo.net.wire.Priority wire, TxnId txn, long clock) {
            int host = wire.hasHost() ? hostNumber(wire.getHost()) : txn.host();
            return new Priority(wire.getPrimary(), clock - wire.getAge(), host, txn.serial() - wire.getRootOffset() - 1);
        }
    }
}
