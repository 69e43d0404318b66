package dev.waldo.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.net.testing.PeerProcess;
import dev.waldo.net.testing.PeerProcessHandle;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three hosts in three JVMs: "coordinator" connects to "left" and "right",
 * which never connected to each other, and one transaction bumps both. The
 * coordinator is killed with SIGKILL between prepare and commit; what the two
 * participants do then is cooperative termination. STATE answers are
 * "count bound live ledger-commits ledger-aborts".
 */
class CooperativeTerminationTest {
    @TempDir
    Path state;

    private PeerProcessHandle left;
    private PeerProcessHandle right;
    private PeerProcessHandle coordinator;

    /** Starts the three hosts and commits one bump of 1 on both participants. */
    private void startTriangle() throws Exception {
        left = PeerProcessHandle.start("left", state.resolve("left"), true);
        right = PeerProcessHandle.start("right", state.resolve("right"), true);
        coordinator = PeerProcessHandle.start("coordinator", state.resolve("coordinator"), true);
        coordinator.ask("connect " + left.ask("listen", "LISTENING").split(" ")[1], "CONNECTED");
        coordinator.ask("connect " + right.ask("listen", "LISTENING").split(" ")[1], "CONNECTED");
        assertThat(coordinator.ask("bump-all 1", "OK")).isEqualTo("OK 4.0");
        assertThat(left.ask("state", "STATE")).isEqualTo("STATE 1.0 1.0 0 1 0");
        assertThat(right.ask("state", "STATE")).isEqualTo("STATE 1.0 1.0 0 1 0");
    }

    @AfterEach
    void closeAll() throws InterruptedException {
        for (PeerProcessHandle handle : new PeerProcessHandle[] {left, right, coordinator}) {
            if (handle != null) {
                handle.close();
            }
        }
    }

    @Test
    void aParticipantThatVotedNoAfterTheCoordinatorDiedBacksOutTheOneInDoubt() throws Exception {
        startTriangle();
        right.ask("pause-prepare", "PAUSING");
        coordinator.send("bump-all 5");
        left.expect("VOTED");
        right.expect("PREPARED-PAUSE");
        coordinator.kill();
        // Left voted yes and lost its coordinator: in doubt, it asks right, which is still
        // preparing and cannot say. Then right votes no: the coordinator can never have
        // committed, so right backs out alone and tells left, which backs out too.
        right.ask("release-no", "RELEASED");
        right.expect("VOTED-NO");
        assertThat(awaitIdle(right)).as(right.output()).isEqualTo("STATE 1.0 1.0 0 1 1");
        assertThat(awaitIdle(left)).as(left.output()).isEqualTo("STATE 1.0 1.0 0 1 1");
    }

    @Test
    void participantsThatAllVotedYesNeitherCommitNorAbortAloneWhenTheCoordinatorDies() throws Exception {
        startTriangle();
        coordinator.ask("pause-prepare", "PAUSING");
        coordinator.send("bump-all 5");
        coordinator.expect("PREPARED-PAUSE");
        left.expect("VOTED");
        right.expect("VOTED");
        coordinator.kill();
        // Both voted yes and neither heard a decision: each asks the other, each answers
        // undecided, and both keep the attempt prepared and their committed state unchanged.
        Thread.sleep(PeerProcess.HEARTBEAT_TIMEOUT_MS + 2_000);
        assertThat(left.ask("state", "STATE")).isEqualTo("STATE 1.0 1.0 1 1 0");
        assertThat(right.ask("state", "STATE")).isEqualTo("STATE 1.0 1.0 1 1 0");
    }

    /** The host's STATE once it holds no live attempt (waiting up to 15 s). */
    private static String awaitIdle(PeerProcessHandle host) throws InterruptedException {
        String state = host.ask("state", "STATE");
        for (int i = 0; i < 150 && !state.split(" ")[3].equals("0"); i++) {
            Thread.sleep(100);
            state = host.ask("state", "STATE");
        }
        return state;
    }
}
