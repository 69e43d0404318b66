package dev.waldoconf.custom;

import dev.waldo.compiler.check.KindInfo;
import dev.waldo.net.NetConfig;
import dev.waldo.net.NetNode;
import dev.waldo.runtime.EndpointFactory;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldo.runtime.Variable;
import dev.waldo.runtime.WaldoObject;
import dev.waldoconf.config.AgentTargets;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.engine.EngineException;
import dev.waldoconf.service.DeviceJournal;
import dev.waldoconf.service.DeviceService;
import dev.waldoconf.service.InDoubtRecovery;
import dev.waldoconf.service.SwitchServer;
import dev.waldoconf.service.TrialRecord;
import dev.waldoconf.snmp.PreImage;
import dev.waldoconf.snmp.ScalarOidAdapter;
import dev.waldoconf.snmp.ScalarValue;
import dev.waldoconf.snmp.SnmpScalars;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.snmp4j.smi.OID;

/**
 * An operator's own .wld device service, as {@code waldoconf serve --service my.wld|system-group
 * --switch NAME} mounts it on the one {@link SwitchServer}: the program's served Service (see
 * {@link CustomProgram#servedService()}), its {@code @snmp} variables bound to the switch's SNMP
 * agent through the one {@link DeviceService} with a {@link ScalarOidAdapter} (journaling into the
 * {@link DeviceJournal} at {@link #journalFile}). Each operator that connects gets a
 * {@value CustomProgram#DESK} that hands out the served Service. Beside the served Service runs the
 * shipped {@value CustomProgram#TRIAL}, which keeps the agent's pending trial; the service's
 * {@link dev.waldoconf.service.TrialTimer} reverts it at its deadline, after a restart too. Server,
 * binding, journal, trial timer and in-doubt recovery are the ones the VLAN service uses; what is
 * particular here is the program (the served Service and its trial keeper) and its checks.
 */
public final class CustomService {
    private CustomService() {
    }

    /**
     * Starts serving switch {@code entry} of {@code inventory} with the custom service in
     * {@code file}, the way {@code waldoconf serve} does.
     *
     * @param net how the host talks to operators; its state dir holds the TLS key and pinned peers
     * @param node the site agent's node the host lives on, or null for a node of its own
     * @param environment where {@code {env: NAME}} secrets come from
     * @throws EngineException UNAVAILABLE when the file cannot be read or breaks the rules (the message
     *     has every problem as file:line:col) or the journal is damaged (the message names it),
     *     UNREACHABLE when the agent cannot be used or an interrupted change cannot be undone on it,
     *     REFUSED when the service's onCreate set a value the agent refused
     */
    public static SwitchServer serve(Path file, Inventory inventory, SwitchEntry entry, NetConfig net, NetNode node,
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
            return serve(entry.name(), program, agent, entry.service().resolve(), net,
                    InDoubtRecovery.othersIn(inventory, entry.name()), node);
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
     * Starts serving switch {@code name} as {@link #serve(String, CustomProgram, SnmpScalars,
     * InetSocketAddress, NetConfig, Collection, NetNode)} does, linking to no other service at start: an
     * in-doubt transaction is asked only of the hosts this one already knows, so it usually stays
     * in doubt.
     */
    public static SwitchServer serve(String name, CustomProgram program, SnmpScalars agent, InetSocketAddress listen,
            NetConfig net) throws CustomProgramException, DeviceException, IOException {
        return serve(name, program, agent, listen, net, List.of(), null);
    }

    /**
     * Starts serving switch {@code name}: checks that the agent holds every {@code @snmp} object
     * with a matching type, settles what a previous run left in the journal ({@link
     * dev.waldoconf.service.DeviceBinding#recover()}: an interrupted prepare is undone, an in-doubt one kept, and its
     * outcome asked in the background of the peers the runtime logged with it, linking to {@code otherServices}; see
     * {@link InDoubtRecovery}), creates
     * the served Service (its onCreate gets {@code name} if it takes a Text), and listens at
     * {@code listen} (port 0 picks a free one) on {@code node} (a site agent's; null: a node of its
     * own). The server owns {@code agent} from here on and closes it.
     *
     * @throws CustomProgramException if the program has no single served Service, or a variable's type
     *     differs from its object's (reported at the variable)
     * @throws DeviceException if the agent does not answer or lacks an object, or an interrupted
     *     transaction cannot be undone
     * @throws IOException if the journal cannot be read (the message names the file) or written
     * @throws TransactionAbortedException if onCreate set a value the agent refused
     */
    public static SwitchServer serve(String name, CustomProgram program, SnmpScalars agent, InetSocketAddress listen,
            NetConfig net, Collection<InDoubtRecovery.Peer> otherServices, NetNode node)
            throws CustomProgramException, DeviceException, IOException {
        KindInfo served = program.servedService();
        checkObjects(program, served, agent);
        return SwitchServer.start(name, net, program.load().structs(), listen, Clock.systemUTC(), otherServices, node,
                host -> DeviceService.<List<PreImage>, Served>mount(name, host, new ScalarOidAdapter(name, agent),
                        journalFile(net).getParent(), Clock.systemUTC(),
                        (h, binding) -> Served.create(name, program, served, h), agent));
    }

    /**
     * The program's Waldo objects on the service's host: the served Service (its onCreate gets the
     * switch's name if it takes a Text) and the shipped trial keeper beside it.
     */
    private record Served(CustomProgram program, WaldoObject service, WaldoObject trials)
            implements DeviceService.Program<List<PreImage>> {
        static Served create(String name, CustomProgram program, KindInfo served, Host host) {
            boolean takesName = served.onCreate() != null && !served.onCreate().params().isEmpty();
            WaldoObject service = takesName ? program.create(served.name(), host, name)
                    : program.create(served.name(), host);
            return new Served(program, service, program.create(CustomProgram.TRIAL, host));
        }

        @Override
        public EndpointFactory<?> desk() {
            return program.factory(CustomProgram.DESK, service.ref(), trials.ref());
        }

        /** The trial keeper takes back the pending trial the journal holds, so confirm and rollback find it. */
        @Override
        public void restore(TrialRecord<List<PreImage>> committed) {
            if (committed != null) {
                committed.onlyTrial().ifPresent(trial -> program.call(trials, "restore", trial.change(),
                        (double) trial.deadlineEpochSeconds(), String.join(",", trial.switches())));
            }
        }

        @Override
        public boolean revert(String change) {
            return (Boolean) program.call(trials, "revert", change);
        }
    }

    /**
     * Where the service keeps its {@link DeviceJournal} (undo data of unfinished transactions, the
     * pending trial): in its host's state directory, which is the service's own ({@code
     * .waldoconf/services/NAME/net} under {@code serve}), so two services never share a journal.
     */
    public static Path journalFile(NetConfig net) {
        return net.stateDir().resolve(DeviceJournal.FILE);
    }

    /**
     * Reads every bound object once, so a wrong OID or type shows at start rather than in a change.
     * The OIDs come from the {@code @snmp(oid: ...)} arguments the generated class carries, the same
     * ones {@link ScalarOidAdapter} SETs.
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
}
