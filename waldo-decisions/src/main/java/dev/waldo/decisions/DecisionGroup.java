package dev.waldo.decisions;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;

/**
 * The replicas of one decision register: a Raft group. Every replica and every host's
 * {@link RatisDecisionRegister} must be given the same group. An odd number of replicas on
 * different machines (three or five) keeps the register answering while fewer than half are down.
 *
 * @param id the group's id, the same everywhere (replicas keep their log under it)
 * @param replicas each replica's name and the address it listens on, in a fixed order
 */
public record DecisionGroup(UUID id, Map<String, InetSocketAddress> replicas) {
    /** Copies the replicas, keeping their order. */
    public DecisionGroup {
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("a decision group needs at least one replica");
        }
        replicas = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(replicas));
    }

    /** The group as one line, {@code ID@NAME=HOST:PORT,NAME=HOST:PORT,...}, for a command line ({@link #parse}). */
    public String spec() {
        return id + "@" + replicas.entrySet().stream()
                .map(replica -> replica.getKey() + "=" + replica.getValue().getHostString() + ":"
                        + replica.getValue().getPort())
                .collect(Collectors.joining(","));
    }

    /**
     * Reads a group written by {@link #spec()}.
     *
     * @throws IllegalArgumentException saying which part is not as {@link #spec()} writes it
     */
    public static DecisionGroup parse(String spec) {
        int at = spec.indexOf('@');
        if (at < 0) {
            throw new IllegalArgumentException("decision group '" + spec + "' is not ID@NAME=HOST:PORT,...");
        }
        UUID id;
        try {
            id = UUID.fromString(spec.substring(0, at));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("decision group '" + spec + "': '" + spec.substring(0, at)
                    + "' is not a UUID", e);
        }
        Map<String, InetSocketAddress> replicas = new LinkedHashMap<>();
        for (String replica : spec.substring(at + 1).split(",")) {
            int equals = replica.indexOf('=');
            int colon = replica.lastIndexOf(':');
            if (equals < 1 || colon < equals) {
                throw new IllegalArgumentException("decision group '" + spec + "': replica '" + replica
                        + "' is not NAME=HOST:PORT");
            }
            int port;
            try {
                port = Integer.parseInt(replica.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("decision group '" + spec + "': replica '" + replica
                        + "' has no port number", e);
            }
            replicas.put(replica.substring(0, equals),
                    InetSocketAddress.createUnresolved(replica.substring(equals + 1, colon), port));
        }
        return new DecisionGroup(id, replicas);
    }

    RaftGroup raftGroup() {
        List<RaftPeer> peers = replicas.entrySet().stream()
                .map(replica -> RaftPeer.newBuilder().setId(replica.getKey())
                        .setAddress(replica.getValue().getHostString() + ":" + replica.getValue().getPort()).build())
                .toList();
        return RaftGroup.valueOf(RaftGroupId.valueOf(id), peers);
    }

    InetSocketAddress addressOf(String replica) {
        InetSocketAddress address = replicas.get(replica);
        if (address == null) {
            throw new IllegalArgumentException("no replica '" + replica + "' in decision group " + id
                    + "; its replicas are " + replicas.keySet());
        }
        return address;
    }
}
