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

/**
 * A decision register's replicas all on loopback in this process, each with its log in a folder of
 * its own: for tests, labs and demos on one machine (a real deployment runs one
 * {@link DecisionReplica} per machine). Replicas can be stopped and started again on their logs.
 */
public final class LoopbackReplicas implements AutoCloseable {
    /** The group the replicas form, to connect registers to ({@link RatisDecisionRegister#connect}). */
    public final DecisionGroup group;
    private final Path directory;
    private final DecisionReplica[] replicas;

    private LoopbackReplicas(DecisionGroup group, Path directory) {
        this.group = group;
        this.directory = directory;
        this.replicas = new DecisionReplica[group.replicas().size()];
    }

    /**
     * Starts {@code count} replicas under {@code directory}. Their ports are picked free and
     * released just before the replicas bind them, so another program may take one meanwhile:
     * then all are picked afresh (three tries).
     *
     * @throws UncheckedIOException if the replicas could not start three times over
     */
    public static LoopbackReplicas start(int count, Path directory) throws IOException {
        for (int attempt = 1; ; attempt++) {
            LoopbackReplicas replicas = new LoopbackReplicas(new DecisionGroup(UUID.randomUUID(), freeAddresses(count)),
                    directory);
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
    public void startReplica(int i) {
        String name = "replica" + (i + 1);
        replicas[i] = DecisionReplica.start(group, name, directory.resolve(name));
    }

    /** Stops replica {@code i}; its log stays. */
    public void stopReplica(int i) {
        replicas[i].close();
        replicas[i] = null;
    }

    /**
     * The replica that leads now, waiting for an election if none does.
     *
     * @throws IllegalStateException if none leads within 15 s (fewer than a majority run)
     */
    public int leader() throws InterruptedException {
        for (int tries = 0; tries < 300; tries++) {
            for (int i = 0; i < replicas.length; i++) {
                if (replicas[i] != null && replicas[i].isLeader()) {
                    return i;
                }
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("no replica of " + group.replicas().keySet() + " became leader within 15 s;"
                + " a majority of them must run");
    }

    /** Stops every replica that runs; their logs stay. */
    @Override
    public void close() {
        for (int i = 0; i < replicas.length; i++) {
            if (replicas[i] != null) {
                stopReplica(i);
            }
        }
    }
}
