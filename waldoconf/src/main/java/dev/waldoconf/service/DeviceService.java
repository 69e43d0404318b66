package dev.waldoconf.service;

import dev.waldo.runtime.EndpointFactory;
import dev.waldo.runtime.Host;
import dev.waldoconf.device.DeviceException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One device service on a host, whatever its device and program: the program's Waldo objects,
 * bound to the device through the one {@link DeviceBinding} (over the program's
 * {@link DeviceAdapter}), with its durable {@link DeviceJournal} and a {@link TrialTimer} that
 * reverts a pending trial at its deadline, after a restart too and without any peer. What a
 * previous run left in the journal is settled at mount; a transaction it left in doubt is ended as
 * its peers say ({@link #inDoubt()}, driven by {@link InDoubtRecovery}), and only then does the
 * program take back the committed state. {@link SwitchServer} mounts it on a networked host; tests
 * and in-process tools {@link #start} it on an in-memory one.
 *
 * @param <S> the adapter's undo data
 * @param <P> the program's Java side
 */
public final class DeviceService<S, P extends DeviceService.Program<S>> implements SwitchServer.Mounted {
    /** The annotation of the variables the binding mirrors onto the device, in every program. */
    public static final String ANNOTATION = "snmp";
    private static final Logger LOG = LoggerFactory.getLogger(DeviceService.class);

    private final String name;
    private final DeviceBinding<S> binding;
    private final P program;
    private final TrialTimer timer;
    private final AutoCloseable device;

    /**
     * The Java side of a Waldo program served on a device: its Waldo objects on one host.
     *
     * @param <S> the adapter's undo data
     */
    public interface Program<S> {
        /** What each operator that connects gets. */
        EndpointFactory<?> desk();

        /**
         * Makes the program's Waldo objects hold {@code committed} (the journal's committed record,
         * null if the service never committed anything), in one transaction: at start, and once the
         * transactions a previous run left in doubt are ended.
         *
         * @throws DeviceException if the device cannot be read where the program needs it
         * @throws IOException if the journal cannot be written
         */
        void restore(TrialRecord<S> committed) throws DeviceException, IOException;

        /**
         * Reverts trial {@code change} as one transaction.
         *
         * @return whether it was still pending and is now reverted
         */
        boolean revert(String change);
    }

    /** Creates a program's Waldo objects on a host whose binding is already in place. */
    @FunctionalInterface
    public interface Creator<S, P extends Program<S>> {
        /**
         * Creates the program on {@code host}; its transactions reach the device through {@code binding}.
         *
         * @throws DeviceException if the device refused what the program's creation set
         */
        P create(Host host, DeviceBinding<S> binding) throws DeviceException;
    }

    private DeviceService(String name, DeviceBinding<S> binding, P program, TrialTimer timer, AutoCloseable device) {
        this.name = name;
        this.binding = binding;
        this.program = program;
        this.timer = timer;
        this.device = device;
    }

    /**
     * Puts the service for switch {@code name} on {@code host}: opens the journal in
     * {@code journalDir} and settles it ({@link DeviceBinding#recover()}), binds the device,
     * creates the program, and, unless a transaction is in doubt, has it take back the committed
     * state; then watches trial deadlines and pays owed undos at every recheck.
     *
     * @param device closed with the service (the adapter's device), or a no-op when its owner closes it
     * @throws IOException if the journal cannot be read or written, or is of an earlier version
     * @throws DeviceException if the device cannot be read or put back where start needs it
     */
    public static <S, P extends Program<S>> DeviceService<S, P> mount(String name, Host host,
            DeviceAdapter<S> adapter, Path journalDir, Clock clock, Creator<S, P> creator, AutoCloseable device)
            throws IOException, DeviceException {
        DeviceBinding<S> binding = new DeviceBinding<>(adapter, DeviceJournal.open(journalDir, adapter.format()));
        binding.recover();
        host.bind(ANNOTATION, binding);
        P program = creator.create(host, binding);
        TrialTimer timer = new TrialTimer(name, host, clock, new Trials<>(binding, program));
        DeviceService<S, P> service = new DeviceService<>(name, binding, program, timer, device);
        try {
            if (binding.inDoubt().isEmpty()) {
                program.restore(binding.committed());
            } else {
                LOG.warn("{}: a transaction was being decided when the service stopped; asking its peers for the"
                        + " outcome before the device is used again", name);
            }
            binding.watchDeadlines(timer::checkAtDeadline);
            timer.everyRecheck(service::payOwedUndos);
            return service;
        } catch (IOException | DeviceException | RuntimeException e) {
            timer.close();
            throw e;
        }
    }

    /**
     * Mounts the service as {@link #mount} does and recovers a transaction its previous run left in
     * doubt through a host that reaches every other host without dialing (an in-memory network).
     * The caller keeps the device and closes it.
     */
    public static <S, P extends Program<S>> DeviceService<S, P> start(String name, Host host,
            DeviceAdapter<S> adapter, Path journalDir, Clock clock, Creator<S, P> creator)
            throws IOException, DeviceException {
        DeviceService<S, P> started = mount(name, host, adapter, journalDir, clock, creator, () -> { });
        InDoubtRecovery.start(name, host, started.inDoubt(), InDoubtRecovery.NO_DIALING, List.of());
        return started;
    }

    /** The switch's name. */
    public String name() {
        return name;
    }

    /** The program's Java side. */
    public P program() {
        return program;
    }

    @Override
    public String annotation() {
        return ANNOTATION;
    }

    @Override
    public EndpointFactory<?> desk() {
        return program.desk();
    }

    /**
     * The transactions the previous run left in doubt; once all are ended, the program takes back
     * the committed state.
     */
    @Override
    public InDoubtRecovery.Participant inDoubt() {
        return new InDoubtRecovery.Participant() {
            @Override
            public List<InDoubtRecovery.InDoubt> inDoubt() {
                return binding.inDoubt().stream().map(entry -> new InDoubtRecovery.InDoubt(entry.key(),
                        DeviceBinding.transactionId(entry.key()))).toList();
            }

            @Override
            public void resolve(InDoubtRecovery.InDoubt transaction, boolean committed) throws Exception {
                binding.resolve(transaction.key(), committed);
                if (binding.inDoubt().isEmpty()) {
                    program.restore(binding.committed());
                }
            }
        };
    }

    private void payOwedUndos() {
        String owed = binding.reconcile();
        if (owed != null) {
            LOG.warn("{}", owed);
        }
    }

    /**
     * Stops the trial timer and the binding (which waits for its device work in progress to end),
     * and closes the device if the service owns it.
     */
    @Override
    public void close() {
        timer.close();
        binding.close();
        try {
            device.close();
        } catch (Exception e) {
            LOG.warn("{}: closing the device failed: {}", name, e.toString());
        }
    }

    /** The timer's view of a service: the binding's trial and undecided transactions, the program's revert. */
    private record Trials<S>(DeviceBinding<S> binding, Program<S> program) implements TrialTimer.Trials {
        @Override
        public Set<String> pending() {
            TrialRecord<S> committed = binding.committed();
            return committed == null ? Set.of()
                    : committed.pending().stream().map(TrialRecord.Trial::change).collect(Collectors.toSet());
        }

        @Override
        public Map<String, Boolean> undecided() {
            return binding.undecided();
        }

        @Override
        public boolean revert(String change) {
            return program.revert(change);
        }
    }
}
