package dev.waldoconf.lab;

import dev.waldoconf.lab.control.ControlCommands;
import dev.waldoconf.lab.control.ControlServer;
import dev.waldoconf.lab.control.Faults;
import dev.waldoconf.lab.model.StateFile;
import dev.waldoconf.lab.model.SwitchSpec;
import dev.waldoconf.lab.model.SwitchState;
import dev.waldoconf.lab.snmp.FaultyCommandProcessor;
import dev.waldoconf.lab.snmp.LabAccessControl;
import dev.waldoconf.lab.snmp.QBridgeAgent;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.Snmp;
import org.snmp4j.agent.DefaultMOServer;
import org.snmp4j.agent.DuplicateRegistrationException;
import org.snmp4j.agent.ManagedObject;
import org.snmp4j.mp.MPv1;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * One simulated Q-BRIDGE switch: an SNMP agent on a UDP port (v1, v2c and v3 USM), with its
 * configuration in an optional state file and a control interface for faults. Start it with
 * {@link #start(SwitchConfig)}; {@link #close()} stops it.
 *
 * <pre>
 * try (SimulatedSwitch sw = SimulatedSwitch.start(SwitchConfig.named("sw1"))) {
 *     InetSocketAddress snmp = sw.snmpAddress();   // e.g. 127.0.0.1:40123
 *     sw.faults().delayResponses(200);
 * }
 * </pre>
 */
public final class SimulatedSwitch implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(SimulatedSwitch.class.getName());
    private static final int MAX_ENGINE_ID_TEXT = 27;

    private final SwitchConfig config;
    private final Faults faults = new Faults();
    private final QBridgeAgent agent;
    private final StateFile stateFile;
    private final int engineBoots;
    private Snmp snmp;
    private DefaultUdpTransportMapping transport;
    private ControlServer control;
    private FaultyCommandProcessor processor;
    private volatile boolean running;

    private SimulatedSwitch(SwitchConfig config, StateFile.Snapshot snapshot) {
        this.config = config;
        this.stateFile = config.stateFile() == null ? null : new StateFile(config.stateFile());
        this.engineBoots = snapshot.engineBoots() + 1;
        this.agent = new QBridgeAgent(config.name(), config.spec(), snapshot.state(), faults, this::persist,
                bridgeAddress(config.name()));
    }

    /**
     * Starts a switch; the exit-after fault stops it (as if it crashed) rather than ending the JVM.
     *
     * @throws IOException when the state file is unreadable or a port cannot be bound; the message
     *     says which and what to do
     */
    public static SimulatedSwitch start(SwitchConfig config) throws IOException {
        return start(config, SimulatedSwitch::stopAfterExitFault);
    }

    /**
     * Starts a switch with a chosen reaction to the exit-after fault, e.g. halting the process.
     *
     * @param onExitFault runs on the SNMP thread right after the last allowed SET was answered
     */
    public static SimulatedSwitch start(SwitchConfig config, Consumer<SimulatedSwitch> onExitFault)
            throws IOException {
        StateFile.Snapshot snapshot = config.stateFile() == null
                ? new StateFile.Snapshot(SwitchState.factoryDefault(config.spec(), config.name()), 0)
                : new StateFile(config.stateFile()).load(config.spec(), config.name());
        SimulatedSwitch sw = new SimulatedSwitch(config, snapshot);
        try {
            sw.persist(snapshot.state());
            sw.listen(onExitFault);
        } catch (IOException | RuntimeException e) {
            sw.close();
            throw e;
        }
        return sw;
    }

    private void listen(Consumer<SimulatedSwitch> onExitFault) throws IOException {
        byte[] engineId = engineId(config.name());
        USM usm = new USM(securityProtocols(), new OctetString(engineId), engineBoots);
        config.users().forEach(user -> usm.addUser(user.toUsmUser()));
        MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
        dispatcher.addMessageProcessingModel(new MPv1());
        dispatcher.addMessageProcessingModel(new MPv2c());
        dispatcher.addMessageProcessingModel(new MPv3(usm));
        transport = bindUdp();
        snmp = new Snmp(dispatcher, transport);
        LabAccessControl access = new LabAccessControl(config.readCommunity(), config.writeCommunity(), engineId,
                config.users().stream().map(UsmUserSpec::name).collect(Collectors.toSet()));
        processor = new FaultyCommandProcessor(engineId, agent, access, faults, config.profile().pacer(config.name()),
                () -> onExitFault.accept(this));
        processor.addMOServer(moServer());
        snmp.addCommandResponder(processor);
        snmp.listen();
        if (config.controlPort() >= 0) {
            control = ControlServer.start(config.host(), config.controlPort(),
                    new ControlCommands(faults, this::describeState), config.name());
        }
        running = true;
    }

    private DefaultUdpTransportMapping bindUdp() throws IOException {
        InetAddress host = InetAddress.getByName(config.host());
        if (!host.isLoopbackAddress()) {
            throw new IOException("lab switches listen on loopback only, not " + config.host()
                    + "; use an address in 127.0.0.0/8");
        }
        try {
            return new DefaultUdpTransportMapping(new UdpAddress(host, config.snmpPort()), false);
        } catch (IOException e) {
            throw new IOException("cannot bind SNMP to UDP " + config.host() + ":" + config.snmpPort() + ": "
                    + e.getMessage() + "; choose another port (0 picks a free one)", e);
        }
    }

    private DefaultMOServer moServer() {
        DefaultMOServer server = new DefaultMOServer();
        for (ManagedObject<?> mo : agent.managedObjects()) {
            try {
                server.register(mo, null);
            } catch (DuplicateRegistrationException e) {
                throw new IllegalStateException("two managed objects claim the same subtree: " + mo, e);
            }
        }
        return server;
    }

    /** SHA-2 (all four) and SHA-1 authentication, AES-128/192/256 privacy. */
    private static SecurityProtocols securityProtocols() {
        SecurityProtocols protocols = new SecurityProtocols(SecurityProtocols.SecurityProtocolSet.maxCompatibility);
        protocols.addAuthenticationProtocol(new org.snmp4j.security.AuthSHA());
        protocols.addAuthenticationProtocol(new org.snmp4j.security.AuthHMAC128SHA224());
        protocols.addAuthenticationProtocol(new org.snmp4j.security.AuthHMAC192SHA256());
        protocols.addAuthenticationProtocol(new org.snmp4j.security.AuthHMAC256SHA384());
        protocols.addAuthenticationProtocol(new org.snmp4j.security.AuthHMAC384SHA512());
        protocols.addPrivacyProtocol(new org.snmp4j.security.PrivAES128());
        protocols.addPrivacyProtocol(new org.snmp4j.security.PrivAES192());
        protocols.addPrivacyProtocol(new org.snmp4j.security.PrivAES256());
        return protocols;
    }

    private void persist(SwitchState state) throws IOException {
        if (stateFile != null) {
            stateFile.save(new StateFile.Snapshot(state, engineBoots));
        }
    }

    private String describeState() {
        SwitchState state = agent.state();
        return state.summary() + " sysName=" + state.sysName();
    }

    /** The switch's name. */
    public String name() {
        return config.name();
    }

    /** The configuration it was started with. */
    public SwitchConfig config() {
        return config;
    }

    /** Port count, limits and quirk profile. */
    public SwitchSpec spec() {
        return config.spec();
    }

    /** The UDP address SNMP managers reach it at (the real port when 0 was asked for). */
    public InetSocketAddress snmpAddress() {
        UdpAddress address = transport.getListenAddress();
        return new InetSocketAddress(address.getInetAddress(), address.getPort());
    }

    /** The TCP address of the control interface, or null when it is disabled. */
    public InetSocketAddress controlAddress() {
        return control == null ? null : control.address();
    }

    /** PDUs its device profile let through to be processed so far. */
    public long pdusAnsweredByProfile() {
        return processor.answeredByProfile();
    }

    /** PDUs its device profile dropped so far (lost, or beyond its rate limit); each is a timeout to the manager. */
    public long pdusDroppedByProfile() {
        return processor.droppedByProfile();
    }

    /** The faults, to set directly in embedded use (the control interface changes the same object). */
    public Faults faults() {
        return faults;
    }

    /** The committed configuration now. */
    public SwitchState state() {
        return agent.state();
    }

    /** The SNMPv3 engine boot counter of this run (persisted in the state file). */
    public int engineBoots() {
        return engineBoots;
    }

    /** Whether it still answers (false after close or the exit-after fault). */
    public boolean isRunning() {
        return running && !processor.isHalted();
    }

    /** Stops answering and releases the ports. The state file stays for the next start. */
    @Override
    public synchronized void close() {
        running = false;
        try {
            if (control != null) {
                control.close();
            }
            if (snmp != null) {
                snmp.close();
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, config.name() + ": error while closing: " + e.getMessage());
        }
    }

    /** The embedded reaction to exit-after: stop from another thread, as the SNMP thread is the caller. */
    private static void stopAfterExitFault(SimulatedSwitch sw) {
        sw.running = false;
        Thread.ofPlatform().name("exit-fault-" + sw.name()).start(sw::close);
    }

    /** An engine ID in RFC 3411 text format, stable per name so clients keep it across restarts. */
    private static byte[] engineId(String name) {
        byte[] text = name.getBytes(StandardCharsets.UTF_8);
        return MPv3.createLocalEngineID(new OctetString(Arrays.copyOf(text, Math.min(text.length, MAX_ENGINE_ID_TEXT))));
    }

    /** A locally administered MAC address derived from the name. */
    private static byte[] bridgeAddress(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            byte[] mac = Arrays.copyOf(digest, 6);
            mac[0] = (byte) ((mac[0] & 0xfc) | 0x02);
            return mac;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }

    @Override
    public String toString() {
        return "SimulatedSwitch[" + config.name() + " snmp=" + (transport == null ? "-" : snmpAddress())
                + " control=" + controlAddress() + "]";
    }
}
