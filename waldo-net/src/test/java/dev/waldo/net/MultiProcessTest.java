package dev.waldo.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.net.testing.PeerProcess;
import dev.waldo.net.testing.PeerProcessHandle;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hosts in separate JVMs on loopback, killed with SIGKILL at the worst
 * moments. "client" connects and starts every transaction, so it is the
 * coordinator; "server" is its partner and a participant. After each failure
 * the test reads every surviving host's committed state: all or nothing.
 *
 * <p>STATE answers are "count bound live ledger-commits ledger-aborts".
 */
class MultiProcessTest {
    @TempDir
    Path state;

    private PeerProcessHandle server;
    private PeerProcessHandle client;

    /**
     * Starts both hosts, connects them and commits one bump of 1, so both sides hold 1.
     *
     * @return the port the server listens on
     */
    private String startPair(boolean tls) throws Exception {
        server = PeerProcessHandle.start("server", state.resolve("server"), tls);
        client = PeerProcessHandle.start("client", state.resolve("client"), tls);
        String port = server.ask("listen", "LISTENING").split(" ")[1];
        client.ask("connect " + port, "CONNECTED");
        assertThat(client.ask("bump 1", "OK")).isEqualTo("OK 2.0");
        assertThat(server.ask("state", "STATE")).isEqualTo("STATE 1.0 1.0 0 1 0");
        assertThat(client.ask("state", "STATE")).isEqualTo("STATE 1.0 1.0 0 1 0");
        return port;
    }

    /**
     * Starts a bump of 5 and holds it between prepare and commit: the server (the participant)
     * voted yes, and the client (the coordinator) is paused in its own prepare until "release".
     */
    private void bumpUntilBothPrepared() throws InterruptedException {
        client.ask("pause-prepare", "PAUSING");
        client.send("bump 5");
        client.expect("PREPARED-PAUSE");
        server.expect("VOTED");
    }

    private void closeAll() throws InterruptedException {
        for (PeerProcessHandle handle : new PeerProcessHandle[] {server, client}) {
            if (handle != null) {
                handle.close();
            }
        }
    }

    @Test
    void killingThePartnerMidSequenceLeavesTheCallerUnchanged() throws Exception {
        try {
            startPair(false);
            server.ask("pause-echo", "PAUSING");
            client.send("bump 5");
            server.expect("IN-ECHO");
            server.kill();
            assertThat(client.expect("FAILED")).startsWith("FAILED NetworkException");
            assertThat(client.ask("state", "STATE")).isEqualTo("STATE 1.0 1.0 0 1 0");
        } finally {
            closeAll();
        }
    }

    @Test
    void killingTheParticipantAfterItVotedYesLeavesTheCoordinatorAllOrNothing() throws Exception {
        try {
            startPair(true);
            bumpUntilBothPrepared();
            server.kill();
            client.ask("release", "RELEASED");
            // If the participant's yes vote left before it died, every vote is yes and the
            // coordinator commits (the commit stays owed to the dead participant); if the vote
            // died with it, the coordinator backs out and the retry finds no partner.
            String outcome = client.expect("OK", "FAILED");
            if (outcome.startsWith("OK")) {
                assertThat(client.ask("state", "STATE")).isEqualTo("STATE 6.0 6.0 0 2 0");
            } else {
                assertThat(outcome).startsWith("FAILED NetworkException");
                assertThat(client.ask("state", "STATE")).isEqualTo("STATE 1.0 1.0 0 1 1");
            }
        } finally {
            closeAll();
        }
    }

    @Test
    void killingTheCoordinatorBetweenPrepareAndCommitNeverCommitsTheParticipantAlone() throws Exception {
        try {
            startPair(false);
            bumpUntilBothPrepared();
            client.kill();
            // The participant voted yes and lost its coordinator: it must neither commit
            // nor abort on its own. It keeps the attempt prepared (1 live attempt) and its
            // committed state unchanged, in doubt until the decision can reach it.
            // Past the heartbeat timeout, so that the link-down was processed.
            Thread.sleep(PeerProcess.HEARTBEAT_TIMEOUT_MS + 1_000);
            assertThat(server.ask("state", "STATE")).isEqualTo("STATE 1.0 1.0 1 1 0");
        } finally {
            closeAll();
        }
    }

    @Test
    void decisionReachesAParticipantThatWasUnreachableAndCameBack() throws Exception {
        try {
            startPair(false);
            bumpUntilBothPrepared();
            // The participant voted yes; now the link to its coordinator goes down before the
            // decision. If the vote made it across, the coordinator decides commit; if not, it
            // backs the attempt out (and retries). Either decision is owed to the participant.
            client.ask("drop", "DROPPED");
            client.ask("await-link", "LINKED");
            client.ask("release", "RELEASED");
            String outcome = client.expect("OK", "FAILED");
            // The decision reached the participant once the link was back: nothing is left in
            // doubt, and both hosts agree with what the caller was told.
            String expectedCounts = outcome.startsWith("OK") ? "6.0 6.0" : "1.0 1.0";
            assertThat(awaitIdle(server)).as(server.output()).startsWith("STATE " + expectedCounts + " 0 ");
            assertThat(awaitIdle(client)).as(client.output()).startsWith("STATE " + expectedCounts + " 0 ");
        } finally {
            closeAll();
        }
    }

    /**
     * The participant is killed after its yes vote reached the coordinator, which then commits and
     * owes it the Commit. The participant restarts (same id, same port): the coordinator redials it
     * and sees a new run, so it drops the decision owed to the old run instead of re-sending a
     * Commit the new run never saw (which the new run would refuse, closing the link each time).
     */
    @Test
    void aRestartedParticipantGetsAWorkingLinkNotTheOldRunsDecisions() throws Exception {
        try {
            String port = startPair(false);
            bumpUntilBothPrepared();
            Thread.sleep(1_000);  // the yes vote crosses loopback long before this
            server.kill();
            client.ask("release", "RELEASED");
            assertThat(client.expect("OK", "FAILED")).isEqualTo("OK 12.0");  // 6 here plus 6 there

            server = PeerProcessHandle.start("server", state.resolve("server"), false);
            server.ask("listen " + port, "LISTENING");
            client.send("await-link");
            assertThat(client.expect("LINKED", "NOT-LINKED")).isEqualTo("LINKED");
            client.ask("connect " + port, "CONNECTED");
            client.send("bump 1");
            assertThat(client.expect("OK", "FAILED")).isEqualTo("OK 2.0");  // a new pair of endpoints
            assertThat(server.ask("state", "STATE")).isEqualTo("STATE 1.0 1.0 0 1 0");
            assertThat(server.output()).doesNotContain("protocol violation");
        } finally {
            closeAll();
        }
    }

    /** The host's STATE once it holds no live attempt (waiting up to 10 s). */
    private static String awaitIdle(PeerProcessHandle host) throws InterruptedException {
        String state = host.ask("state", "STATE");
        for (int i = 0; i < 100 && !state.split(" ")[3].equals("0"); i++) {
            Thread.sleep(100);
            state = host.ask("state", "STATE");
        }
        return state;
    }

    @Test
    void closingAnIdleConnectionLosesNothingAndTheLinkComesBack() throws Exception {
        try {
            startPair(true);
            client.ask("drop", "DROPPED");
            client.ask("await-link", "LINKED");
            assertThat(server.ask("state", "STATE")).isEqualTo("STATE 1.0 1.0 0 1 0");
            assertThat(client.ask("state", "STATE")).isEqualTo("STATE 1.0 1.0 0 1 0");
            assertThat(client.ask("bump 2", "OK")).isEqualTo("OK 6.0");
            assertThat(server.ask("state", "STATE")).isEqualTo("STATE 3.0 3.0 0 2 0");
            assertThat(client.ask("state", "STATE")).isEqualTo("STATE 3.0 3.0 0 2 0");
        } finally {
            closeAll();
        }
    }
}
