package dev.waldoconf.lab.snmp;

import dev.waldoconf.lab.DeviceProfile;
import dev.waldoconf.lab.control.Faults;
import dev.waldoconf.lab.control.SetGauge;
import java.util.concurrent.atomic.AtomicLong;
import org.snmp4j.CommandResponderEvent;
import org.snmp4j.PDU;
import org.snmp4j.PDUv1;
import org.snmp4j.agent.CommandProcessor;
import org.snmp4j.agent.mo.snmp.CoexistenceInfo;
import org.snmp4j.agent.security.VACM;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.OctetString;

/**
 * SNMP4J-Agent's command processor with the switch's device profile and the response-side
 * faults. The profile paces every PDU before it is processed (drops it, or holds it for its
 * processing time; see {@link DeviceProfile}); the faults delay or drop responses and make the
 * switch exit after a number of SETs. A SET whose response a fault drops is still applied, as on
 * a real switch whose reply is lost.
 *
 * <p>GET, GETNEXT and SET go through SNMP4J-Agent's processing. A GETBULK that may read the whole
 * view is answered from the switch's {@link MibView} by {@link BulkAnswer}, which gives the same
 * response without SNMP4J-Agent's cost per binding that grows with the response; any other
 * GETBULK (no access, an unknown context) gets SNMP4J-Agent's own answer.
 */
public final class FaultyCommandProcessor extends CommandProcessor {
    private final QBridgeAgent agent;
    private final LabAccessControl access;
    private final Faults faults;
    private final Runnable exitAction;
    private final DeviceProfile.Pacer pacer;
    private final AtomicLong answeredByProfile = new AtomicLong();
    private final AtomicLong droppedByProfile = new AtomicLong();
    private volatile boolean halted;
    /** The gauge counting the SET this thread is working on, until its answer leaves. */
    private final ThreadLocal<SetGauge> countingSet = new ThreadLocal<>();

    /**
     * A processor for one switch, with {@code access} as its VACM and coexistence provider.
     *
     * @param agent the switch, whose view GETBULKs read
     * @param pacer the switch's device profile, paced for this switch
     * @param exitAction what "exit" means here: halt the process, or stop an embedded switch
     */
    public FaultyCommandProcessor(byte[] engineId, QBridgeAgent agent, LabAccessControl access, Faults faults,
                                  DeviceProfile.Pacer pacer, Runnable exitAction) {
        super(new OctetString(engineId));
        this.agent = agent;
        this.access = access;
        setVacm(access);
        setCoexistenceProvider(access);
        this.faults = faults;
        this.pacer = pacer;
        this.exitAction = exitAction;
    }

    /** PDUs the device profile let through so far (processed after their delay). */
    public long answeredByProfile() {
        return answeredByProfile.get();
    }

    /** PDUs the device profile dropped so far (lost or beyond the rate limit). */
    public long droppedByProfile() {
        return droppedByProfile.get();
    }

    /** Whether the exit-after fault fired; from then on no request is processed or answered. */
    public boolean isHalted() {
        return halted;
    }

    /**
     * Runs on the transport's one listening thread, so PDUs are paced one after another, as a
     * switch's management CPU takes them.
     */
    @Override
    public <A extends Address> void processPdu(CommandResponderEvent<A> event) {
        if (halted) {
            return;
        }
        DeviceProfile.Fate fate = pacer.next(System.nanoTime());
        if (fate.outcome() != DeviceProfile.Outcome.ANSWERED) {
            droppedByProfile.incrementAndGet();
            // Consumed, so SNMP4J neither processes it nor answers it (not even with a report).
            event.setProcessed(true);
            return;
        }
        answeredByProfile.incrementAndGet();
        SetGauge gauge = faults.setGauge();
        if (gauge != null && event.getPDU() != null && event.getPDU().getType() == PDU.SET) {
            gauge.started();
            countingSet.set(gauge);
        }
        try {
            pause(fate.delayMs());
            super.processPdu(event);
        } finally {
            setEnded();  // in case no answer was sent for it
        }
    }

    /** Answers a GETBULK that may read the whole view itself; the rest as SNMP4J-Agent does. */
    @Override
    protected <A extends Address> void dispatchCommand(CommandResponderEvent<A> event, CoexistenceInfo cinfo) {
        PDU request = event.getPDU();
        if (request.getType() != PDU.GETBULK || request instanceof PDUv1 || cinfo == null
                || !access.readsEverything(getViewName(event, cinfo, VACM.VIEW_READ))) {
            super.dispatchCommand(event, cinfo);
            return;
        }
        PDU response = BulkAnswer.answer(request, agent.view(), event.getMaxSizeResponsePDU());
        if (response != null) {
            sendResponse(event, response);
        }
    }

    /** Ends the count of the SET this thread is working on, once. */
    private void setEnded() {
        SetGauge gauge = countingSet.get();
        if (gauge != null) {
            countingSet.remove();
            gauge.ended();
        }
    }

    @Override
    protected <A extends Address> void sendResponse(CommandResponderEvent<A> requestEvent, PDU response) {
        if (halted) {
            return;
        }
        boolean isSet = requestEvent.getPDU() != null && requestEvent.getPDU().getType() == PDU.SET;
        boolean exitNow = isSet && faults.countSetAndCheckExit();
        // Halt before answering, so nothing that arrives after this answer is processed.
        halted = exitNow;
        if (!faults.dropsResponse(isSet)) {
            pause(faults.delayMs());
            // Before the answer leaves: the client may send its next SET as soon as it has it.
            setEnded();
            super.sendResponse(requestEvent, response);
        }
        if (exitNow) {
            exitAction.run();
        }
    }

    private static void pause(long ms) {
        if (ms <= 0) {
            return;
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
