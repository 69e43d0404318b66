package dev.waldoconf.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.Binding;
import dev.waldo.runtime.BoundTransaction;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.service.DeviceBinding;
import dev.waldoconf.service.DeviceJournal;
import dev.waldoconf.service.SnapshotLog;
import dev.waldoconf.service.TrialRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;

/**
 * The one device binding over the scalar-OID adapter: two-phase commit, the journal, owed undos,
 * in-doubt entries and trials, against an in-memory agent that can refuse objects and stop
 * answering.
 */
class ScalarOidAdapterTest {
    private static final String LOCATION = "1.3.6.1.2.1.1.6.0";
    private static final String CONTACT = "1.3.6.1.2.1.1.4.0";
    private static final String COUNT = "1.3.6.1.4.1.32473.1.0";

    @TempDir
    Path dir;
    private final MemoryAgent agent = new MemoryAgent();
    private DeviceBinding<List<PreImage>> binding;

    @BeforeEach
    void startBinding() throws Exception {
        binding = restarted();
    }

    /** A binding as a fresh service run makes it: over the same journal file, after recovery. */
    private DeviceBinding<List<PreImage>> restarted() throws Exception {
        DeviceBinding<List<PreImage>> started =
                new DeviceBinding<>(new ScalarOidAdapter("edge-1", new SnmpScalars("edge-1", agent)), journal());
        started.recover();
        return started;
    }

    private DeviceJournal<List<PreImage>> journal() throws Exception {
        return DeviceJournal.open(dir, PreImage.FORMAT);
    }

    private Path journalFile() {
        return dir.resolve(DeviceJournal.FILE);
    }

    @Test
    void prepareSetsEachObjectAndCommitKeepsIt() throws Exception {
        BoundTransaction txn = txn(change("location", LOCATION, "rack 4"), change("count", COUNT, 7.0));

        assertThat(binding.prepare(txn)).isEqualTo(Binding.Vote.yes());
        binding.commit(txn);

        assertThat(agent.values.get(new OID(LOCATION))).isEqualTo(new OctetString("rack 4"));
        assertThat(agent.values.get(new OID(COUNT))).isEqualTo(new Integer32(7));
    }

    @Test
    void aRefusalVotesNoNamingTheAgentTheOidAndTheErrorStatusAndAbortRestoresInReverseOrder() throws Exception {
        agent.refused.add(new OID(CONTACT));
        BoundTransaction txn = txn(change("location", LOCATION, "rack 4"), change("count", COUNT, 7.0),
                change("contact", CONTACT, "noc"));

        Binding.Vote vote = binding.prepare(txn);
        binding.abort(txn);

        assertThat(vote.accepted()).isFalse();
        assertThat(vote.reason()).contains("edge-1", "'" + CONTACT + "'", "notWritable");
        assertThat(agent.values.get(new OID(LOCATION))).isEqualTo(new OctetString("old location"));
        assertThat(agent.values.get(new OID(COUNT))).isEqualTo(new Integer32(1));
        List<OID> restores = agent.sets.subList(2, agent.sets.size());
        assertThat(restores).containsExactly(new OID(COUNT), new OID(LOCATION));
    }

    @Test
    void aNumberThatIsNotAnInteger32VotesNoWithoutTouchingTheAgent() throws Exception {
        Binding.Vote vote = binding.prepare(txn(change("count", COUNT, 2.5)));

        assertThat(vote.accepted()).isFalse();
        assertThat(vote.reason()).contains("edge-1", COUNT, "2.5", "Integer32");
        assertThat(agent.sets).isEmpty();
    }

    @Test
    void aValueOfTheWrongTypeVotesNo() throws Exception {
        Binding.Vote vote = binding.prepare(txn(change("count", COUNT, "seven")));

        assertThat(vote.accepted()).isFalse();
        assertThat(vote.reason()).contains("edge-1", "Text");
        assertThat(agent.values.get(new OID(COUNT))).isEqualTo(new Integer32(1));
    }

    @Test
    void everyOldValueIsOnDiskBeforeTheFirstSetAndItsEntryIsGoneAfterCommit() throws Exception {
        agent.onSet = oid -> agent.journalAtSet.add(readJournal());
        BoundTransaction txn = txn(change("location", LOCATION, "rack 4"), change("contact", CONTACT, "noc"));

        assertThat(binding.prepare(txn)).isEqualTo(Binding.Vote.yes());

        assertThat(agent.journalAtSet).hasSize(2).allSatisfy(journal -> assertThat(journal)
                .contains(" preparing\n", "pre-image " + LOCATION + " text old+location\n",
                        "pre-image " + CONTACT + " text old+contact\n"));
        assertThat(readJournal()).contains(" prepared\n");
        binding.commit(txn);
        assertThat(journal().entries()).as("nothing unfinished").isEmpty();
    }

    @Test
    void aPrepareInterruptedAfterSomeSetsIsUndoneByTheNextStart() throws Exception {
        // The second SET is refused and no abort follows, as if the service died there: the first
        // object holds the new value.
        agent.refused.add(new OID(CONTACT));
        BoundTransaction txn = txn(change("location", LOCATION, "rack 4"), change("contact", CONTACT, "noc"));
        assertThat(binding.prepare(txn).accepted()).isFalse();
        assertThat(agent.values.get(new OID(LOCATION))).isEqualTo(new OctetString("rack 4"));
        assertThat(readJournal()).contains(" preparing\n");
        agent.refused.clear();

        restarted();

        assertThat(agent.values.get(new OID(LOCATION))).isEqualTo(new OctetString("old location"));
        assertThat(agent.values.get(new OID(CONTACT))).isEqualTo(new OctetString("old contact"));
        assertThat(journal().entries()).as("nothing unfinished").isEmpty();
    }

    @Test
    void anUndoTheAgentDidNotTakeIsOwedAndBlocksNewChangesUntilPaid() throws Exception {
        BoundTransaction first = txn("t1", change("location", LOCATION, "rack 4"));
        assertThat(binding.prepare(first).accepted()).isTrue();
        agent.down = true;
        binding.abort(first);
        assertThat(readJournal()).contains(" backed-out\n", "pre-image " + LOCATION + " text old+location");

        Binding.Vote blocked = binding.prepare(txn("t2", change("contact", CONTACT, "noc")));
        assertThat(blocked.accepted()).isFalse();
        assertThat(blocked.reason()).contains("edge-1", "undo of backed-out transaction", "still owed");
        binding.abort(txn("t2", change("contact", CONTACT, "noc")));

        agent.down = false;
        BoundTransaction third = txn("t3", change("contact", CONTACT, "noc"));
        assertThat(binding.prepare(third).accepted()).isTrue();
        binding.commit(third);
        assertThat(agent.values.get(new OID(LOCATION))).isEqualTo(new OctetString("old location"));
        assertThat(agent.values.get(new OID(CONTACT))).isEqualTo(new OctetString("noc"));
        assertThat(journal().entries()).as("nothing unfinished").isEmpty();
    }

    @Test
    void aTransactionThatVotedYesIsKeptInDoubtAcrossARestartUntilResolved() throws Exception {
        BoundTransaction txn = txn(change("location", LOCATION, "rack 4"), change("count", COUNT, 7.0));
        assertThat(binding.prepare(txn).accepted()).isTrue();

        DeviceBinding<List<PreImage>> next = restarted();

        assertThat(agent.values.get(new OID(LOCATION))).as("kept until the outcome is known")
                .isEqualTo(new OctetString("rack 4"));
        assertThat(next.inDoubt()).singleElement().satisfies(entry -> {
            assertThat(entry.key()).endsWith("/t1");
            assertThat(entry.stage()).isEqualTo(DeviceJournal.Stage.PREPARED);
        });
        DeviceBinding<List<PreImage>> afterAnother = restarted();
        String key = afterAnother.inDoubt().get(0).key();

        afterAnother.resolve(key, false);

        assertThat(agent.values.get(new OID(LOCATION))).isEqualTo(new OctetString("old location"));
        assertThat(agent.values.get(new OID(COUNT))).isEqualTo(new Integer32(1));
        assertThat(afterAnother.inDoubt()).isEmpty();
        assertThat(journal().entries()).as("nothing unfinished").isEmpty();
    }

    @Test
    void anInDoubtEntryHoldsReadsOfTheObjectsItSetUntilResolvedAndNoOthers() throws Exception {
        assertThat(binding.prepare(txn(change("location", LOCATION, "rack 4"))).accepted()).isTrue();
        DeviceBinding<List<PreImage>> next = restarted();

        assertThatThrownBy(() -> next.load(null, "location", oid(LOCATION), "t9")).isInstanceOf(DeviceException.class)
                .hasMessageContaining("edge-1").hasMessageContaining("'location' cannot be read yet");
        assertThat(next.load(null, "contact", oid(CONTACT), "t9")).isEqualTo("old contact");

        next.resolve(next.inDoubt().get(0).key(), false);
        assertThat(next.load(null, "location", oid(LOCATION), "t9")).isEqualTo("old location");
    }

    @Test
    void aStagedTrialLeftInDoubtIsUndecidedForTheTimerAsAStaging() throws Exception {
        BoundTransaction stage = txn("t1", change("location", LOCATION, "rack 4"), trial("change", "c1"),
                trial("deadline", 1_900_000_000.0), trial("switches", "edge-1"), trial("outcome", "staged c1"));
        assertThat(binding.prepare(stage).accepted()).isTrue();
        List<TrialRecord<?>> deadlines = new ArrayList<>();

        DeviceBinding<List<PreImage>> next = restarted();
        next.watchDeadlines(deadlines::add);

        assertThat(next.undecided()).as("backed out if still undecided at its deadline").containsExactly(
                Map.entry("t1", false));
        assertThat(deadlines).flatExtracting(TrialRecord::pending).extracting(TrialRecord.Trial::change)
                .containsExactly("c1");
    }

    @Test
    void anInDoubtTransactionResolvedAsCommittedKeepsTheAgentAsItIs() throws Exception {
        assertThat(binding.prepare(txn(change("location", LOCATION, "rack 4"))).accepted()).isTrue();
        DeviceBinding<List<PreImage>> next = restarted();

        next.resolve(next.inDoubt().get(0).key(), true);

        assertThat(agent.values.get(new OID(LOCATION))).isEqualTo(new OctetString("rack 4"));
        assertThat(journal().entries()).as("nothing unfinished").isEmpty();
        assertThatThrownBy(() -> next.resolve("nobody/1.1", true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no in-doubt transaction nobody/1.1");
    }

    @Test
    void aLaterCommitOverridesAnInDoubtPreImageOfTheSameObject() throws Exception {
        assertThat(binding.prepare(txn(change("location", LOCATION, "in doubt"), change("contact", CONTACT,
                "in doubt too"))).accepted()).isTrue();
        DeviceBinding<List<PreImage>> next = restarted();
        BoundTransaction later = txn("t2", change("location", LOCATION, "later"));
        assertThat(next.prepare(later).accepted()).isTrue();
        next.commit(later);

        next.resolve(next.inDoubt().get(0).key(), false);

        assertThat(agent.values.get(new OID(LOCATION))).as("committed after the in-doubt one")
                .isEqualTo(new OctetString("later"));
        assertThat(agent.values.get(new OID(CONTACT))).isEqualTo(new OctetString("old contact"));
    }

    @Test
    void inDoubtEntriesOnTheSameObjectAreBackedOutNewestFirst() throws Exception {
        assertThat(binding.prepare(txn(change("location", LOCATION, "first"))).accepted()).isTrue();
        assertThat(restarted().prepare(txn(change("location", LOCATION, "second"))).accepted()).isTrue();
        DeviceBinding<List<PreImage>> third = restarted();
        List<String> keys = third.inDoubt().stream().map(DeviceJournal.Entry::key).toList();
        assertThat(keys).hasSize(2);

        assertThatThrownBy(() -> third.resolve(keys.get(0), false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("resolve [" + keys.get(1) + "] first");
        third.resolve(keys.get(1), false);
        assertThat(agent.values.get(new OID(LOCATION))).isEqualTo(new OctetString("first"));
        third.resolve(keys.get(0), false);

        assertThat(agent.values.get(new OID(LOCATION))).isEqualTo(new OctetString("old location"));
        assertThat(journal().entries()).as("nothing unfinished").isEmpty();
    }

    @Test
    void aJournalThatCannotBeWrittenVotesNoBeforeAnythingIsSet() throws Exception {
        Files.createDirectories(journalFile());  // a directory where the file should go: every write fails

        Binding.Vote vote = binding.prepare(txn(change("location", LOCATION, "rack 4")));

        assertThat(vote.accepted()).isFalse();
        assertThat(vote.reason()).contains("edge-1", "cannot write the service's journal " + journalFile());
        assertThat(agent.sets).isEmpty();
    }

    private String readJournal() {
        try {
            return SnapshotLog.read(journalFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theYesVoteIsJournaledWithItsTransactionIdButNoPeersWhichTheRuntimeLogs() throws Exception {
        BoundTransaction txn = new BoundTransaction("3.9", List.of(change("location", LOCATION, "rack 4")),
                List.of("switch-edge-2", "operator-1"));
        assertThat(binding.prepare(txn).accepted()).isTrue();

        DeviceBinding<List<PreImage>> next = restarted();

        assertThat(next.inDoubt()).singleElement().satisfies(entry ->
                assertThat(DeviceBinding.transactionId(entry.key())).isEqualTo("3.9"));
        assertThat(readJournal()).doesNotContain("switch-edge-2").doesNotContain("peer");
    }

    @Test
    void aStagedTrialKeepsTheAgentsPreImageAndARevertSetsItBack() throws Exception {
        List<TrialRecord<?>> deadlines = new ArrayList<>();
        binding.watchDeadlines(deadlines::add);
        BoundTransaction stage = txn("t1", change("location", LOCATION, "rack 4"), trial("change", "c1"),
                trial("deadline", 1_900_000_000.0), trial("switches", "edge-1,edge-2"), trial("outcome", "staged c1"));
        assertThat(binding.prepare(stage).accepted()).isTrue();
        binding.commit(stage);

        TrialRecord.Trial<List<PreImage>> staged = binding.committed().onlyTrial().orElseThrow();
        assertThat(staged.change()).isEqualTo("c1");
        assertThat(staged.switches()).containsExactly("edge-1", "edge-2");
        assertThat(deadlines).flatExtracting(TrialRecord::pending).extracting(TrialRecord.Trial::deadlineEpochSeconds)
                .containsOnly(1_900_000_000L);
        BoundTransaction other = txn("t2", change("location", LOCATION, "rack 5"));
        Binding.Vote blocked = binding.prepare(other);
        binding.abort(other);
        assertThat(blocked.reason()).contains("edge-1", "trial c1 is pending here", "confirm or roll it back first");

        BoundTransaction revert = txn("t3", trial("change", ""), trial("outcome", "reverted c1"));
        assertThat(binding.prepare(revert).accepted()).isTrue();
        binding.commit(revert);

        assertThat(agent.values.get(new OID(LOCATION))).isEqualTo(new OctetString("old location"));
        assertThat(binding.committed().hasTrial()).isFalse();
        assertThat(restarted().committed().hasTrial()).as("journaled").isFalse();
    }

    @Test
    void aTrialStagedBeforeAStopIsBackAfterTheRestartAndAnInDoubtOneFollowsItsOutcome() throws Exception {
        BoundTransaction stage = txn("t1", change("location", LOCATION, "rack 4"), trial("change", "c1"),
                trial("deadline", 1_900_000_000.0), trial("switches", "edge-1"), trial("outcome", "staged c1"));
        assertThat(binding.prepare(stage).accepted()).isTrue();

        DeviceBinding<List<PreImage>> inDoubt = restarted();
        assertThat(inDoubt.committed()).as("not committed yet").isNull();
        inDoubt.resolve(inDoubt.inDoubt().get(0).key(), true);
        assertThat(inDoubt.committed().onlyTrial().orElseThrow().change()).isEqualTo("c1");

        DeviceBinding<List<PreImage>> again = restarted();
        TrialRecord.Trial<List<PreImage>> trial = again.committed().onlyTrial().orElseThrow();
        assertThat(trial.change()).isEqualTo("c1");
        assertThat(trial.before()).singleElement().satisfies(preImage ->
                assertThat(preImage.old()).isEqualTo(new ScalarValue.Text("old location")));
    }

    private static Annotation oid(String oid) {
        return new Annotation("snmp", Map.of("oid", oid));
    }

    private static BoundTransaction.Change trial(String field, Object after) {
        return new BoundTransaction.Change(null, field, new Annotation("snmp", Map.of("trial", field)), null, after);
    }

    private static BoundTransaction.Change change(String variable, String oid, Object after) {
        return new BoundTransaction.Change(null, variable, new Annotation("snmp", Map.of("oid", oid)), null, after);
    }

    private static BoundTransaction txn(BoundTransaction.Change... changes) {
        return txn("t1", changes);
    }

    private static BoundTransaction txn(String id, BoundTransaction.Change... changes) {
        return new BoundTransaction(id, List.of(changes));
    }

    /**
     * An agent in memory: GET and SET of scalars, notWritable for the refused ones, timeouts while
     * {@link #down}, and a hook that runs at each SET.
     */
    private static final class MemoryAgent implements SnmpSession {
        final Map<OID, Variable> values = new HashMap<>(Map.of(new OID(LOCATION), new OctetString("old location"),
                new OID(CONTACT), new OctetString("old contact"), new OID(COUNT), new Integer32(1)));
        final Set<OID> refused = new HashSet<>();
        final List<OID> sets = new ArrayList<>();
        final List<String> journalAtSet = new ArrayList<>();
        Consumer<OID> onSet = oid -> { };
        boolean down;

        @Override
        public String agent() {
            return "memory";
        }

        @Override
        public SnmpResponse get(List<OID> oids) throws IOException {
            if (down) {
                throw new SnmpTimeoutException("memory agent is down");
            }
            return new SnmpResponse(0, 0, oids.stream().map(o -> new VariableBinding(o, values.get(o))).toList());
        }

        @Override
        public SnmpResponse set(List<VariableBinding> bindings) throws IOException {
            if (down) {
                throw new SnmpTimeoutException("memory agent is down");
            }
            VariableBinding vb = bindings.get(0);
            onSet.accept(vb.getOid());
            if (refused.contains(vb.getOid())) {
                return new SnmpResponse(17, 1, bindings);
            }
            sets.add(vb.getOid());
            values.put(vb.getOid(), vb.getVariable());
            return new SnmpResponse(0, 0, bindings);
        }

        @Override
        public SnmpResponse getBulk(OID after, int maxRepetitions) {
            throw new UnsupportedOperationException("scalars need no walks");
        }

        @Override
        public void close() {
        }
    }
}
