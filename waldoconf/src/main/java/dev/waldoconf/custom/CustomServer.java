package dev.waldoconf.custom;

import dev.waldo.compiler.check.KindInfo;
import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldo.runtime.Variable;
import dev.waldo.runtime.WaldoObject;
import dev.waldoconf.config.AgentTargets;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.snmp.ScalarValue;
import dev.waldoconf.service.AuditJournal;
import dev.waldoconf.service.ChangeGuard;
import dev.waldoconf.service.InDoubtRecovery;
import dev.waldoconf.service.TrialRecord;
import dev.waldoconf.service.TrialTimer;
import dev.waldoconf.snmp.SnmpScalars;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.snmp4j.smi.OID;

/**
 * What {@code waldoconf serve --service my.wld|system-group --switch NAME} runs: a networked Waldo
 * host holding the program's served Service (see {@link CustomProgram#servedService()}), its
 * {@code @snmp} variables bound to the switch's SNMP agent with a {@link ScalarSnmpBinding}
 * (journaling into {@link #journalFile}), listening at the switch's service address. Each operator
 * that connects gets a {@value CustomProgram#DESK} that hands out the served Service. A {@link ChangeGuard}
 * stands in front of the agent: only operators with the change role may change it, and each change is
 * recorded in the {@link AuditJournal} in the host's state directory. Beside the served Service runs
 * the shipped {@value CustomProgram#TRIAL}, which keeps the agent's pending trial; a {@link TrialTimer}
 * reverts it at its deadline, after a restart too (the binding journals it in {@link #trialDir}).
 */
public final class CustomServer implements RunningService {
    /** The journal's file name in the service's state directory. */
    public static final String JOURNAL_FILE = "scalar-undo.journal";
    /** The trial journal's directory in the service's state directory. */
    public static final String TRIAL_DIR = "trial";

    private final String name;
    private final NetHost net;
    private final SnmpScalars agent;
    private final WaldoObject service;
    private final InetSocketAddress address;
    private final TrialTimer timer;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private CustomServer(String name, NetHost net, SnmpScalars agent, WaldoObject service,
            InetSocketAddress address, TrialTimer timer) {
        this.name = name;
        this.timer = timer;
        this.net = net;
        this.agent = agent;
        this.service = service;
        this.address = address;
    }

    /**
     * Starts serving switch {@code entry} of {@code inventory} with the custom service in
     * {@code file}, the way {@code waldoconf serve} does.
     *
     * @param net how the host talks to operators; its state dir holds the TLS key and pinned peers
     * @param environment where {@code {env: NAME}} secrets come from
     * @throws EngineException UNAVAILABLE when the file cannot be read or breaks the rules (the message
     *     has every problem as file:line:col) or the journal is damaged (the message names it),
     *     UNREACHABLE when the agent cannot be used or an interrupted change cannot be undone on it,
     *     REFUSED when the service's onCreate set a value the agent refused
     */
    public static CustomServer start(Path file, Inventory inventory, SwitchEntry entry, NetConfig net,
            Map<String, String> environment) throws EngineException {
        CustomProgram program;
        try {
            program = CustomProgram.check(file);
        } catch (IOException e) {
            throw new EngineException(EngineException.Kind.UNAVAILABLE, "cannot read --service " + file + ": "
                    + e.getMessage(), e);
        } catch (CustomProgramException e) {
            throw new EngineException(EngineException.Kind.UNAVAILABLE, e.getMessage(), e);
        }
        SnmpScalars agent;
        try {
            agent = SnmpScalars.open(entry.name(), AgentTargets.of(entry, inventory.credentialsOf(entry), environment));
        } catch (IllegalArgumentException | DeviceException e) {
            throw new EngineException(EngineException.Kind.UNREACHABLE, e.getMessage(), e);
        }
        try {
            return start(entry.name(), program, agent, entry.service().resolve(), net,
                    inventory.switches().stream().filter(other -> !other.name().equals(entry.name()))
                            .map(other -> other.service().resolve()).toList());
        } catch (CustomProgramException e) {
            agent.close();
            throw new EngineException(EngineException.Kind.UNAVAILABLE, e.getMessage(), e);
        } catch (IOException e) {
            agent.close();
            throw new EngineException(EngineException.Kind.UNAVAILABLE, entry.name() + ": the service's journal: "
                    + e.getMessage(), e);
        } catch (DeviceException e) {
            agent.close();
            throw new EngineException(EngineException.Kind.UNREACHABLE, e.getMessage(), e);
        } catch (TransactionAbortedException e) {
            agent.close();
            throw new EngineException(EngineException.Kind.REFUSED, entry.name() + ": the service's onCreate"
                    + " could not set the agent: " + e.getMessage(), e);
        }
    }

    /**
     * Starts serving switch {@code name} as {@link #start(String, CustomProgram, SnmpScalars,
     * InetSocketAddress, NetConfig, Collection)} does, linking to no other service at start: an
     * in-doubt transaction is asked only of the hosts this one already knows, so it usually stays
     * in doubt.
     */
    public static CustomServer start(String name, CustomProgram program, SnmpScalars agent, InetSocketAddress listen,
            NetConfig net) throws CustomProgramException, DeviceException, IOException {
        return start(name, program, agent, listen, net, List.of());
    }

    /**
     * Starts serving switch {@code name}: checks that the agent holds every {@code @snmp} object
     * with a matching type, settles what a previous run left in the journal ({@link
     * ScalarSnmpBinding#recover()}: an interrupted prepare is undone, an in-doubt one kept, and its
     * outcome asked in the background of {@code otherServices} and the hosts journaled with it; see
     * {@link InDoubtRecovery}), creates
     * the served Service (its onCreate gets {@code name} if it takes a Text), and listens at
     * {@code listen} (port 0 picks a free one). The server owns {@code agent} from here on and
     * closes it.
     *
     * @throws CustomProgramException if the program has no single served Service, or a variable's type
     *     differs from its object's (reported at the variable)
     * @throws DeviceException if the agent does not answer or lacks an object, or an interrupted
     *     transaction cannot be undone
     * @throws IOException if the journal cannot be read (the message names the file) or written
     * @throws TransactionAbortedException if onCreate set a value the agent refused
     */
    public static CustomServer start(String name, CustomProgram program, SnmpScalars agent, InetSocketAddress listen,
            NetConfig net, Collection<InetSocketAddress> otherServices)
            throws CustomProgramException, DeviceException, IOException {
        KindInfo served = program.servedService();
        checkObjects(program, served, agent);
        ScalarSnmpBinding binding = new ScalarSnmpBinding(name, agent, ScalarJournal.open(journalFile(net)),
                trialDir(net));
        binding.recover();
        NetHost host = NetHost.start(net, program.load().structs());
        TrialTimer timer = null;
        try {
            host.host().bind(CustomProgram.ANNOTATION, binding);
            ChangeGuard.install(name, host, CustomProgram.ANNOTATION, new AuditJournal(net.stateDir()),
                    Clock.systemUTC());
            boolean takesName = served.onCreate() != null && !served.onCreate().params().isEmpty();
            WaldoObject service = takesName ? program.create(served.name(), host.host(), name)
                    : program.create(served.name(), host.host());
            WaldoObject trials = program.create(CustomProgram.TRIAL, host.host());
            timer = new TrialTimer(name, host.host(), Clock.systemUTC(), new ScalarTrials(program, binding, trials));
            restorePendingTrial(program, binding, trials);
            binding.watchDeadlines(timer::checkAtDeadline);
            InetSocketAddress bound = host.listen(listen, program.factory(CustomProgram.DESK, service.ref(),
                    trials.ref()), null);
            InDoubtRecovery.start(name, host.host(), inDoubtOf(binding), InDoubtRecovery.dialing(host),
                    otherServices);
            return new CustomServer(name, host, agent, service, bound, timer);
        } catch (RuntimeException e) {
            if (timer != null) {
                timer.close();
            }
            host.close();
            throw e;
        }
    }

    /** The binding's in-doubt journal entries, as the shared {@link InDoubtRecovery} asks and ends them. */
    private static InDoubtRecovery.Participant inDoubtOf(ScalarSnmpBinding binding) {
        return new InDoubtRecovery.Participant() {
            @Override
            public List<InDoubtRecovery.InDoubt> inDoubt() {
                return binding.inDoubt().stream().map(entry -> new InDoubtRecovery.InDoubt(entry.key(),
                        entry.transactionId(), entry.peers())).toList();
            }

            @Override
            public void resolve(InDoubtRecovery.InDoubt transaction, boolean committed) throws Exception {
                binding.resolve(transaction.key(), committed);
            }
        };
    }

    /** The trial keeper takes back the trial the journal holds, so confirm and rollback find it. */
    private static void restorePendingTrial(CustomProgram program, ScalarSnmpBinding binding, WaldoObject trials) {
        TrialRecord<?> pending = binding.trial();
        if (pending.hasTrial()) {
            program.call(trials, "restore", pending.trial(), (double) pending.deadlineEpochSeconds(),
                    String.join(",", pending.switches()));
        }
    }

    /** The trial timer's view of this service: the binding's trial record, and the keeper's revert. */
    private record ScalarTrials(CustomProgram program, ScalarSnmpBinding binding, WaldoObject keeper)
            implements TrialTimer.Trials {
        @Override
        public String pending() {
            return binding.trial().trial();
        }

        @Override
        public Map<String, Boolean> undecided() {
            return binding.undecidedTrials();
        }

        @Override
        public boolean revert(String change) {
            return (Boolean) program.call(keeper, "revert", change);
        }
    }

    /**
     * Where the service journals its pending trial (the pre-image it reverts to and the deadline): a
     * directory in its host's state directory.
     */
    public static Path trialDir(NetConfig net) {
        return net.stateDir().resolve(TRIAL_DIR);
    }

    /**
     * Where the service journals the pre-images of unfinished transactions: in its host's state
     * directory, which is the service's own ({@code .waldoconf/services/NAME/net} under
     * {@code serve}), so two services never share a journal.
     */
    public static Path journalFile(NetConfig net) {
        return net.stateDir().resolve(JOURNAL_FILE);
    }

    /**
     * Reads every bound object once, so a wrong OID or type shows at start rather than in a change.
     * The OIDs come from the {@code @snmp(oid: ...)} arguments the generated class carries, the same
     * ones {@link ScalarSnmpBinding} SETs.
     */
    private static void checkObjects(CustomProgram program, KindInfo served, SnmpScalars agent)
            throws DeviceException, CustomProgramException {
        for (Variable<?> bound : program.snmpVariables(served.name())) {
            String oid = bound.annotation(CustomProgram.ANNOTATION).orElseThrow().text(CustomProgram.OID_KEY);
            ScalarValue value = agent.get(new OID(oid));
            boolean text = bound.type() == String.class;
            if (text != value instanceof ScalarValue.Text) {
                throw program.problemAt(served, bound.name(), "'" + bound.name() + "' is "
                        + (text ? "Text" : "Number") + " but the agent's " + oid + " holds "
                        + (text ? "an Integer32 (" : "an OCTET STRING (") + value + "); declare it "
                        + (text ? "Number" : "Text"));
            }
        }
    }

    /** Where operators connect. */
    public InetSocketAddress address() {
        return address;
    }

    /** The served Service, for host code in the same JVM. */
    public WaldoObject service() {
        return service;
    }

    @Override
    public String switchName() {
        return name;
    }

    @Override
    public void awaitTermination() throws InterruptedException {
        stopped.await();
    }

    /** Stops listening, leaves the network and closes the SNMP session. */
    @Override
    public void close() {
        try {
            timer.close();
            net.close();
            agent.close();
        } finally {
            stopped.countDown();
        }
    }
}
