package dev.waldoconf.lab.snmp;

import dev.waldoconf.lab.DeviceProfile;
import dev.waldoconf.lab.control.Faults;
import dev.waldoconf.lab.model.PortColumn;
import dev.waldoconf.lab.model.PortSet;
import dev.waldoconf.lab.model.RowStatus;
import dev.waldoconf.lab.model.SwitchSpec;
import dev.waldoconf.lab.model.SwitchState;
import dev.waldoconf.lab.model.VlanRow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.snmp4j.CommandResponderEvent;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.PDU;
import org.snmp4j.ScopedPDU;
import org.snmp4j.agent.CommandProcessor;
import org.snmp4j.agent.DefaultMOServer;
import org.snmp4j.agent.DuplicateRegistrationException;
import org.snmp4j.agent.MOQuery;
import org.snmp4j.agent.MOServerLookupEvent;
import org.snmp4j.agent.ManagedObject;
import org.snmp4j.agent.mo.lock.LockRequest;
import org.snmp4j.asn1.BERInputStream;
import org.snmp4j.asn1.BEROutputStream;
import org.snmp4j.mp.MPv3;
import org.snmp4j.mp.MessageProcessingModel;
import org.snmp4j.mp.PduHandle;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.mp.StateReference;
import org.snmp4j.mp.StatusInformation;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityModel;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.VariableBinding;

/**
 * One lab switch's agent without sockets, for comparing the lab's command processor with
 * SNMP4J-Agent's own on the same managed objects: a request goes to a processor as the event a
 * v2c or v3 message would make, and the response the processor hands its dispatcher is caught.
 */
final class InProcessAgent {
    static final String READ_COMMUNITY = "public";
    static final String USER = "waldo";
    private static final byte[] ENGINE_ID = MPv3.createLocalEngineID(new OctetString("in-process"));
    private static final UdpAddress PEER = new UdpAddress("127.0.0.1/40000");

    private final QBridgeAgent agent;
    private final LabAccessControl access;
    private final CountingServer server = new CountingServer();
    private final CommandProcessor stock;
    private final CommandProcessor lab;
    private final CatchingDispatcher dispatcher = new CatchingDispatcher();

    /** A switch as {@code spec} describes it, holding {@code state}. */
    InProcessAgent(SwitchSpec spec, SwitchState state) {
        agent = new QBridgeAgent("in-process", spec, state, new Faults(), saved -> { }, new byte[] {2, 0, 0, 0, 0, 1});
        access = new LabAccessControl(READ_COMMUNITY, "private", ENGINE_ID, Set.of(USER));
        for (ManagedObject<?> mo : agent.managedObjects()) {
            try {
                server.register(mo, null);
            } catch (DuplicateRegistrationException e) {
                throw new IllegalStateException(e);
            }
        }
        stock = new CommandProcessor(new OctetString(ENGINE_ID));
        stock.setVacm(access);
        stock.setCoexistenceProvider(access);
        stock.addMOServer(server);
        lab = new FaultyCommandProcessor(ENGINE_ID, agent, access, new Faults(), DeviceProfile.FAST.pacer("in-process"),
                () -> { });
        lab.addMOServer(server);
    }

    /**
     * The factory-default switch of {@code ports} ports with VLANs 2 to {@code vlans} added, each
     * named, with a few tagged and untagged ports, as an apply leaves them.
     */
    static InProcessAgent withVlans(int ports, int vlans) {
        SwitchSpec spec = SwitchSpec.defaults().withPortCount(ports);
        SwitchState state = SwitchState.factoryDefault(spec, "in-process");
        for (int v = 2; v <= vlans; v++) {
            state = state.withVlan(VlanRow.created(v, RowStatus.ACTIVE, 100L * v).withName("vlan-" + v)
                    .withPorts(PortColumn.EGRESS, PortSet.of(1, 2, v % ports + 1))
                    .withPorts(PortColumn.UNTAGGED, PortSet.of(v % ports + 1)));
        }
        return new InProcessAgent(spec, state);
    }

    QBridgeAgent agent() {
        return agent;
    }

    /** How many managed-object lookups the processors made in the server so far. */
    long lookups() {
        return server.lookups;
    }

    /** SNMP4J-Agent's processor, answering from the same managed objects. */
    CommandProcessor stock() {
        return stock;
    }

    /** The lab's processor, as a switch runs it (fast profile, no faults). */
    CommandProcessor lab() {
        return lab;
    }

    /**
     * What {@code processor} answers to {@code request}, sent over v2c with the read community when
     * it is a plain PDU and as the v3 user when it is a {@link ScopedPDU}, from a manager that
     * accepts responses of {@code maxSize} octets; null when it sends no response.
     */
    PDU ask(CommandProcessor processor, PDU request, int maxSize) {
        boolean v3 = request instanceof ScopedPDU;
        if (v3) {
            ((ScopedPDU) request).setContextEngineID(new OctetString(ENGINE_ID));
        }
        byte[] securityName = (v3 ? USER : READ_COMMUNITY).getBytes(StandardCharsets.UTF_8);
        CommandResponderEvent<UdpAddress> event = new CommandResponderEvent<>(dispatcher, null, PEER,
                v3 ? MessageProcessingModel.MPv3 : MessageProcessingModel.MPv2c,
                v3 ? SecurityModel.SECURITY_MODEL_USM : SecurityModel.SECURITY_MODEL_SNMPv2c, securityName,
                v3 ? SecurityLevel.AUTH_PRIV : SecurityLevel.NOAUTH_NOPRIV, new PduHandle(1), request, maxSize,
                new StateReference<>());
        dispatcher.caught = null;
        processor.processPdu(event);
        return dispatcher.caught;
    }

    /** A copy of {@code pdu} with copies of its bindings, since processing changes the request. */
    static PDU copy(PDU pdu) {
        PDU copy = new PDU();
        if (pdu instanceof ScopedPDU scoped) {
            ScopedPDU scopedCopy = new ScopedPDU();
            scopedCopy.setContextName(scoped.getContextName());
            copy = scopedCopy;
        }
        copy.setType(pdu.getType());
        copy.setRequestID(pdu.getRequestID());
        copy.setNonRepeaters(pdu.getNonRepeaters());
        copy.setMaxRepetitions(pdu.getMaxRepetitions());
        for (VariableBinding vb : pdu.getVariableBindings()) {
            copy.add(new VariableBinding(vb.getOid(), vb.getVariable()));
        }
        return copy;
    }

    /** A server that counts the lookups SNMP4J-Agent's processing makes in it. */
    private static final class CountingServer extends DefaultMOServer {
        long lookups;

        @Override
        public <MO extends ManagedObject<?>> MO lookup(MOQuery query, LockRequest lockRequest,
                MOServerLookupEvent lookupEvent, Class<MO> managedObjectType) {
            lookups++;
            return super.lookup(query, lockRequest, lookupEvent, managedObjectType);
        }
    }

    /**
     * Keeps the response a processor hands over instead of sending it: its BER encoding, decoded
     * again, as the manager would get it. (SNMP4J-Agent goes on changing the PDU object after it
     * handed it over: releasing a GETBULK's sub-requests appends repetitions to it.)
     */
    private static final class CatchingDispatcher extends MessageDispatcherImpl {
        PDU caught;

        @Override
        public <A extends Address> int returnResponsePdu(int messageProcessingModel, int securityModel,
                byte[] securityName, int securityLevel, PDU pdu, int maxSizeResponseScopedPDU,
                StateReference<A> stateReference, StatusInformation statusInformation) {
            caught = asSent(pdu);
            return SnmpConstants.SNMP_MP_OK;
        }

        private static PDU asSent(PDU pdu) {
            try {
                BEROutputStream out = new BEROutputStream(ByteBuffer.allocate(pdu.getBERLength()));
                pdu.encodeBER(out);
                PDU decoded = pdu instanceof ScopedPDU ? new ScopedPDU() : new PDU();
                decoded.decodeBER(new BERInputStream(ByteBuffer.wrap(out.getBuffer().array())));
                return decoded;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot encode the response " + pdu, e);
            }
        }
    }
}
