package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditJournalTest {
    @TempDir
    Path dir;

    @Test
    void entriesReadBackAsWrittenOneLineEachEvenWithTabsAndLineBreaksInAField() throws Exception {
        AuditJournal journal = new AuditJournal(dir);
        AuditJournal.Entry first = new AuditJournal.Entry(Instant.parse("2026-11-25T10:00:00Z"), "sw-1",
                "operator-alice", "committed", "1.2", "vlans 1 entry -> 2 entries");
        journal.append(first);
        journal.append(new AuditJournal.Entry(Instant.parse("2026-11-25T10:00:01Z"), "sw-1", "operator-bob",
                "refused: a\treason\nover lines", "1.3", "sysName 'a' -> 'b'"));

        assertThat(Files.readAllLines(journal.file())).hasSize(2);
        assertThat(journal.read()).containsExactly(first, new AuditJournal.Entry(
                Instant.parse("2026-11-25T10:00:01Z"), "sw-1", "operator-bob", "refused: a reason over lines", "1.3",
                "sysName 'a' -> 'b'"));
    }

    @Test
    void noJournalYetIsNoEntry() throws Exception {
        assertThat(new AuditJournal(dir.resolve("none")).read()).isEmpty();
    }

    @Test
    void aDamagedLineIsReportedWithItsNumber() throws Exception {
        AuditJournal journal = new AuditJournal(dir);
        Files.writeString(journal.file(), "2026-11-25T10:00:00Z\tsw-1\twho\tcommitted\t1.2\twhat\nnot an entry\n");

        assertThatThrownBy(journal::read).isInstanceOf(IOException.class)
                .hasMessage(journal.file() + ":2: not an audit entry (expected 6 tab-separated fields starting with a"
                        + " time)");
    }
}
