package dev.waldo.net;

import dev.waldo.net.wire.Address;
import dev.waldo.net.wire.Frame;
import dev.waldo.net.wire.NameDefinition;
import io.netty.handler.codec.EncoderException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The names this host sent on one connection. A name (host id, function,
 * sequence or data entry) travels once, in a {@link NameDefinition} riding on
 * the first frame that uses it; after that only its alias travels. Aliases 0
 * and 1 are reserved for the frame's sender and receiver host.
 */
final class OutboundNames {
    /** Host alias of the frame's sender. */
    static final int SENDER = 0;
    /** Host alias of the frame's receiver. */
    static final int RECEIVER = 1;
    /** The first alias a NameDefinition may assign. */
    static final int FIRST_ALIAS = 2;
    /** The most names one direction of a connection may define; the receiver enforces it too. */
    static final int MAX_NAMES = 65_536;

    private final Map<String, Integer> aliases = new HashMap<>();
    private final List<NameDefinition> pending = new ArrayList<>();

    /** The alias of {@code name}, defining it if this connection has not seen it yet. */
    int alias(String name) {
        return alias(name, null);
    }

    /**
     * The alias of host id {@code hostId}, defining it, with where the host
     * can be dialed if {@code address} is known, if this connection has not
     * seen it yet.
     */
    int hostAlias(String hostId, InetSocketAddress address) {
        return alias(hostId, address);
    }

    private int alias(String name, InetSocketAddress address) {
        Integer alias = aliases.get(name);
        if (alias != null) {
            return alias;
        }
        if (aliases.size() >= MAX_NAMES) {
            throw new EncoderException("more than " + MAX_NAMES + " distinct names on one connection");
        }
        int assigned = FIRST_ALIAS + aliases.size();
        aliases.put(name, assigned);
        NameDefinition.Builder definition = NameDefinition.newBuilder().setAlias(assigned).setName(name);
        if (address != null) {
            definition.setAddress(Address.newBuilder().setHost(address.getHostString()).setPort(address.getPort()));
        }
        pending.add(definition.build());
        return assigned;
    }

    /** Attaches the definitions made since the last frame to {@code frame}. */
    void attachDefinitions(Frame.Builder frame) {
        if (!pending.isEmpty()) {
            frame.addAllNames(pending);
            pending.clear();
        }
    }
}
