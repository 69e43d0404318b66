package dev.waldoconf.lab.snmp;

import java.util.Map;
import org.snmp4j.PDU;
import org.snmp4j.agent.request.SnmpRequest;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.SMIConstants;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;

/**
 * The response to one GETBULK (RFC 3416 §4.2.3), read in one pass from a switch's {@link MibView}.
 *
 * <p>SNMP4J-Agent 3.8 answers a GETBULK one binding at a time, and before adding each repetition
 * it computes the whole response's BER length again ({@code SnmpSubRequestIterator.hasNext}), so
 * a response of n bindings costs about n² binding encodings: 8 % of a 1,000-switch lab's CPU
 * during an apply. This class gives the answer SNMP4J-Agent gives for the switch's managed
 * objects, rule for rule, keeping the response's length as a running sum:
 * <ul>
 *   <li>non-repeaters and max-repetitions as {@link SnmpRequest} corrects them: negative values
 *       count as 0, non-repeaters as at most the request's size, max-repetitions as at most
 *       {@link SnmpRequest#getMaxRepetitionsLimit()} and at most a sixth of the response size
 *       limit;</li>
 *   <li>each non-repeater answered with the next instance, or endOfMibView at its own OID, and
 *       never held back by the size limit;</li>
 *   <li>repetitions row by row, each binding the instance after the binding above it, or
 *       endOfMibView at that binding's OID; no row after one that is endOfMibView throughout;</li>
 *   <li>no further binding once the response is as long as the size limit or longer. The response
 *       may then be one binding over the limit: the command processor's {@code sendResponse}
 *       removes bindings from the end until it fits, for this response as for SNMP4J-Agent's.</li>
 * </ul>
 * Until the first row is answered, the response holds the request's own bindings in its place, as
 * SNMP4J-Agent's does, so the size limit is judged on the same length. When the first row does not
 * fit, SNMP4J-Agent sends no response at all; {@link #answer} returns null then.
 */
final class BulkAnswer {
    /**
     * How much longer a response's encoding can be than its empty encoding plus its bindings':
     * three enclosing sequences (binding list, PDU, scoped PDU) whose length fields grow from 1 to
     * at most 5 octets each.
     */
    static final int MAX_LENGTH_FIELD_GROWTH = 3 * 4;

    private final PDU request;
    private final MibView view;
    private final int maxSize;
    private final PDU response;
    private final int emptyLength;
    private int bindingsLength;

    private BulkAnswer(PDU request, MibView view, int maxSize) {
        this.request = request;
        this.view = view;
        this.maxSize = maxSize;
        this.response = (PDU) request.clone();
        response.clear();
        response.setType(PDU.RESPONSE);
        response.setRequestID(request.getRequestID());
        response.setErrorStatus(PDU.noError);
        response.setErrorIndex(0);
        this.emptyLength = response.getBERLength();
    }

    /**
     * The response to {@code request}, a GETBULK, with at most {@code maxSize} octets as the
     * request's message allows, before the processor trims it; null when SNMP4J-Agent would send
     * no response (the first row does not fit).
     */
    static PDU answer(PDU request, MibView view, int maxSize) {
        return new BulkAnswer(request, view, maxSize).run();
    }

    private PDU run() {
        int size = request.size();
        int nonRepeaters = Math.min(Math.max(request.getNonRepeaters(), 0), size);
        int repeaters = size - nonRepeaters;
        int maxRepetitions = limitedRepetitions(Math.max(request.getMaxRepetitions(), 0), maxSize);
        int placed = maxRepetitions > 0 ? size : nonRepeaters;
        for (int i = 0; i < placed; i++) {
            add(request.get(i));
        }
        for (int i = 0; i < nonRepeaters; i++) {
            replace(i, next(request.get(i).getOid()));
        }
        if (repeaters == 0 || maxRepetitions == 0) {
            return response;
        }
        int end = nonRepeaters + maxRepetitions * repeaters;
        for (int cell = nonRepeaters; cell < end; cell++) {
            boolean firstRow = cell < size;
            if (!firstRow && (cell - nonRepeaters) % repeaters == 0 && endsView(cell - repeaters, repeaters)) {
                break;
            }
            if (!isShorterThanLimit()) {
                return firstRow ? null : response;
            }
            OID above = response.get(firstRow ? cell : cell - repeaters).getOid();
            if (firstRow) {
                replace(cell, next(above));
            } else {
                add(next(above));
            }
        }
        return response;
    }

    /** SnmpRequest's limit: at most its configured limit, and at least 6 octets a repetition. */
    private static int limitedRepetitions(int asked, int maxSize) {
        int limited = Math.min(asked, SnmpRequest.getMaxRepetitionsLimit());
        return limited * 6 > maxSize ? maxSize / 6 : limited;
    }

    /** Whether the row of {@code count} bindings from {@code first} is endOfMibView throughout. */
    private boolean endsView(int first, int count) {
        for (int i = first; i < first + count; i++) {
            if (response.get(i).getSyntax() != SMIConstants.EXCEPTION_END_OF_MIB_VIEW) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the response's encoding is shorter than the limit. The running sum decides while the
     * length fields' growth cannot matter; near the limit the PDU measures itself.
     */
    private boolean isShorterThanLimit() {
        long bound = (long) emptyLength + bindingsLength + MAX_LENGTH_FIELD_GROWTH;
        return bound < maxSize || response.getBERLength() < maxSize;
    }

    private VariableBinding next(OID after) {
        Map.Entry<OID, Variable> entry = view.next(after, false, null);
        return entry == null ? new VariableBinding(after, Null.endOfMibView)
                : new VariableBinding(entry.getKey(), entry.getValue());
    }

    private void add(VariableBinding vb) {
        response.add(vb);
        bindingsLength += vb.getBERLength();
    }

    private void replace(int index, VariableBinding vb) {
        bindingsLength += vb.getBERLength() - response.get(index).getBERLength();
        response.set(index, vb);
    }
}
