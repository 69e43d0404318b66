package dev.waldo.decisions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Three decision replicas on loopback, each with its log in a folder of its own, for tests. */
final class ReplicaGroup implements AutoCloseable {
    final DecisionGroup group;
    private final Path directory;
    private final DecisionReplica[] replicas;

    private ReplicaGroup(DecisionGroup group, Path directory) {
        this.group = group;
        this.directory = directory;
        this.replicas = new DecisionReplica[group.replicas().size()];
    }

    /** Starts three replicas under {@code directory}; ports are picked afresh if one was taken meanwhile. */
    static ReplicaGroup start(Path directory) throws IOException {
        for (int attempt = 1; ; attempt++) {
            ReplicaGroup replicas = new ReplicaGroup(new DecisionGroup(UUID.randomUUID(), freeAddresses(3)), directory);
            try {
                for (int i = 0; i < replicas.replicas.length; i++) {
                    replicas.startReplica(i);
                }
                return replicas;
            } catch (UncheckedIOException portTaken) {
                replicas.close();
                if (attempt == 3) {
                    throw portTaken;
                }
            }
        }
    }

    private static Map<String, InetSocketAddress> freeAddresses(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        Map<String, InetSocketAddress> addresses = new LinkedHashMap<>();
        try {
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                addresses.put("replica" + (i + 1), new InetSocketAddress("127.0.0.1", socket.getLocalPort()));
            }
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
        return addresses;
    }

    /** Starts replica {@code i} (again), on its log. */
    void startReplica(int i) {
        String name = "replica" + (i + 1);
        replicas[i] = DecisionReplica.start(group, name, directory.resolve(name));
    }

    /** Stops replica {@code i}; its log stays. */
    void stopReplica(int i) {
        replicas[i].close();
        replicas[i] = null;
    }

    /** The replica that leads now, waiting for an election if none does. */
    int leader() throws InterruptedException {
        for (int tries = 0; tries < 300; tries++) {
            for (int i = 0; i < replicas.length; i++) {
                if (replicas[i] != null && replicas[i].isLeader()) {
                    return i;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no replica of " + group.replicas().keySet() + " became leader within 15 s");
    }

    @Override
    public void close() {
        for (int i = 0; i < replicas.length; i++) {
            if (replicas[i] != null) {
                stopReplica(i);
            }
        }
    }
}
