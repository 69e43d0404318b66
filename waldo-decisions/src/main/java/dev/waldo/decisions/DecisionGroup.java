package dev.waldo.decisions;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
