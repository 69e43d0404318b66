package dev.waldo.decisions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.TimeDuration;

/**
 * One replica of a decision register: a Raft server of its {@link DecisionGroup} that keeps its
 * log in a directory of its own, so that it takes up where it was after a restart. Run one per
 * machine (a site agent's process, for example); the register answers while a majority runs.
 */
public final class DecisionReplica implements AutoCloseable {
    private static final TimeDuration ELECTION_TIMEOUT_MIN = TimeDuration.valueOf(1, TimeUnit.SECONDS);
    private static final TimeDuration ELECTION_TIMEOUT_MAX = TimeDuration.valueOf(2, TimeUnit.SECONDS);
    private final String name;
    private final RaftGroupId group;
    private final RaftServer server;
    private final DecisionStateMachine stateMachine;

    private DecisionReplica(String name, RaftGroupId group, RaftServer server, DecisionStateMachine stateMachine) {
        this.name = name;
        this.group = group;
        this.server = server;
        this.stateMachine = stateMachine;
    }

    /**
     * Starts replica {@code name} of {@code group}, listening on the address the group gives it,
     * with its log under {@code directory} (created if needed; taken up if it holds one).
     *
     * @throws UncheckedIOException if the directory or the port cannot be used
     */
    public static DecisionReplica start(DecisionGroup group, String name, Path directory) {
        var address = group.addressOf(name);
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.NETTY);
        NettyConfigKeys.Server.setHost(properties, address.getHostString());
        NettyConfigKeys.Server.setPort(properties, address.getPort());
        RaftServerConfigKeys.setStorageDir(properties, List.of(directory.toFile()));
        // Raft's default election timeout (150-300 ms) makes a loaded machine's replicas depose
        // their leaders over and over; a decision waits for a commit anyway, so 1-2 s is cheap.
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties, ELECTION_TIMEOUT_MIN);
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties, ELECTION_TIMEOUT_MAX);
        DecisionStateMachine stateMachine = new DecisionStateMachine();
        try {
            Files.createDirectories(directory);
            boolean hasLog = Files.isDirectory(directory.resolve(group.id().toString()));
            RaftServer server = RaftServer.newBuilder()
                    .setServerId(RaftPeerId.valueOf(name))
                    .setGroup(group.raftGroup())
                    .setProperties(properties)
                    .setParameters(new Parameters())
                    .setStateMachine(stateMachine)
                    .setOption(hasLog ? RaftStorage.StartupOption.RECOVER : RaftStorage.StartupOption.FORMAT)
                    .build();
            server.start();
            return new DecisionReplica(name, RaftGroupId.valueOf(group.id()), server, stateMachine);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start decision replica '" + name + "' on " + address + " with its log in "
                    + directory + ": " + e.getMessage(), e);
        }
    }

    /** This replica's name in its group. */
    public String name() {
        return name;
    }

    /** True if this replica leads its group now (Raft's leader: it orders the proposals). */
    public boolean isLeader() {
        try {
            return server.getDivision(group).getInfo().isLeader();
        } catch (IOException e) {
            return false; // stopped, or not (yet) a member of its group
        }
    }

    /** How many attempts this replica's copy of the register has settled (applied from its log). */
    public int settledCount() {
        return stateMachine.settledCount();
    }

    /** Stops the replica; its log stays in its directory for the next start. */
    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop decision replica '" + name + "': " + e.getMessage(), e);
        }
    }
}
