package dev.waldoconf.lab.snmp;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.snmp4j.PDU;
import org.snmp4j.ScopedPDU;
import org.snmp4j.agent.CommandProcessor;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.VariableBinding;

/**
 * The lab side of a switch read, without sockets: the CPU one processor takes to answer the
 * GETBULK walks WaldoConf makes of a 24-port switch's VLAN configuration (dot1qPvid with 25
 * max-repetitions, dot1qVlanStaticEntry with five per VLAN plus one), SNMP4J-Agent's processing
 * against the lab's, in alternating rounds in one JVM, on one {@link InProcessAgent}, over v3
 * scoped PDUs. Counts this thread's CPU time: the processor's work, and the harness encoding and
 * decoding each response, the same for both; no sockets, no security. Not a test: run it with
 * {@code lab/bench/run-bulk.sh}.
 */
public final class BulkWalkBenchmark {
    private static final OID PVID = new OID("1.3.6.1.2.1.17.7.1.4.5.1.1");
    private static final OID STATIC_ENTRY = new OID("1.3.6.1.2.1.17.7.1.4.3.1");
    private static final int PORTS = 24;
    private static final int ROUNDS = 6;
    private static final int WALKS_PER_ROUND = 3000;
    private static final int MAX_SIZE = 65535;

    private BulkWalkBenchmark() {
    }

    /** Usage: {@code BulkWalkBenchmark [VLANS...]} (VLANs on the switch, default 4 and 32). */
    public static void main(String[] args) throws Exception {
        List<Integer> vlanCounts = args.length == 0 ? List.of(4, 32) : List.of(args).stream().map(Integer::valueOf).toList();
        String load = Files.readString(Path.of("/proc/loadavg")).trim();
        System.out.printf("BulkWalkBenchmark: %d-port switch, %d rounds of %d walks a processor, load average %s%n",
                PORTS, ROUNDS, WALKS_PER_ROUND, load);
        for (int vlans : vlanCounts) {
            measure(vlans);
        }
        System.out.printf("load average after: %s%n", Files.readString(Path.of("/proc/loadavg")).trim());
    }

    private static void measure(int vlans) {
        InProcessAgent agent = InProcessAgent.withVlans(PORTS, vlans);
        int bindings = readSwitch(agent, agent.lab(), vlans);
        if (bindings != readSwitch(agent, agent.stock(), vlans)) {
            throw new IllegalStateException("the two processors read different numbers of bindings");
        }
        long stockNs = 0;
        long labNs = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long stock = cpuNs(agent, agent.stock(), vlans);
            long lab = cpuNs(agent, agent.lab(), vlans);
            if (round > 0) {  // the first round warms both up
                stockNs += stock;
                labNs += lab;
            }
        }
        int walks = (ROUNDS - 1) * WALKS_PER_ROUND;
        System.out.printf(Locale.ROOT, "%d VLANs (%d bindings a read): SNMP4J-Agent %.1f us, lab %.1f us of CPU a read;"
                + " ratio %.2f%n", vlans, bindings, stockNs / 1000.0 / walks, labNs / 1000.0 / walks,
                (double) stockNs / labNs);
    }

    private static long cpuNs(InProcessAgent agent, CommandProcessor processor, int vlans) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < WALKS_PER_ROUND; i++) {
            readSwitch(agent, processor, vlans);
        }
        return threads.getCurrentThreadCpuTime() - start;
    }

    /** The two walks of a switch read, as WaldoConf's reader sizes them; the bindings received. */
    private static int readSwitch(InProcessAgent agent, CommandProcessor processor, int vlans) {
        return walk(agent, processor, PVID, PORTS + 1) + walk(agent, processor, STATIC_ENTRY, 5 * vlans + 1);
    }

    /** GETBULKs from {@code root} until an answer leaves it, later ones with 40 max-repetitions. */
    private static int walk(InProcessAgent agent, CommandProcessor processor, OID root, int firstRepetitions) {
        OID cursor = root;
        int repetitions = firstRepetitions;
        int received = 0;
        while (true) {
            PDU response = agent.ask(processor, bulk(cursor, repetitions), MAX_SIZE);
            repetitions = 40;
            for (VariableBinding vb : response.getVariableBindings()) {
                received++;
                if (vb.isException() || !vb.getOid().startsWith(root)) {
                    return received;
                }
                cursor = vb.getOid();
            }
        }
    }

    private static PDU bulk(OID after, int maxRepetitions) {
        ScopedPDU pdu = new ScopedPDU();
        pdu.setType(PDU.GETBULK);
        pdu.setRequestID(new Integer32(1));
        pdu.setMaxRepetitions(maxRepetitions);
        pdu.add(new VariableBinding(after));
        return pdu;
    }
}
