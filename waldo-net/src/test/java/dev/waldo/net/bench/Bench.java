package dev.waldo.net.bench;

import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldo.net.Security;
import dev.waldo.net.TrafficCounter;
import dev.waldo.net.testing.PeerEndpoint;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import io.netty.channel.EventLoopGroup;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * The paper's microbenchmarks (Waldo, §6.1) between two JVM processes on
 * loopback, each beside its physical floor measured in the same run: a raw
 * Netty ping-pong of the same message size between the same two processes,
 * its runs alternating with Waldo's so that both meet the same machine load.
 * Writes a Markdown report; {@code bench/run.sh} runs it.
 *
 * <p>System properties: {@code bench.latencyTx} (30000), {@code bench.runs} (10),
 * {@code bench.threads} (16), {@code bench.throughputTx} (20000), {@code bench.warmupTx} (10000).
 *
 * <p>Every operation is warmed up before its first measured run, serially and then under the
 * throughput runs' concurrency until the JIT is quiet and the rate settles ({@link #warmUp}): the
 * first setting measured otherwise pays the JIT's compilations in its latency and CPU figures (measured
 * first, TLS off once cost 312 µs of CPU per transaction, and 80 µs measured again after TLS on).
 */
public final class Bench {
    private static final int LATENCY_TX = Integer.getInteger("bench.latencyTx", 30_000);
    private static final int RUNS = Integer.getInteger("bench.runs", 10);
    private static final int THREADS = Integer.getInteger("bench.threads", 16);
    private static final int THROUGHPUT_TX = Integer.getInteger("bench.throughputTx", 20_000);
    private static final int WARMUP_TX = Integer.getInteger("bench.warmupTx", 10_000);
    /** The most concurrent warm-up rounds an operation gets, warm or not. */
    private static final int MAX_WARMUP_ROUNDS = 20;
    /** Warm-up goes on while the JIT compiles for more than this fraction of a round's time. */
    private static final double JIT_QUIET = 0.02;
    /** Warm-up ends when a round's rate is within this fraction of the round before. */
    private static final double SETTLED = 0.10;
    /** Messages in one two-step transaction: call, reply, prepare, vote, commit, ack. */
    private static final int MESSAGES_PER_TX = 4; // call+prepare, reply+vote, commit, ack

    private Bench() {
    }

    /** One operation a caller thread repeats: a Waldo transaction or a floor round trip. */
    private interface Operation {
        void run();
    }

    /** Per-run latency statistics, in microseconds. */
    record Latency(double min, double avg, double p50, double p99, double max) {
        static Latency of(Histogram h) {
            return new Latency(h.getMinValue() / 1e3, h.getMean() / 1e3, h.getValueAtPercentile(50) / 1e3,
                    h.getValueAtPercentile(99) / 1e3, h.getMaxValue() / 1e3);
        }
    }

    /**
     * Everything measured for one security setting.
     *
     * @param bytesPerTx bytes on the wire per transaction in the serial latency runs
     * @param loadedBytesPerTx the same during the throughput runs, where concurrent transactions share flushes
     * @param cpuPerTxUs CPU time of both processes per transaction during the throughput runs, microseconds
     * @param floorCpuPerRoundTripUs the same per round trip during the floor's throughput runs
     */
    record Results(String name, List<Latency> waldo, List<Latency> floor, Latency waldoAll, Latency floorAll,
                   List<Double> waldoRate, List<Double> floorRate, double bytesPerTx, double loadedBytesPerTx,
                   double cpuPerTxUs, double floorCpuPerRoundTripUs, int floorPayload) {
    }

    /** CPU time used so far by this process and the benchmark server (if any), in nanoseconds. */
    private static long cpuNanos(Process server) {
        long serverNanos = server == null ? 0
                : server.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
        return ownCpuNanos() + serverNanos;
    }

    /** CPU time used so far by this process, in nanoseconds. */
    private static long ownCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    public static void main(String[] args) throws Exception {
        Path report = Path.of(args.length > 0 ? args[0] : "bench/RESULTS.md");
        Process server = startServer();
        try {
            int[] ports = readPorts(server);
            List<Results> results = new ArrayList<>();
            results.add(measure("TLS off", false, ports[0], ports[2], -1, server));
            // The TLS floor carries the same plaintext frames as the TLS-off floor.
            results.add(measure("TLS on", true, ports[1], ports[3], results.getFirst().floorPayload(), server));
            Results inMemory = measureInMemory();
            String markdown = Report.render(results, inMemory, LATENCY_TX, RUNS, THREADS, THROUGHPUT_TX);
            Files.createDirectories(report.toAbsolutePath().getParent());
            Files.writeString(report, markdown);
            System.out.println(markdown);
        } finally {
            server.getOutputStream().close();
            server.destroy();
        }
    }

    private static Process startServer() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                BenchServer.class.getName()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static int[] readPorts(Process server) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith("PORTS ")) {
                String[] words = line.split(" ");
                Thread.ofVirtual().start(() -> drain(out));
                return new int[] {Integer.parseInt(words[1]), Integer.parseInt(words[2]),
                        Integer.parseInt(words[3]), Integer.parseInt(words[4])};
            }
        }
        throw new IllegalStateException("benchmark server ended before announcing its ports");
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // The server's log lines: not needed, but the pipe must not fill up.
            }
        } catch (java.io.IOException e) {
            // The server ended.
        }
    }

    /**
     * The same workload between two hosts of one JVM on the runtime's InMemoryNetwork: what the
     * runtime costs without any network, to tell transport costs from host-layer costs. Its floor
     * is {@link MailboxPingPong}: the network's three hand-offs for one transaction (the call into
     * the partner's mailbox, the reply into the caller host's, the blocked caller woken) with no
     * Waldo work, alternating with Waldo's runs like the network floors.
     */
    private static Results measureInMemory() throws InterruptedException {
        try (InMemoryNetwork network = new InMemoryNetwork(); MailboxPingPong mailboxes = new MailboxPingPong()) {
            Host a = Host.inMemory(network, "a");
            Host b = Host.inMemory(network, "b");
            PeerEndpoint endpoint = a.connect(PeerEndpoint::create, b, PeerEndpoint::create).local();
            Operation transaction = endpoint::ping;
            Operation roundTrip = mailboxes::ping;
            warmUp("in-memory", transaction);
            warmUp("in-memory floor", roundTrip);
            LatencyRuns latency = latencyRuns("in-memory", transaction, roundTrip, null);
            RateRuns rates = throughputRuns("in-memory", transaction, roundTrip, null, null);
            return new Results("in-memory", latency.waldo(), latency.floor(), Latency.of(latency.waldoAll()),
                    Latency.of(latency.floorAll()), rates.waldo(), rates.floor(), 0, 0, rates.cpuPerTxUs(),
                    rates.floorCpuPerRoundTripUs(), 0);
        }
    }

    private static Results measure(String name, boolean tls, int waldoPort, int echoPort, int floorPayload,
                                   Process server) throws Exception {
        Path state = Files.createTempDirectory("waldo-bench-client");
        NetConfig config = NetConfig.defaults(tls ? "bench-client-tls" : "bench-client", state);
        config = tls ? config.withSecurity(Security.SELF_SIGNED) : config.insecure();
        try (NetHost host = NetHost.start(config)) {
            PeerEndpoint endpoint = host.connect(new InetSocketAddress("127.0.0.1", waldoPort), PeerEndpoint::create);
            Operation transaction = endpoint::ping;
            TrafficCounter traffic = host.transport().traffic();
            long warmupBytes = bytes(traffic);
            serial(transaction, WARMUP_TX);
            int payload = floorPayload > 0 ? floorPayload
                    : (int) Math.round((bytes(traffic) - warmupBytes) / (double) WARMUP_TX / MESSAGES_PER_TX);
            EventLoopGroup group = Sockets.group();
            try (PingPongClient floor = new PingPongClient(group, Sockets.socket(),
                    tls ? Sockets.clientTls() : null, echoPort, payload)) {
                Operation roundTrip = floor::ping;
                warmUp(name, transaction);
                warmUp(name + " floor", roundTrip);
                LatencyRuns latency = latencyRuns(name, transaction, roundTrip, traffic);
                RateRuns rates = throughputRuns(name, transaction, roundTrip, traffic, server);
                return new Results(name, latency.waldo(), latency.floor(), Latency.of(latency.waldoAll()),
                        Latency.of(latency.floorAll()), rates.waldo(), rates.floor(), latency.bytesPerTx(),
                        rates.bytesPerTx(), rates.cpuPerTxUs(), rates.floorCpuPerRoundTripUs(), payload);
            } finally {
                group.shutdownGracefully();
            }
        }
    }

    /** Bytes read plus written so far; 0 without a network. */
    private static long bytes(TrafficCounter traffic) {
        return traffic == null ? 0 : traffic.bytesRead() + traffic.bytesWritten();
    }

    /** Latency runs of Waldo and of the floor, and Waldo's bytes on the wire per transaction during its runs. */
    private record LatencyRuns(List<Latency> waldo, List<Latency> floor, Histogram waldoAll, Histogram floorAll,
                               double bytesPerTx) {
    }

    /** Throughput runs of Waldo and of the floor, Waldo's bytes and CPU per transaction, the floor's CPU per round trip. */
    private record RateRuns(List<Double> waldo, List<Double> floor, double bytesPerTx, double cpuPerTxUs,
                            double floorCpuPerRoundTripUs) {
    }

    /**
     * Waldo's and the floor's latency runs, alternating, so that each pair
     * meets the same load from whatever else runs on the shared machine.
     */
    private static LatencyRuns latencyRuns(String name, Operation transaction, Operation roundTrip,
                                           TrafficCounter traffic) {
        List<Latency> waldo = new ArrayList<>();
        List<Latency> floor = new ArrayList<>();
        Histogram waldoAll = new Histogram(3);
        Histogram floorAll = new Histogram(3);
        long waldoBytes = 0;
        for (int run = 1; run <= RUNS; run++) {
            long before = bytes(traffic);
            waldo.add(latencyRun(transaction, waldoAll));
            waldoBytes += bytes(traffic) - before;
            floor.add(latencyRun(roundTrip, floorAll));
            log(String.format(Locale.ROOT, "%s latency run %d: p50 %.1f us, floor %.1f us", name, run,
                    waldo.getLast().p50(), floor.getLast().p50()));
        }
        return new LatencyRuns(waldo, floor, waldoAll, floorAll, waldoBytes / ((double) LATENCY_TX * RUNS));
    }

    /** Waldo's and the floor's throughput runs, alternating like the latency runs. */
    private static RateRuns throughputRuns(String name, Operation transaction, Operation roundTrip,
                                           TrafficCounter traffic, Process server) throws InterruptedException {
        List<Double> waldo = new ArrayList<>();
        List<Double> floor = new ArrayList<>();
        long waldoBytes = 0;
        long waldoCpuNanos = 0;
        long floorCpuNanos = 0;
        for (int run = 1; run <= RUNS; run++) {
            long bytesBefore = bytes(traffic);
            long cpuBefore = cpuNanos(server);
            waldo.add(throughputRun(transaction));
            long cpuBetween = cpuNanos(server);
            waldoCpuNanos += cpuBetween - cpuBefore;
            waldoBytes += bytes(traffic) - bytesBefore;
            floor.add(throughputRun(roundTrip));
            floorCpuNanos += cpuNanos(server) - cpuBetween;
            log(String.format(Locale.ROOT, "%s throughput run %d: %.0f tx/s, floor %.0f round trips/s", name, run,
                    waldo.getLast(), floor.getLast()));
        }
        double operations = (double) THROUGHPUT_TX * RUNS;
        return new RateRuns(waldo, floor, waldoBytes / operations, waldoCpuNanos / 1e3 / operations,
                floorCpuNanos / 1e3 / operations);
    }

    /**
     * Runs {@code operation} {@link #WARMUP_TX} times serially, then in throughput rounds until the
     * JIT is quiet (it compiled for at most {@link #JIT_QUIET} of a round's time) and the rate has
     * settled (within {@link #SETTLED} of the round before), at most {@link #MAX_WARMUP_ROUNDS}
     * rounds: the first setting measured would otherwise pay for compiling the code every setting shares.
     */
    private static void warmUp(String name, Operation operation) throws InterruptedException {
        serial(operation, WARMUP_TX);
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        double last = 0;
        for (int round = 1; round <= MAX_WARMUP_ROUNDS; round++) {
            long compilingBefore = jit.getTotalCompilationTime();
            long start = System.nanoTime();
            double rate = throughputRun(operation);
            double compiling = (jit.getTotalCompilationTime() - compilingBefore) * 1e6 / (System.nanoTime() - start);
            boolean settled = compiling <= JIT_QUIET && Math.abs(rate - last) <= SETTLED * last;
            last = rate;
            if (settled) {
                log(String.format(Locale.ROOT, "%s: warm after %d rounds (%.0f/s)", name, round, rate));
                return;
            }
        }
        log(String.format(Locale.ROOT, "%s: still not warm after %d rounds (%.0f/s)", name, MAX_WARMUP_ROUNDS, last));
    }

    private static void serial(Operation operation, int count) {
        for (int i = 0; i < count; i++) {
            operation.run();
        }
    }

    /** One latency run of {@code operation}, added to {@code all} too. */
    private static Latency latencyRun(Operation operation, Histogram all) {
        Histogram histogram = new Histogram(3);
        for (int i = 0; i < LATENCY_TX; i++) {
            long start = System.nanoTime();
            operation.run();
            histogram.recordValue(System.nanoTime() - start);
        }
        all.add(histogram);
        return Latency.of(histogram);
    }

    /** {@code THROUGHPUT_TX} operations on {@code THREADS} threads; returns operations per second. */
    private static double throughputRun(Operation operation) throws InterruptedException {
        AtomicInteger left = new AtomicInteger(THROUGHPUT_TX);
        CountDownLatch done = new CountDownLatch(THREADS);
        long start = System.nanoTime();
        for (int t = 0; t < THREADS; t++) {
            Thread.ofPlatform().start(() -> {
                while (left.getAndDecrement() > 0) {
                    operation.run();
                }
                done.countDown();
            });
        }
        done.await();
        return THROUGHPUT_TX / ((System.nanoTime() - start) / 1e9);
    }

    private static void log(String line) {
        System.err.println(line);
    }
}
