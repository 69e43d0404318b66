package dev.waldoconf.lab.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.snmp4j.PDU;
import org.snmp4j.ScopedPDU;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.Null;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.SMIConstants;
import org.snmp4j.smi.VariableBinding;

/**
 * The lab's GETBULK answer ({@link BulkAnswer} behind {@link FaultyCommandProcessor}) against
 * SNMP4J-Agent's own processing of the same requests on the same managed objects: the same
 * bindings, error status and index, or no response from either.
 */
class BulkAnswerTest {
    private static final int NO_LIMIT = 65535;
    private static final OID STATIC_ENTRY = new OID("1.3.6.1.2.1.17.7.1.4.3.1");
    private static final OID PVID = new OID("1.3.6.1.2.1.17.7.1.4.5.1.1");
    private static final OID SYS_UP_TIME_0 = new OID("1.3.6.1.2.1.1.3.0");
    /** Start OIDs: before, inside, between and after the switch's subtrees and tables. */
    private static final List<OID> STARTS = List.of(new OID("0.0"), new OID("1.3"), new OID("1.3.6.1.2.1.1"),
            new OID("1.3.6.1.2.1.1.3.0"), new OID("1.3.6.1.2.1.1.9"), new OID("1.3.6.1.2.1.2.2.1.2.7"),
            new OID("1.3.6.1.2.1.3"), new OID("1.3.6.1.2.1.17"), new OID("1.3.6.1.2.1.17.1.4.1.2.24"),
            STATIC_ENTRY, new OID("1.3.6.1.2.1.17.7.1.4.3.1.1.5"), new OID("1.3.6.1.2.1.17.7.1.4.3.1.4.4294967295"),
            new OID("1.3.6.1.2.1.17.7.1.4.2.1.2.0"), PVID, new OID("1.3.6.1.2.1.17.7.1.4.5.1.1.23"),
            new OID("1.3.6.1.2.1.17.7.1.4.5.1.3.24"), new OID("1.3.6.1.2.1.17.7.1.4.5.1.3.24.1"),
            new OID("1.3.6.1.2.1.18"), new OID("2.1"), new OID("1.3.6.1.2.1.17.4294967295"));

    private static InProcessAgent switch24;

    @BeforeAll
    static void startAgent() throws InterruptedException {
        switch24 = InProcessAgent.withVlans(24, 6);
        // sysUpTime's encoding grows by one octet at 128 cs; wait until it has, so that both
        // processors' answers have the same length wherever they include it.
        while (switch24.agent().view().upTimeCs() < 128) {
            Thread.sleep(20);
        }
    }

    @Test
    void theLabAnswersAGetBulkFromItsViewWithoutSnmp4jsLookups() {
        long before = switch24.lookups();
        switch24.ask(switch24.lab(), bulk(0, 31, STATIC_ENTRY), NO_LIMIT);
        assertThat(switch24.lookups()).isEqualTo(before);
        switch24.ask(switch24.stock(), bulk(0, 31, STATIC_ENTRY), NO_LIMIT);
        assertThat(switch24.lookups()).isGreaterThan(before);
    }

    @Test
    void aGetBulkInAContextTheSwitchLacksGetsSnmp4jsAuthorizationError() {
        ScopedPDU request = scoped(bulk(0, 5, STATIC_ENTRY));
        request.setContextName(new OctetString("vlan-7"));
        PDU answer = compare(request, NO_LIMIT);
        assertThat(answer.getErrorStatus()).as(answer.toString()).isEqualTo(PDU.authorizationError);
    }

    @Test
    void aWalkOfTheVlanTableIsTheStockOne() {
        PDU lab = compare(bulk(0, 31, STATIC_ENTRY), NO_LIMIT);
        assertThat(lab.size()).isEqualTo(31);
        assertThat(lab.get(0).getOid()).isEqualTo(new OID(STATIC_ENTRY).append(1).append(1));
        assertThat(lab.get(5).getOid()).isEqualTo(new OID(STATIC_ENTRY).append(1).append(6));
        assertThat(lab.get(6).getOid()).isEqualTo(new OID(STATIC_ENTRY).append(2).append(1));
    }

    @Test
    void nonRepeatersAreAnsweredOnceAndRepeatersRowByRow() {
        PDU lab = compare(bulk(2, 3, SYS_UP_TIME_0, PVID, STATIC_ENTRY, new OID(PVID).append(22)), NO_LIMIT);
        assertThat(oids(lab)).containsExactly(new OID("1.3.6.1.2.1.1.4.0"), new OID(PVID).append(1),
                new OID(STATIC_ENTRY).append(1).append(1), new OID(PVID).append(23),
                new OID(STATIC_ENTRY).append(1).append(2), new OID(PVID).append(24),
                new OID(STATIC_ENTRY).append(1).append(3), new OID("1.3.6.1.2.1.17.7.1.4.5.1.2.1"));
    }

    @Test
    void pastTheEndEachRepeaterAnswersEndOfMibViewAndTheRowAfterAllDidIsNotSent() {
        OID lastPvid = new OID("1.3.6.1.2.1.17.7.1.4.5.1.3.24");
        PDU lab = compare(bulk(0, 10, new OID("1.3.6.1.2.1.17.7.1.4.5.1.3.22"), lastPvid), NO_LIMIT);
        assertThat(lab.size()).isEqualTo(6);
        assertThat(lab.get(1).getSyntax()).isEqualTo(SMIConstants.EXCEPTION_END_OF_MIB_VIEW);
        assertThat(lab.get(1).getOid()).isEqualTo(lastPvid);
        assertThat(lab.get(2).getOid()).isEqualTo(lastPvid);
        assertThat(lab.get(4).getSyntax()).isEqualTo(SMIConstants.EXCEPTION_END_OF_MIB_VIEW);
        assertThat(lab.get(5).getSyntax()).isEqualTo(SMIConstants.EXCEPTION_END_OF_MIB_VIEW);
    }

    @Test
    void noRepetitionsAnswersTheNonRepeatersOnly() {
        assertThat(oids(compare(bulk(1, 0, PVID, STATIC_ENTRY), NO_LIMIT))).containsExactly(new OID(PVID).append(1));
        assertThat(compare(bulk(0, 0, PVID, STATIC_ENTRY), NO_LIMIT).size()).isZero();
        assertThat(compare(bulk(-3, -1, PVID, STATIC_ENTRY), NO_LIMIT).size()).isZero();
        assertThat(compare(bulk(7, 5, PVID, STATIC_ENTRY), NO_LIMIT).size()).isEqualTo(2);
    }

    @Test
    void aWalkOfTheWholeViewWithMoreRepetitionsThanSnmp4jAllowsEndsAtEndOfMibView() {
        PDU lab = compare(bulk(0, 40_000, new OID("1.3")), NO_LIMIT);
        List<? extends VariableBinding> bindings = lab.getVariableBindings();
        assertThat(bindings.subList(0, bindings.size() - 1)).hasSizeGreaterThan(250).noneMatch(VariableBinding::isException);
        assertThat(bindings.get(bindings.size() - 1).getSyntax()).isEqualTo(SMIConstants.EXCEPTION_END_OF_MIB_VIEW);
    }

    /** Every limit from one too small for any binding to one that holds the whole answer. */
    @Test
    void aResponseOverTheSizeLimitLosesBindingsFromItsEndOnly() {
        for (int limit = 20; limit <= 2000; limit++) {
            PDU lab = compare(bulk(0, 60, STATIC_ENTRY), limit);
            if (lab != null) {
                assertThat(lab.getBERLength()).as("limit %d", limit).isLessThanOrEqualTo(limit);
            }
            compare(bulk(2, 40, SYS_UP_TIME_0, PVID, STATIC_ENTRY, new OID("1.3.6.1.2.1.2.2.1.3")), limit);
            compare(scoped(bulk(0, 60, PVID)), limit);
        }
        assertThat(compare(bulk(0, 60, STATIC_ENTRY), 700).size()).isBetween(2, 59);
    }

    @Test
    void whenTheFirstRowDoesNotFitNeitherAnswers() {
        PDU request = bulk(0, 5, STATIC_ENTRY, new OID(STATIC_ENTRY).append(2), new OID(STATIC_ENTRY).append(4));
        assertThat(compare(request, 80)).isNull();
    }

    @Test
    void requestsWithValuesInTheirBindingsAreSizedWithThem() {
        PDU request = bulk(0, 4, STATIC_ENTRY, PVID);
        request.set(1, new VariableBinding(PVID, new OctetString(new byte[300])));
        for (int limit = 300; limit <= 500; limit++) {
            compare(request, limit);
        }
    }

    @Test
    void seededRandomRequestsGetTheStockAnswer() {
        Random random = new Random(20261128);
        int[] limits = {NO_LIMIT, 1472, 484, 300, 120, 60};
        for (int i = 0; i < 600; i++) {
            int size = random.nextInt(5);
            OID[] oids = new OID[size];
            for (int j = 0; j < size; j++) {
                oids[j] = STARTS.get(random.nextInt(STARTS.size()));
            }
            int nonRepeaters = random.nextInt(size + 3) - 1;
            int maxRepetitions = random.nextInt(10) == 0 ? 40_000 : random.nextInt(120) - 2;
            PDU request = bulk(nonRepeaters, maxRepetitions, oids);
            int limit = random.nextInt(4) == 0 ? 40 + random.nextInt(3000) : limits[random.nextInt(limits.length)];
            compare(random.nextBoolean() ? scoped(request) : request, limit);
        }
    }

    /**
     * Asks both processors; asserts the same answer (sysUpTime's value aside, which moves between
     * the two) and returns the lab's.
     */
    private static PDU compare(PDU request, int maxSize) {
        PDU stock = switch24.ask(switch24.stock(), InProcessAgent.copy(request), maxSize);
        PDU lab = switch24.ask(switch24.lab(), InProcessAgent.copy(request), maxSize);
        String what = request + " with a limit of " + maxSize + " octets";
        if (stock == null) {
            assertThat(lab).as(what).isNull();
            return null;
        }
        assertThat(lab).as(what).isNotNull();
        assertThat(lab.getType()).as(what).isEqualTo(PDU.RESPONSE);
        assertThat(lab.getErrorStatus()).as(what).isEqualTo(stock.getErrorStatus());
        assertThat(lab.getErrorIndex()).as(what).isEqualTo(stock.getErrorIndex());
        assertThat(lab.getRequestID()).as(what).isEqualTo(stock.getRequestID());
        assertThat(lab.getClass()).as(what).isEqualTo(stock.getClass());
        assertThat(comparable(lab)).as(what).isEqualTo(comparable(stock));
        return lab;
    }

    private static List<VariableBinding> comparable(PDU pdu) {
        List<VariableBinding> bindings = new ArrayList<>();
        for (VariableBinding vb : pdu.getVariableBindings()) {
            boolean upTime = vb.getOid().equals(SYS_UP_TIME_0) && !vb.isException();
            bindings.add(upTime ? new VariableBinding(vb.getOid(), Null.instance) : vb);
        }
        return bindings;
    }

    private static List<OID> oids(PDU pdu) {
        return pdu.getVariableBindings().stream().map(VariableBinding::getOid).toList();
    }

    private static PDU bulk(int nonRepeaters, int maxRepetitions, OID... oids) {
        PDU pdu = new PDU();
        pdu.setType(PDU.GETBULK);
        pdu.setRequestID(new Integer32(4711));
        pdu.setNonRepeaters(nonRepeaters);
        pdu.setMaxRepetitions(maxRepetitions);
        for (OID oid : oids) {
            pdu.add(new VariableBinding(oid));
        }
        return pdu;
    }

    private static ScopedPDU scoped(PDU pdu) {
        ScopedPDU scoped = new ScopedPDU();
        scoped.setType(pdu.getType());
        scoped.setRequestID(pdu.getRequestID());
        scoped.setNonRepeaters(pdu.getNonRepeaters());
        scoped.setMaxRepetitions(pdu.getMaxRepetitions());
        scoped.addAll(pdu.getVariableBindings());
        return scoped;
    }
}
