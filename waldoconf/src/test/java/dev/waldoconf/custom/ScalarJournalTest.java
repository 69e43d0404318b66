package dev.waldoconf.custom;

import dev.waldoconf.service.DurableFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldoconf.custom.ScalarJournal.Entry;
import dev.waldoconf.custom.ScalarJournal.PreImage;
import dev.waldoconf.custom.ScalarJournal.Stage;
import dev.waldoconf.snmp.ScalarValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snmp4j.smi.OID;

/** The custom services' undo journal on disk: what survives a restart, and what a damaged file says. */
class ScalarJournalTest {
    private static final OID LOCATION = new OID("1.3.6.1.2.1.1.6.0");
    private static final OID CONTACT = new OID("1.3.6.1.2.1.1.4.0");
    private static final OID COUNT = new OID("1.3.6.1.4.1.32473.1.0");

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("state").resolve("scalar-undo.journal");
    }

    private static Entry entry(String key, Stage stage, PreImage... preImages) {
        return new Entry(key, stage, List.of(preImages));
    }

    private static PreImage text(OID oid, String old) {
        return new PreImage(oid, new ScalarValue.Text(old));
    }

    @Test
    void entriesSurviveAReopenWithTheirStagesAndValuesInOrder() throws Exception {
        ScalarJournal journal = ScalarJournal.open(file());
        Entry first = entry("r1/7.1", Stage.PREPARED, text(LOCATION, "rack 4, row B / 100% full"),
                new PreImage(COUNT, new ScalarValue.Number(-12)));
        Entry second = entry("r1/7.2", Stage.PREPARING, text(CONTACT, ""));
        journal.put(first);
        journal.put(second);
        journal.put(first.at(Stage.BACKED_OUT));

        assertThat(ScalarJournal.open(file()).entries()).containsExactly(first.at(Stage.BACKED_OUT), second);
        assertThat(Files.readString(file())).contains("entry r1/7.1 backed-out\n",
                "pre-image 1.3.6.1.2.1.1.6.0 text rack+4%2C+row+B+%2F+100%25+full\n", "end 2\n");
    }

    @Test
    void theFileIsGoneOnceNoTransactionIsLeft() throws Exception {
        ScalarJournal journal = ScalarJournal.open(file());
        journal.put(entry("r1/1.1", Stage.PREPARING, text(LOCATION, "a")));
        assertThat(file()).exists();

        journal.remove("r1/1.1");

        assertThat(file()).doesNotExist();
        assertThat(ScalarJournal.open(file()).entries()).isEmpty();
    }

    @Test
    void aCommitOverridesWhatOlderEntriesWouldPutBackOnTheSameObjects() throws Exception {
        ScalarJournal journal = ScalarJournal.open(file());
        journal.put(entry("r1/1.1", Stage.PREPARED, text(LOCATION, "original"), text(CONTACT, "nobody")));
        journal.put(entry("r2/1.1", Stage.PREPARED, text(LOCATION, "in doubt")));
        journal.put(entry("r2/1.2", Stage.PREPARED, text(CONTACT, "in doubt")));

        journal.commit("r2/1.1");

        assertThat(journal.entries()).containsExactly(entry("r1/1.1", Stage.PREPARED, text(CONTACT, "nobody")),
                entry("r2/1.2", Stage.PREPARED, text(CONTACT, "in doubt")));
        journal.commit("r2/1.2");
        assertThat(journal.entries()).isEmpty();
        assertThat(file()).doesNotExist();
    }

    @Test
    void aCommitLeavesThePreImagesOfNewerEntriesAlone() throws Exception {
        ScalarJournal journal = ScalarJournal.open(file());
        journal.put(entry("r1/1.1", Stage.PREPARED, text(LOCATION, "X0")));
        journal.put(entry("r2/1.1", Stage.PREPARED, text(LOCATION, "X1")));
        journal.put(entry("r2/1.2", Stage.PREPARED, text(CONTACT, "C0")));

        assertThat(journal.newerOnTheSameObjects("r1/1.1")).containsExactly("r2/1.1");
        journal.commit("r1/1.1");

        assertThat(journal.entries()).containsExactly(entry("r2/1.1", Stage.PREPARED, text(LOCATION, "X1")),
                entry("r2/1.2", Stage.PREPARED, text(CONTACT, "C0")));
    }

    @Test
    void aWriteThatNeverReplacedTheFileIsIgnoredAndTheLastCompleteJournalStands() throws Exception {
        ScalarJournal journal = ScalarJournal.open(file());
        Entry complete = entry("r1/2.1", Stage.PREPARING, text(LOCATION, "old"));
        journal.put(complete);
        // A crash in the middle of the next write: half a temporary file, never renamed.
        Path temporary = DurableFile.temporaryOf(file());
        Files.writeString(temporary, "waldoconf-scalar-journal 1\nentry r1/2.1 prepa");

        assertThat(ScalarJournal.open(file()).entries()).containsExactly(complete);
        assertThat(temporary).doesNotExist();
    }

    @Test
    void aFileCutShortIsAnErrorThatNamesTheFileAndSaysWhatToDo() throws Exception {
        ScalarJournal.open(file()).put(entry("r1/3.1", Stage.PREPARED, text(LOCATION, "old"), text(CONTACT, "x")));
        String whole = Files.readString(file());
        Files.writeString(file(), whole.substring(0, whole.indexOf("end")));

        assertThatThrownBy(() -> ScalarJournal.open(file())).isInstanceOf(IOException.class)
                .hasMessageContaining(file() + " ends early (it has no 'end' line)")
                .hasMessageContaining("compare it with the pre-images in the file");
    }

    @Test
    void aCorruptLineIsAnErrorThatNamesTheFileAndTheLine() throws Exception {
        Files.createDirectories(file().getParent());
        Files.writeString(file(), "waldoconf-scalar-journal 1\nentry r1/4.1 prepared\n"
                + "pre-image 1.3.6.1.2.1.1.6.0 txet old\nend 1\n");

        assertThatThrownBy(() -> ScalarJournal.open(file())).isInstanceOf(IOException.class)
                .hasMessageContaining(file() + ":3: unreadable journal line 'pre-image 1.3.6.1.2.1.1.6.0 txet old':"
                        + " unknown value kind 'txet'");
    }

    @Test
    void otherDamageIsReportedTooWithTheFileNamed() throws Exception {
        Files.createDirectories(file().getParent());
        for (String damaged : List.of(
                "not a journal\n",
                "",
                "waldoconf-scalar-journal 1\nentry r1/5.1 voted\nend 1\n",
                "waldoconf-scalar-journal 1\npre-image 1.3.6.1.2.1.1.6.0 text a\nend 0\n",
                "waldoconf-scalar-journal 1\nentry r1/5.1 prepared\npre-image sysLocation text a\nend 1\n",
                "waldoconf-scalar-journal 1\nentry r1/5.1 prepared\npre-image 1.3.6.1.4.1.1.0 number x\nend 1\n",
                "waldoconf-scalar-journal 1\nentry r1/5.1 prepared\nend 2\n",
                "waldoconf-scalar-journal 1\nend 0\nentry r1/5.1 prepared\n",
                "waldoconf-scalar-journal 1\npeer switch-b\nentry r1/5.1 prepared\nend 1\n",
                "waldoconf-scalar-journal 1\nentry r1/5.1 prepared\npeer\nend 1\n",
                "waldoconf-scalar-journal 1\nentry r1/5.1 prepared\npeer a b\nend 1\n",
                "waldoconf-scalar-journal 1\nentry r1/5.1 prepared\npre-image 1.3.6.1.4.1.1.0 number 1\n"
                        + "peer switch-b\nend 1\n")) {
            Files.writeString(file(), damaged);

            assertThatThrownBy(() -> ScalarJournal.open(file())).as(damaged).isInstanceOf(IOException.class)
                    .hasMessageStartingWith(file().toString());
        }
    }

    @Test
    void theHostsToAskAreKeptWithAnEntryEvenWithSpacesInTheirIds() throws Exception {
        ScalarJournal journal = ScalarJournal.open(file());
        Entry prepared = new Entry("r1/6.1", Stage.PREPARED, List.of(text(LOCATION, "old")),
                List.of("switch-agent 2", "operator-1"));
        journal.put(prepared);

        Entry read = ScalarJournal.open(file()).entries().getFirst();
        assertThat(read).isEqualTo(prepared);
        assertThat(read.at(Stage.BACKED_OUT).peers()).containsExactly("switch-agent 2", "operator-1");
        assertThat(read.transactionId()).isEqualTo("6.1");
        assertThat(Files.readString(file())).contains("entry r1/6.1 prepared\npeer switch-agent+2\npeer operator-1\n");
    }

    @Test
    void aJournalWrittenBeforePeersExistedIsReadWithNone() throws Exception {
        Files.createDirectories(file().getParent());
        Files.writeString(file(), "waldoconf-scalar-journal 1\nentry r1/7.1 prepared\n"
                + "pre-image 1.3.6.1.2.1.1.6.0 text old\nend 1\n");

        assertThat(ScalarJournal.open(file()).entries().getFirst().peers()).isEmpty();
    }
}
