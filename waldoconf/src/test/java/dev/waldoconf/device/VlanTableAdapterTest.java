package dev.waldoconf.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.Binding;
import dev.waldo.runtime.BoundTransaction;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.Variable;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.service.DeviceBinding;
import dev.waldoconf.service.DeviceJournal;
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
 * answering: the read-back check against a switch changed since the read, owed undos, a push that
 * died half-way, and an in-doubt entry holding every read.
 */
class VlanTableAdapterTest {
    private static final int PORTS = 8;
    private static final SwitchState FACTORY = SwitchState.factoryDefault(PORTS);
    private static final SwitchState VOICE = FACTORY.with(new Vlan(20, "voice", new TreeSet<>(Set.of(8)),
            new TreeSet<>()));
    private static final SwitchState OUT_OF_BAND = FACTORY.with(new Vlan(50, "oob", new TreeSet<>(Set.of(7)),
            new TreeSet<>()));

    @TempDir
    Path dir;
    private final InMemoryNetwork network = new InMemoryNetwork();
    private final HookedVlanDevice device = new HookedVlanDevice(new MemoryVlanDevice("sw-1", PORTS, FACTORY));
    private Host host;
    private VlanSwitch service;
    private DeviceBinding<SwitchState> binding;

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
    private DeviceBinding<SwitchState> restarted() throws Exception {
        DeviceBinding<SwitchState> started = new DeviceBinding<>(new VlanTableAdapter(device),
                DeviceJournal.open(dir, VlanStateFormat.INSTANCE));
        started.recover();
        return started;
    }

    @Test
    void aSwitchChangedBetweenTheReadAndThePushVotesNoAndAbortPutsBackWhatItHeld() throws Exception {
        loadVlans(binding);
        device.memory().push(OUT_OF_BAND);  // someone else, after the transaction's read

        BoundTransaction txn = staging("t1", VOICE);
        Binding.Vote vote = binding.prepare(txn);
        binding.abort(txn);

        assertThat(vote.accepted()).isFalse();
        assertThat(vote.reason()).contains("sw-1", "changed by someone else");
        assertThat(device.read()).as("the out-of-band VLAN survives the backed-out push").isEqualTo(OUT_OF_BAND);
        assertThat(DeviceJournal.open(dir, VlanStateFormat.INSTANCE).entries()).as("nothing unfinished").isEmpty();
    }

    @Test
    void aCommittedChangeStaysOnTheSwitchAndItsRecordIsTheCommittedOne() throws Exception {
        loadVlans(binding);
        BoundTransaction txn = staging("t1", VOICE);

        assertThat(binding.prepare(txn)).isEqualTo(Binding.Vote.yes());
        binding.commit(txn);

        assertThat(device.read()).isEqualTo(VOICE);
        assertThat(binding.committed().intended()).isEqualTo(VOICE);
        assertThat(restarted().committed().intended()).as("journaled").isEqualTo(VOICE);
    }

    @Test
    void anUndoTheSwitchDidNotTakeIsOwedAndBlocksNewChangesUntilPaid() throws Exception {
        loadVlans(binding);
        BoundTransaction first = staging("t1", VOICE);
        assertThat(binding.prepare(first).accepted()).isTrue();
        device.beforeRead(VlanTableAdapterTest::noAnswer).beforePush(VlanTableAdapterTest::noAnswer);
        binding.abort(first);
        assertThat(Files.readString(dir.resolve(DeviceJournal.FILE))).contains(" backed-out\n");

        BoundTransaction second = staging("t2", VOICE);
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
        loadVlans(binding);
        device.afterPush(() -> {  // the push lands, then the service "dies" before its vote
            throw new DeviceException("sw-1: the connection dropped after the last SET", false);
        });
        assertThat(binding.prepare(staging("t1", VOICE)).accepted()).isFalse();
        assertThat(device.read()).isEqualTo(VOICE);
        assertThat(Files.readString(dir.resolve(DeviceJournal.FILE))).contains(" preparing\n");
        device.afterPush(() -> { });

        restarted();

        assertThat(device.read()).isEqualTo(FACTORY);
        assertThat(DeviceJournal.open(dir, VlanStateFormat.INSTANCE).entries()).as("nothing unfinished").isEmpty();
    }

    @Test
    void aYesVoteLeftInDoubtHoldsEveryReadUntilItsOutcomeIsKnown() throws Exception {
        loadVlans(binding);
        assertThat(binding.prepare(staging("t1", VOICE)).accepted()).isTrue();

        DeviceBinding<SwitchState> next = restarted();

        assertThat(device.read()).as("kept until the outcome is known").isEqualTo(VOICE);
        assertThat(next.inDoubt()).singleElement().satisfies(entry ->
                assertThat(DeviceBinding.transactionId(entry.key())).isEqualTo("t1"));
        assertThatThrownBy(() -> loadVlans(next)).isInstanceOf(DeviceException.class)
                .hasMessageContaining("sw-1").hasMessageContaining("still asking its peers for the outcome");

        next.resolve(next.inDoubt().get(0).key(), false);

        assertThat(device.read()).isEqualTo(FACTORY);
        assertThat(WaldoState.state(loadVlans(next), WaldoState.pvids(FACTORY))).as("read again").isEqualTo(FACTORY);
    }

    /**
     * A service closed in the middle of a push (a site agent restarting a switch's service) waits
     * for the push to end, and its binding touches neither the switch nor the journal after: CI
     * once saw the new service's journal write fail because the old binding, still preparing, had
     * renamed the shared temporary file away under it. The new run settles what is unfinished.
     */
    @Test
    void aClosedBindingWaitsForItsPushAndThenLeavesTheSwitchAndJournalToTheNextRun() throws Exception {
        loadVlans(binding);
        CountDownLatch pushed = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        device.afterPush(() -> {
            pushed.countDown();
            awaitQuietly(goOn);
        });
        CompletableFuture<Binding.Vote> vote = CompletableFuture.supplyAsync(() -> binding.prepare(staging("t1", VOICE)));
        pushed.await();
        Thread closing = Thread.ofVirtual().start(binding::close);

        closing.join(Duration.ofMillis(300));
        assertThat(closing.isAlive()).as("close waits for the push in progress").isTrue();
        goOn.countDown();
        closing.join();
        assertThat(vote.get().accepted()).isTrue();
        device.afterPush(() -> { });
        String journal = Files.readString(dir.resolve(DeviceJournal.FILE));

        binding.abort(staging("t1", VOICE));
        assertThat(binding.prepare(staging("t2", FACTORY)).accepted()).isFalse();
        assertThat(device.read()).as("the closed binding undid nothing").isEqualTo(VOICE);
        assertThat(Files.readString(dir.resolve(DeviceJournal.FILE))).as("nor wrote its journal").isEqualTo(journal);

        DeviceBinding<SwitchState> next = restarted();
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

    private Object loadVlans(DeviceBinding<SwitchState> on) throws DeviceException {
        return on.load(service, VlanSwitch.VLANS.name(), VlanSwitch.VLANS.annotation("snmp").orElseThrow());
    }

    /** A transaction that stages {@code intended} as the service's stage() does, with no trial deadline. */
    private BoundTransaction staging(String id, SwitchState intended) {
        return new BoundTransaction(id, List.of(
                change(VlanSwitch.VLANS, WaldoState.vlans(intended)),
                change(VlanSwitch.PVIDS, WaldoState.pvids(intended)),
                change(VlanSwitch.TRIAL, ""),
                change(VlanSwitch.TRIAL_DEADLINE, 0.0),
                change(VlanSwitch.BEFORE_VLANS, WaldoState.vlans(FACTORY)),
                change(VlanSwitch.BEFORE_PVIDS, WaldoState.pvids(FACTORY))));
    }

    private BoundTransaction.Change change(Variable<?> variable, Object after) {
        return new BoundTransaction.Change(service, variable.name(), variable.annotation("snmp").orElseThrow(),
                null, after);
    }
}
