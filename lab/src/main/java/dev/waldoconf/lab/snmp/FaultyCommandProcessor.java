package dev.waldoconf.lab.snmp;

import dev.waldoconf.lab.control.Faults;
import org.snmp4j.CommandResponderEvent;
import org.snmp4j.PDU;
import org.snmp4j.agent.CommandProcessor;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.OctetString;

/**
 * SNMP4J-Agent's command processor with the response-side faults: delayed, dropped, and the
 * exit after a number of SETs. Request processing itself is unchanged, so a SET whose response
 * is dropped is still applied, as on a real switch whose reply is lost.
 */
public final class FaultyCommandProcessor extends CommandProcessor {
    private final Faults faults;
    private final Runnable exitAction;
    private volatile boolean halted;

    /**
     * A processor for one switch.
     *
     * @param exitAction what "exit" means here: halt the process, or stop an embedded switch
     */
    public FaultyCommandProcessor(byte[] engineId, Faults faults, Runnable exitAction) {
        super(new OctetString(engineId));
        this.faults = faults;
        this.exitAction = exitAction;
    }

    /** Whether the exit-after fault fired; from then on no request is processed or answered. */
    public boolean isHalted() {
        return halted;
    }

    @Override
    public <A extends Address> void processPdu(CommandResponderEvent<A> event) {
        if (!halted) {
            super.processPdu(event);
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
