package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trial journal every service kind shares, with the VLAN state format: records survive a
 * reopen through prepare and commit, abort forgets the prepared one, and damage is reported with
 * the file and line.
 */
class TrialJournalTest {
    @TempDir
    Path dir;

    private static final SwitchState BEFORE = SwitchState.empty().with(new Vlan(10, "users & guests",
            new TreeSet<>(List.of(1, 2, 3)), new TreeSet<>())).withPvid(4, 10);
    private static final SwitchState INTENDED = BEFORE.with(Vlan.empty(20, "voice")).withPvid(5, 20);

    @Test
    void aPreparedRecordBecomesTheCommittedOneAcrossAReopen() throws Exception {
        TrialRecord<SwitchState> record = new TrialRecord<>("t7", INTENDED, "c1", 1_900_000_000L,
                List.of("sw-a", "sw-b"), BEFORE);
        journal().prepare(record);

        assertThat(journal().prepared()).isEqualTo(record);
        assertThat(journal().committed()).isNull();
        journal().commit();

        assertThat(journal().committed()).isEqualTo(record);
        assertThat(journal().prepared()).isNull();
    }

    @Test
    void aPreparedChangeKeepsItsPeersAndUndoDataAcrossAReopenAndCommitsAsItsRecord() throws Exception {
        TrialRecord<SwitchState> record = new TrialRecord<>("op.12", INTENDED, "c3", 1_900_000_000L,
                List.of("sw-a", "sw-b"), BEFORE);
        journal().prepare(record, List.of("operator-1", "service-sw-b"), BEFORE);

        TrialJournal.PreparedChange<SwitchState> prepared = journal().preparedChange();
        assertThat(prepared.record()).isEqualTo(record);
        assertThat(prepared.peers()).containsExactly("operator-1", "service-sw-b");
        assertThat(prepared.undo()).isEqualTo(BEFORE);
        journal().commit();
        assertThat(journal().committed()).isEqualTo(record);
        assertThat(journal().preparedChange()).isNull();
    }

    @Test
    void aPreparedChangeThatTouchesNoDeviceHasNoUndoData() throws Exception {
        journal().prepare(new TrialRecord<>("op.13", BEFORE, "", 0, List.of(), SwitchState.empty()), List.of(), null);

        assertThat(journal().preparedChange().undo()).isNull();
        assertThat(journal().preparedChange().peers()).isEmpty();
    }

    @Test
    void abortForgetsThePreparedRecordAndKeepsTheCommittedOne() throws Exception {
        TrialRecord<SwitchState> committed = new TrialRecord<>("adopted", BEFORE, "", 0, List.of(),
                SwitchState.empty());
        journal().replaceCommitted(committed);
        journal().prepare(new TrialRecord<>("t8", INTENDED, "c2", 1L, List.of("sw-a"), BEFORE));

        journal().abort();

        assertThat(journal().prepared()).isNull();
        assertThat(journal().committed()).isEqualTo(committed);
    }

    @Test
    void damageIsReportedWithTheFileAndLine() throws Exception {
        journal().replaceCommitted(new TrialRecord<>("t9", BEFORE, "", 0, List.of(), SwitchState.empty()));
        Path file = dir.resolve("committed.journal");
        Files.writeString(file, Files.readString(file) + "intended.bridge 7\n");

        assertThatThrownBy(() -> journal().committed()).isInstanceOf(IOException.class)
                .hasMessageContaining(file + ": unreadable state: unknown entry 'bridge'");
        Files.writeString(file, "something else\n");
        assertThatThrownBy(() -> journal().committed()).hasMessageContaining(file + " is not a WaldoConf journal");
        Files.writeString(file, "waldoconf-journal 1\ndeadline soon\n");
        assertThatThrownBy(() -> journal().committed()).hasMessageContaining(file + ":2: unreadable journal line");
    }

    private TrialJournal<SwitchState> journal() throws IOException {
        return new TrialJournal<>(dir, VlanStateFormat.INSTANCE);
    }
}
