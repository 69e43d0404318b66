package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldoconf.device.VlanStateFormat;
import dev.waldoconf.model.SwitchPart;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.service.DeviceJournal.Entry;
import dev.waldoconf.service.DeviceJournal.Stage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one journal every device service keeps, here with the VLAN state format: what survives a
 * reopen, how a commit and a settle rewrite it in one write, what a crash mid-write leaves, what a
 * damaged file says, and that a journal of an earlier version stops the service instead of being lost.
 */
class DeviceJournalTest {
    @TempDir
    Path dir;

    private static final SwitchState OLD = SwitchState.empty().with(new Vlan(10, "users & guests",
            new TreeSet<>(List.of(1, 2, 3)), new TreeSet<>())).withPvid(4, 10);
    private static final SwitchState NEW = OLD.with(Vlan.empty(20, "voice")).withPvid(5, 20);
    /** What the change from OLD to NEW sets, and those keys as they were: undo data and a trial's values before. */
    private static final SwitchPart SET = SwitchPart.between(OLD, NEW);
    private static final SwitchPart BEFORE = SET.valuesIn(OLD);
    private static final SwitchPart INTENDED = SwitchPart.of(NEW);
    private static final TrialRecord<SwitchPart> ADOPTED = TrialRecord.withoutTrial("adopted", SwitchPart.of(OLD));
    private static final TrialRecord<SwitchPart> TRIAL = new TrialRecord<>("1.7", INTENDED, List.of(
            new TrialRecord.Trial<>("c1", 1_900_000_000L, List.of("sw-a", "sw-b"), BEFORE),
            new TrialRecord.Trial<>("c2", 1_900_000_300L, List.of(), SwitchPart.empty())));

    private DeviceJournal<SwitchPart> journal() throws IOException {
        return DeviceJournal.open(dir, VlanStateFormat.INSTANCE);
    }

    private Path file() {
        return dir.resolve(DeviceJournal.FILE);
    }

    @Test
    void theCommittedRecordAndEveryEntrySurviveAReopenInOrder() throws Exception {
        DeviceJournal<SwitchPart> journal = journal();
        journal.settle(null, ADOPTED);
        Entry<SwitchPart> staging = new Entry<>("1.7", Stage.PREPARING, BEFORE, TRIAL);
        Entry<SwitchPart> noDevice = new Entry<>("1.8", Stage.PREPARED, null, ADOPTED);
        Entry<SwitchPart> emptyUndo = new Entry<>("1.9", Stage.BACKED_OUT, SwitchPart.empty(), null);
        journal.put(staging);
        journal.put(noDevice);
        journal.put(emptyUndo);
        journal.put(staging.at(Stage.PREPARED));

        DeviceJournal<SwitchPart> reopened = journal();
        assertThat(reopened.committed()).isEqualTo(ADOPTED);
        assertThat(reopened.entries()).containsExactly(staging.at(Stage.PREPARED), noDevice, emptyUndo);
        assertThat(SnapshotLog.read(file())).startsWith("waldoconf-device-journal 3\n").contains(
                "committed.intended name 10 users+%26+guests\ncommitted.intended tagged 10 1-3\n",
                "entry 1.7 prepared\nundo\nundo.no-vlan 20\n",
                "record.trial c1 1900000000 sw-a,sw-b\nrecord.before c1 no-vlan 20\n",
                "record.trial c2 1900000300 -\n", "end 3\n");
    }

    @Test
    void aCommitFoldsTheEntrysRecordInForgetsTheEntryAndTrimsOlderUndoDataInOneWrite() throws Exception {
        DeviceJournal<SwitchPart> journal = journal();
        journal.settle(null, ADOPTED);
        journal.put(new Entry<>("1.1", Stage.PREPARED, BEFORE, null));
        journal.put(new Entry<>("1.2", Stage.PREPARED, BEFORE, TRIAL));
        journal.put(new Entry<>("1.3", Stage.PREPARED, INTENDED, null));

        journal.commit("1.2", (older, committed) -> null, (committed, change) -> {
            assertThat(committed).isEqualTo(ADOPTED);
            return change;
        });

        DeviceJournal<SwitchPart> reopened = journal();
        assertThat(reopened.committed()).isEqualTo(TRIAL);
        assertThat(reopened.entries()).as("the older one had nothing left to undo; the newer one is untouched")
                .containsExactly(new Entry<>("1.3", Stage.PREPARED, INTENDED, null));
        journal.put(new Entry<>("1.4", Stage.PREPARING, BEFORE, null));
        assertThat(journal().committed()).as("a later write keeps the record the commit folded in").isEqualTo(TRIAL);
    }

    @Test
    void aCommitOfAnEntryWithoutARecordKeepsTheCommittedOne() throws Exception {
        DeviceJournal<SwitchPart> journal = journal();
        journal.settle(null, TRIAL);
        journal.put(new Entry<>("2.1", Stage.PREPARED, BEFORE, null));

        journal.commit("2.1", (older, committed) -> older, (committed, change) -> {
            throw new AssertionError("an entry without a record folds nothing in");
        });

        assertThat(journal().committed()).isEqualTo(TRIAL);
        assertThat(journal().entries()).isEmpty();
    }

    @Test
    void settleReplacesTheCommittedRecordAndForgetsTheEntry() throws Exception {
        DeviceJournal<SwitchPart> journal = journal();
        journal.settle(null, ADOPTED);
        journal.put(new Entry<>("3.1", Stage.PREPARED, BEFORE, TRIAL));
        journal.put(new Entry<>("3.2", Stage.PREPARING, BEFORE, TRIAL));

        journal.settle("3.1", TRIAL);

        assertThat(journal().committed()).isEqualTo(TRIAL);
        assertThat(journal().entries()).extracting(Entry::key).containsExactly("3.2");
    }

    @Test
    void aWriteThatNeverReplacedTheFileIsIgnoredAndTheLastCompleteJournalStands() throws Exception {
        Entry<SwitchPart> complete = new Entry<>("4.1", Stage.PREPARING, BEFORE, TRIAL);
        journal().put(complete);
        // A crash in the middle of the next write: half a temporary file, never renamed.
        Path temporary = DurableFile.temporaryOf(file());
        Files.writeString(temporary, "waldoconf-device-journal 3\nentry 4.1 prepa");

        assertThat(journal().entries()).containsExactly(complete);
        assertThat(temporary).doesNotExist();
    }

    @Test
    void aFileCutShortIsAnErrorThatNamesTheFileAndSaysWhatToDo() throws Exception {
        journal().put(new Entry<>("5.1", Stage.PREPARED, BEFORE, TRIAL));
        String whole = SnapshotLog.read(file());
        // Its frame's checksum would catch the cut: this is a journal written whole, as before frames.
        Files.writeString(file(), whole.substring(0, whole.lastIndexOf("\nend ") + 1));

        assertThatThrownBy(this::journal).isInstanceOf(IOException.class)
                .hasMessageContaining(file() + " ends early (it has no 'end' line)")
                .hasMessageContaining("compare it with the undo data in the file");
    }

    @Test
    void aCorruptLineIsAnErrorThatNamesTheFileAndTheLine() throws Exception {
        Files.writeString(file(), "waldoconf-device-journal 3\nentry 6.1 prepared\nundo\nundo.bridge 7\nend 1\n");

        assertThatThrownBy(this::journal).isInstanceOf(IOException.class)
                .hasMessageContaining(file() + ":4: unreadable journal line 'undo.bridge 7': unknown entry 'bridge'");
    }

    @Test
    void aCorruptLineInALaterVersionIsReportedAtItsLineOfTheFile() throws Exception {
        DeviceJournal<SwitchPart> journal = journal();
        journal.put(new Entry<>("6.1", Stage.PREPARED, BEFORE, null));
        String bad = "waldoconf-device-journal 3\nentry 6.2 prepared\nundo\nundo.bridge 7\nend 1\n";
        Files.write(file(), SnapshotLog.frame(bad), StandardOpenOption.APPEND);
        int badLine = (int) Files.readString(file()).lines().takeWhile(line -> !line.equals("undo.bridge 7")).count() + 1;

        assertThatThrownBy(this::journal).isInstanceOf(IOException.class)
                .hasMessageContaining(file() + ":" + badLine + ": unreadable journal line 'undo.bridge 7'");
    }

    @Test
    void otherDamageIsReportedTooWithTheFileNamed() throws Exception {
        for (String damaged : List.of(
                "not a journal\n",
                "",
                "waldoconf-device-journal 3\nentry 7.1 voted\nend 1\n",
                "waldoconf-device-journal 3\nundo.name 1 a\nend 0\n",
                "waldoconf-device-journal 3\nentry 7.1 prepared\nend 2\n",
                "waldoconf-device-journal 3\nend 0\nentry 7.1 prepared\n",
                "waldoconf-device-journal 3\ncommitted.transaction 1.1\ncommitted.trial c1 soon -\nend 0\n",
                "waldoconf-device-journal 3\ncommitted.transaction 1.1\ncommitted.trial c1\nend 0\n",
                "waldoconf-device-journal 3\ncommitted.transaction 1.1\ncommitted.before c9 no-vlan 3\nend 0\n",
                "waldoconf-device-journal 3\nentry 7.1 prepared\nrecord.colour red\nend 1\n")) {
            Files.writeString(file(), damaged);

            assertThatThrownBy(this::journal).as(damaged).isInstanceOf(IOException.class)
                    .hasMessageStartingWith(file().toString());
        }
    }

    /** A version 2 journal kept one trial per service: it is not read, and says what to do. */
    @Test
    void aJournalThatKeptOneTrialPerServiceStopsTheServiceWithWhatToDo() throws Exception {
        Files.writeString(file(), "waldoconf-device-journal 2\ncommitted.transaction 1.4\ncommitted.trial c7\nend 0\n");

        assertThatThrownBy(this::journal).isInstanceOf(IOException.class)
                .hasMessageStartingWith(file() + " was written by an earlier WaldoConf version, which kept one trial"
                        + " per service")
                .hasMessageContaining("move the file away and start the service again");
    }

    @Test
    void aJournalOfAnEarlierVersionStopsTheServiceWithWhatToDoInsteadOfBeingLost() throws Exception {
        for (String earlier : List.of("committed.journal", "prepared.journal", "scalar-undo.journal", "trial")) {
            Path old = dir.resolve(earlier);
            if (earlier.equals("trial")) {
                Files.createDirectories(old);
            } else {
                Files.writeString(old, "waldoconf-journal 1\n");
            }

            assertThatThrownBy(this::journal).as(earlier).isInstanceOf(IOException.class)
                    .hasMessageStartingWith(old + " is a journal of an earlier WaldoConf version")
                    .hasMessageContaining("move " + old + " away and start the service again");
            assertThat(old).as("left where it was").exists();
            Files.delete(old);
        }
        assertThat(journal().entries()).isEmpty();
    }
}
