package dev.waldoconf.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.Binding;
import dev.waldo.runtime.BoundTransaction;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.Variable;
import dev.waldoconf.model.SwitchPart;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.service.DeviceBinding;
import dev.waldoconf.service.DeviceJournal;
import dev.waldoconf.service.SnapshotLog;
import dev.waldoconf.service.TrialRecord;
import dev.waldoconf.service.WaldoState;
import dev.waldoconf.services.VlanSwitch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one device binding over the Q-BRIDGE adapter, called as the runtime calls it (load, prepare,
 * commit or abort) for a real VlanSwitch object, against an in-memory switch that can stop
 * answering: the check of a transaction's keys against a switch changed since the read, changes of
 * two transactions prepared side by side on different keys, owed undos, a push that died half-way,
 * and an in-doubt entry holding every read.
 */
class VlanTableAdapterTest {
    private static final int PORTS = 8;
    private static final SwitchState FACTORY = SwitchState.factoryDefault(PORTS);
    private static final SwitchState VOICE = FACTORY.with(new Vlan(20, "voice", new TreeSet<>(Set.of(8)),
            new TreeSet<>()));
    private static final SwitchState OUT_OF_BAND = FACTORY.with(new Vlan(50, "oob", new TreeSet<>(Set.of(7)),
            new TreeSet<>()));
    private static final SwitchState CAMERAS = FACTORY.with(new Vlan(30, "cameras", new TreeSet<>(Set.of(6)),
            new TreeSet<>()));
    /** VLAN 20 named otherwise, by someone outside WaldoConf. */
    private static final SwitchState VOICE_RENAMED = FACTORY.with(new Vlan(20, "phones", new TreeSet<>(),
            new TreeSet<>()));

    @TempDir
    Path dir;
    private final InMemoryNetwork network = new InMemoryNetwork();
    private final HookedVlanDevice device = new HookedVlanDevice(new MemoryVlanDevice("sw-1", PORTS, FACTORY));
    private Host host;
    private VlanSwitch service;
    private DeviceBinding<SwitchPart> binding;

    @BeforeEach
    void start() throws Exception {
        host = Host.inMemory(network, "sw-1");
        binding = restarted();
        host.bind("snmp", binding);
        service = VlanSwitch.create(host, "sw-1");
    }

    @AfterEach
    void stop() {
        host.close();
        network.close();
    }

    /** A binding as a fresh service run makes it: a new adapter over the same switch and journal, recovered. */
    private DeviceBinding<SwitchPart> restarted() throws Exception {
        DeviceBinding<SwitchPart> started = new DeviceBinding<>(new VlanTableAdapter(device),
                DeviceJournal.open(dir, VlanStateFormat.INSTANCE));
        started.recover();
        if (started.committed() == null) {
            started.adopt(TrialRecord.withoutTrial("", SwitchPart.of(FACTORY)));
        }
        return started;
    }

    @Test
    void aSwitchChangedOnTheTransactionsKeysSinceTheReadVotesNoAndAbortPutsBackWhatItHeld() throws Exception {
        loadAll(binding, "t1");
        device.memory().push(VOICE_RENAMED);  // someone else creates VLAN 20, after the transaction's read

        BoundTransaction txn = staging("t1", FACTORY, VOICE);
        Binding.Vote vote = binding.prepare(txn);
        binding.abort(txn);

        assertThat(vote.accepted()).isFalse();
        assertThat(vote.reason()).contains("sw-1", "changed by someone else");
        assertThat(device.read()).as("the out-of-band VLAN survives the backed-out push").isEqualTo(VOICE_RENAMED);
        assertThat(DeviceJournal.open(dir, VlanStateFormat.INSTANCE).entries()).as("nothing unfinished").isEmpty();
    }

    @Test
    void aChangeOnOtherKeysSinceTheReadStaysAndThePushAddsOnlyTheTransactionsKeys() throws Exception {
        loadAll(binding, "t1");
        device.memory().push(OUT_OF_BAND);  // VLAN 50 and port 7's membership: keys t1 does not set

        BoundTransaction txn = staging("t1", FACTORY, VOICE);
        assertThat(binding.prepare(txn)).isEqualTo(Binding.Vote.yes());
        binding.commit(txn);

        assertThat(device.read()).isEqualTo(SwitchPart.between(FACTORY, VOICE).appliedTo(OUT_OF_BAND));
        assertThat(device.read().vlans().keySet()).containsExactly(1, 20, 50);
    }

    /**
     * The push checks the transaction's keys and computes its SETs from one read of the switch: a
     * write on other keys that lands as the push begins is in that read, so the push keeps it and
     * the change goes through. (With a second read for the SETs, a write between the two was undone
     * by the push, and the vote had to be no.)
     */
    @Test
    void aWriteOnOtherKeysAsThePushBeginsStaysAndTheChangeGoesThrough() throws Exception {
        loadAll(binding, "t1");
        device.beforePush(() -> {
            if (!device.memory().read().vlans().containsKey(50)) {
                device.memory().push(OUT_OF_BAND);
            }
        });

        BoundTransaction txn = staging("t1", FACTORY, VOICE);
        Binding.Vote vote = binding.prepare(txn);
        binding.commit(txn);

        assertThat(vote).isEqualTo(Binding.Vote.yes());
        assertThat(device.read()).isEqualTo(SwitchPart.between(FACTORY, VOICE).appliedTo(OUT_OF_BAND));
    }

    /**
     * Two transactions on different keys of one switch, both prepared (pushed) before either ends:
     * the first one's abort puts back its own keys only, so the second's change stays, and commits.
     * A whole-table undo would have put the switch back to what the first read, erasing the second.
     */
    @Test
    void changesPreparedSideBySideOnDifferentKeysUndoOnlyTheirOwnKeys() throws Exception {
        loadAll(binding, "t1");
        loadAll(binding, "t2");
        BoundTransaction voice = staging("t1", FACTORY, VOICE);
        BoundTransaction cameras = staging("t2", FACTORY, CAMERAS);

        assertThat(binding.prepare(voice)).isEqualTo(Binding.Vote.yes());
        assertThat(binding.prepare(cameras)).isEqualTo(Binding.Vote.yes());
        assertThat(device.read().vlans().keySet()).as("both pushed").containsExactly(1, 20, 30);
        assertThat(DeviceJournal.open(dir, VlanStateFormat.INSTANCE).entries()).as("one entry each").hasSize(2);
        binding.abort(voice);
        binding.commit(cameras);

        assertThat(device.read()).isEqualTo(CAMERAS);
        assertThat(binding.committed().intended()).isEqualTo(SwitchPart.of(CAMERAS));
        assertThat(restarted().committed().intended()).as("journaled").isEqualTo(SwitchPart.of(CAMERAS));
        assertThat(DeviceJournal.open(dir, VlanStateFormat.INSTANCE).entries()).as("nothing unfinished").isEmpty();
    }

    @Test
    void aCommittedChangeStaysOnTheSwitchAndItsRecordIsTheCommittedOne() throws Exception {
        loadAll(binding, "t1");
        BoundTransaction txn = staging("t1", FACTORY, VOICE);

        assertThat(binding.prepare(txn)).isEqualTo(Binding.Vote.yes());
        binding.commit(txn);

        assertThat(device.read()).isEqualTo(VOICE);
        assertThat(binding.committed().intended()).isEqualTo(SwitchPart.of(VOICE));
        assertThat(restarted().committed().intended()).as("journaled").isEqualTo(SwitchPart.of(VOICE));
    }

    @Test
    void anUndoTheSwitchDidNotTakeIsOwedAndBlocksNewChangesUntilPaid() throws Exception {
        loadAll(binding, "t1");
        BoundTransaction first = staging("t1", FACTORY, VOICE);
        assertThat(binding.prepare(first).accepted()).isTrue();
        device.beforeRead(VlanTableAdapterTest::noAnswer).beforePush(VlanTableAdapterTest::noAnswer);
        binding.abort(first);
        assertThat(SnapshotLog.read(dir.resolve(DeviceJournal.FILE))).contains(" backed-out\n");

        BoundTransaction second = staging("t2", FACTORY, VOICE);
        Binding.Vote blocked = binding.prepare(second);
        binding.abort(second);
        assertThat(blocked.accepted()).isFalse();
        assertThat(blocked.reason()).contains("sw-1", "undo of backed-out transaction", "still owed");
        assertThat(binding.reconcile()).as("still down").contains("still owed");

        device.beforeRead(() -> { }).beforePush(() -> { });
        assertThat(binding.reconcile()).as("paid at the recheck").isNull();
        assertThat(device.read()).isEqualTo(FACTORY);
        assertThat(DeviceJournal.open(dir, VlanStateFormat.INSTANCE).entries()).as("nothing unfinished").isEmpty();
    }

    @Test
    void aPushThatDiedHalfWayIsUndoneByTheNextStart() throws Exception {
        loadAll(binding, "t1");
        device.afterPush(() -> {  // the push lands, then the service "dies" before its vote
            throw new DeviceException("sw-1: the connection dropped after the last SET", false);
        });
        assertThat(binding.prepare(staging("t1", FACTORY, VOICE)).accepted()).isFalse();
        assertThat(device.read()).isEqualTo(VOICE);
        assertThat(SnapshotLog.read(dir.resolve(DeviceJournal.FILE))).contains(" preparing\n");
        device.afterPush(() -> { });

        restarted();

        assertThat(device.read()).isEqualTo(FACTORY);
        assertThat(DeviceJournal.open(dir, VlanStateFormat.INSTANCE).entries()).as("nothing unfinished").isEmpty();
    }

    @Test
    void aYesVoteLeftInDoubtHoldsEveryReadUntilItsOutcomeIsKnown() throws Exception {
        loadAll(binding, "t1");
        assertThat(binding.prepare(staging("t1", FACTORY, VOICE)).accepted()).isTrue();

        DeviceBinding<SwitchPart> next = restarted();

        assertThat(device.read()).as("kept until the outcome is known").isEqualTo(VOICE);
        assertThat(next.inDoubt()).singleElement().satisfies(entry ->
                assertThat(DeviceBinding.transactionId(entry.key())).isEqualTo("t1"));
        assertThatThrownBy(() -> loadAll(next, "t2")).isInstanceOf(DeviceException.class)
                .hasMessageContaining("sw-1").hasMessageContaining("still asking its peers for the outcome");

        next.resolve(next.inDoubt().get(0).key(), false);

        assertThat(device.read()).isEqualTo(FACTORY);
        assertThat(WaldoState.state(load(next, VlanSwitch.SEEN_VLANS, "t3"), load(next, VlanSwitch.SEEN_PVIDS, "t3")))
                .as("read again").isEqualTo(FACTORY);
    }

    /**
     * A service closed in the middle of a push (a site agent restarting a switch's service) waits
     * for the push to end, and its binding touches neither the switch nor the journal after: CI
     * once saw the new service's journal write fail because the old binding, still preparing, had
     * renamed the shared temporary file away under it. The new run settles what is unfinished.
     */
    @Test
    void aClosedBindingWaitsForItsPushAndThenLeavesTheSwitchAndJournalToTheNextRun() throws Exception {
        loadAll(binding, "t1");
        CountDownLatch pushed = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        device.afterPush(() -> {
            pushed.countDown();
            awaitQuietly(goOn);
        });
        CompletableFuture<Binding.Vote> vote = CompletableFuture.supplyAsync(() -> binding.prepare(staging("t1", FACTORY, VOICE)));
        pushed.await();
        Thread closing = Thread.ofVirtual().start(binding::close);

        closing.join(Duration.ofMillis(300));
        assertThat(closing.isAlive()).as("close waits for the push in progress").isTrue();
        goOn.countDown();
        closing.join();
        assertThat(vote.get().accepted()).isTrue();
        device.afterPush(() -> { });
        String journal = Files.readString(dir.resolve(DeviceJournal.FILE));

        binding.abort(staging("t1", FACTORY, VOICE));
        assertThat(binding.prepare(staging("t2", VOICE, FACTORY)).accepted()).isFalse();
        assertThat(device.read()).as("the closed binding undid nothing").isEqualTo(VOICE);
        assertThat(Files.readString(dir.resolve(DeviceJournal.FILE))).as("nor wrote its journal").isEqualTo(journal);

        DeviceBinding<SwitchPart> next = restarted();
        next.resolve(next.inDoubt().get(0).key(), false);
        assertThat(device.read()).as("the next run settles it").isEqualTo(FACTORY);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void noAnswer() throws DeviceException {
        throw new DeviceException("sw-1: no answer (timeout)", false);
    }

    /** Loads every map the binding serves, as a transaction's first touches do. */
    private void loadAll(DeviceBinding<SwitchPart> on, String transaction) throws DeviceException {
        for (Variable<?> variable : List.of(VlanSwitch.SEEN_VLANS, VlanSwitch.SEEN_PVIDS, VlanSwitch.NAMES,
                VlanSwitch.MEMBERS, VlanSwitch.PVIDS)) {
            load(on, variable, transaction);
        }
    }

    private Object load(DeviceBinding<SwitchPart> on, Variable<?> variable, String transaction) throws DeviceException {
        return on.load(service, variable.name(), variable.annotation("snmp").orElseThrow(), transaction);
    }

    /**
     * A transaction that changes the switch from {@code read} (its loads) to {@code intended}, key by
     * key as the service's stage() does, with no trial.
     */
    private BoundTransaction staging(String id, SwitchState read, SwitchState intended) {
        return new BoundTransaction(id, List.of(
                change(VlanSwitch.NAMES, WaldoState.names(read), WaldoState.names(intended)),
                change(VlanSwitch.MEMBERS, WaldoState.members(read), WaldoState.members(intended)),
                change(VlanSwitch.PVIDS, WaldoState.pvids(read), WaldoState.pvids(intended))));
    }

    private BoundTransaction.Change change(Variable<?> variable, Object before, Object after) {
        return new BoundTransaction.Change(service, variable.name(), variable.annotation("snmp").orElseThrow(),
                before, after);
    }
}
