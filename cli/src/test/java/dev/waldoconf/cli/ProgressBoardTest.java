package dev.waldoconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.engine.ProgressListener.Stage;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressBoardTest {
    private final StringWriter written = new StringWriter();
    private final PrintWriter out = new PrintWriter(written);

    /** A thousand switches read and connected, {@code committed} of them committed. */
    private static void thousandSwitches(ProgressBoard board, int committed) {
        for (int i = 1; i <= 1000; i++) {
            board.onProgress("lab-" + i, Stage.READ, "");
            board.onProgress("lab-" + i, Stage.CONNECTED, "");
        }
        for (int i = 1; i <= committed; i++) {
            board.onProgress("lab-" + i, Stage.COMMITTED, "");
        }
    }

    @Test
    void aTerminalGetsOneBarRedrawnInPlaceAndFailuresOnLinesOfTheirOwn() {
        ProgressBoard board = ProgressBoard.manual(out, ProgressBoard.Mode.BAR, 1000);
        thousandSwitches(board, 500);
        board.tick();
        board.onProgress("lab-999", Stage.REFUSED, "commitFailed on VLAN 20");
        board.tick();
        board.close();

        String frame = "[############------------] 500/1000 committed | read 1000, connected 1000, committed 500,";
        assertThat(written.toString()).isEqualTo(
                "\r\033[K" + frame + " failed 0 of 1000 switches"
                + "\r\033[K  lab-999: refused (commitFailed on VLAN 20)\n"
                + "\r\033[K" + frame + " failed 1 of 1000 switches\n");
        assertThat(written.toString()).doesNotContain("lab-1:").doesNotContain("lab-500:");
    }

    @Test
    void aPipeGetsCountLinesOnlyWhenSomethingMovedAndNoPerSwitchLines() {
        ProgressBoard board = ProgressBoard.manual(out, ProgressBoard.Mode.COUNTS, 1000);
        thousandSwitches(board, 0);
        board.tick();
        board.tick();  // nothing moved: no line
        thousandSwitches(board, 1000);  // a retried attempt reports every switch again: counted once
        board.onProgress("lab-7", Stage.UNREACHABLE, "no answer within 30 s");
        board.close();

        assertThat(written.toString()).isEqualTo(
                "  read 1000, connected 1000, failed 0 of 1000 switches\n"
                + "  lab-7: unreachable (no answer within 30 s)\n"
                + "  read 1000, connected 1000, committed 1000, failed 1 of 1000 switches\n");
        assertThat(written.toString()).doesNotContain("\r").doesNotContain("\033");
    }

    @Test
    void aPipeRunOverWithinOnePeriodPrintsOnlyItsFailures() {
        ProgressBoard board = ProgressBoard.manual(out, ProgressBoard.Mode.COUNTS, 1000);
        thousandSwitches(board, 1000);
        board.onProgress("lab-7", Stage.UNREACHABLE, "no answer within 30 s");
        board.close();

        assertThat(written.toString()).isEqualTo("  lab-7: unreachable (no answer within 30 s)\n");
    }

    @Test
    void verboseGivesALinePerSwitchAndStageAndNoCounts() {
        ProgressBoard board = ProgressBoard.manual(out, ProgressBoard.Mode.LINES, 2);
        board.onProgress("lab-1", Stage.CONNECTED, "");
        board.onProgress("lab-2", Stage.CONNECTED, "");
        board.tick();
        board.onProgress("lab-2", Stage.REFUSED, "commitFailed on VLAN 20");
        board.onProgress("lab-1", Stage.UNDONE, "");
        board.close();

        assertThat(written.toString()).isEqualTo("  lab-1: connected\n  lab-2: connected\n"
                + "  lab-2: refused (commitFailed on VLAN 20)\n  lab-1: undone\n");
    }

    @Test
    void theModeFollowsVerboseThenTheTerminal() {
        assertThat(ProgressBoard.mode(true, true)).isEqualTo(ProgressBoard.Mode.LINES);
        assertThat(ProgressBoard.mode(false, true)).isEqualTo(ProgressBoard.Mode.BAR);
        assertThat(ProgressBoard.mode(false, false)).isEqualTo(ProgressBoard.Mode.COUNTS);
    }

    @Test
    void aBoardThatHeardNothingPrintsNothing() {
        ProgressBoard.manual(out, ProgressBoard.Mode.BAR, 3).close();
        ProgressBoard.manual(out, ProgressBoard.Mode.COUNTS, 3).close();
        assertThat(written.toString()).isEmpty();
    }
}
