package dev.waldo.net.testing;

import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldo.net.PeerLink;
import dev.waldo.net.Security;
import dev.waldo.runtime.Binding;
import dev.waldo.runtime.BoundTransaction;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.DoubleSupplier;

/**
 * A host in a process of its own, driven line by line over stdin by a test
 * in another JVM. Answers start with '@' so that they stand out from logs.
 *
 * <pre>
 * listen [port]       -> @LISTENING port   (port 0 or none picks one)
 * connect port        -> @CONNECTED     (again for another partner: bump then uses the newest,
 *                                         bump-all bumps them all)
 * bump n              -> @OK total | @FAILED ExceptionName: message   (runs in the background)
 * bump-all n          -> as bump, but one transaction bumps every connected endpoint
 * state               -> @STATE count bound live ledger-commits ledger-aborts
 *                                      (live: Host.liveTransactions, which counts an attempt
 *                                       until its ledger commit or abort has run)
 * pause-prepare       -> @PAUSING       the next ledger prepare prints @PREPARED-PAUSE and waits
 * release             -> @RELEASED      lets a paused prepare vote yes
 * release-no          -> @RELEASED      lets a paused prepare vote no (printing @VOTED-NO)
 * pause-echo          -> @PAUSING       the next Bump step here prints @IN-ECHO and waits forever
 * drop                -> @DROPPED       closes the link to the partner's host
 * await-link          -> @LINKED        once a link to the partner's host is up again
 * </pre>
 * Every ledger prepare that votes yes prints @VOTED first.
 */
public final class PeerProcess {
    /** Heartbeat period of these hosts. */
    public static final long HEARTBEAT_PERIOD_MS = 300;
    /** Heartbeat timeout of these hosts: generous, because tests share a loaded machine. */
    public static final long HEARTBEAT_TIMEOUT_MS = 3_000;
    private final NetHost net;
    private volatile PeerEndpoint endpoint;
    private final List<PeerEndpoint> connected = new CopyOnWriteArrayList<>();
    private volatile boolean refuseAfterPause;
    private volatile String partnerHost;
    private volatile CountDownLatch preparePause;
    private volatile CountDownLatch pausedPrepare;
    private volatile PeerLink dropped;
    private volatile int commits;
    private volatile int aborts;

    private PeerProcess(NetConfig config) {
        net = NetHost.start(config);
        net.host().bind(PeerEndpoint.LEDGER, new Ledger());
    }

    /** Arguments: host id, state directory, {@code insecure} or {@code tls}. */
    public static void main(String[] args) throws Exception {
        NetConfig config = NetConfig.defaults(args[0], Path.of(args[1]))
                .withSecurity(args[2].equals("tls") ? Security.SELF_SIGNED : Security.INSECURE)
                .withHeartbeat(HEARTBEAT_PERIOD_MS, HEARTBEAT_TIMEOUT_MS);
        new PeerProcess(config).serve();
    }

    private static synchronized void answer(String line) {
        System.out.println("@" + line);
        System.out.flush();
    }

    private void serve() throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] words = line.trim().split(" ");
            switch (words[0]) {
                case "listen" -> answer("LISTENING " + net.listen(new InetSocketAddress("127.0.0.1",
                        words.length > 1 ? Integer.parseInt(words[1]) : 0), PeerEndpoint::create, this::accepted)
                        .getPort());
                case "connect" -> {
                    PeerEndpoint partnered = net.connect(
                            new InetSocketAddress("127.0.0.1", Integer.parseInt(words[1])), PeerEndpoint::create);
                    connected.add(partnered);
                    endpoint = partnered;
                    partnerHost = partnered.partner().host();
                    answer("CONNECTED");
                }
                case "bump" -> Thread.ofPlatform().start(() -> bump(Double.parseDouble(words[1])));
                case "bump-all" -> {
                    PeerFanout fanout = new PeerFanout(net.host(), connected);
                    Thread.ofPlatform().start(() -> report(() -> fanout.bumpAll(Double.parseDouble(words[1]))));
                }
                case "state" -> answer("STATE " + endpoint.count.committed() + " " + endpoint.bound.committed()
                        + " " + net.host().liveTransactions() + " " + commits + " " + aborts);
                case "pause-prepare" -> {
                    preparePause = new CountDownLatch(1);
                    answer("PAUSING");
                }
                case "release", "release-no" -> {
                    refuseAfterPause = words[0].equals("release-no");
                    // Answered before the prepare goes on, so that @RELEASED always comes before
                    // what the released prepare prints (@VOTED-NO, or a transaction's @OK).
                    answer("RELEASED");
                    pausedPrepare.countDown();
                }
                case "pause-echo" -> {
                    endpoint.beforeEcho = PeerProcess::hang;
                    answer("PAUSING");
                }
                case "drop" -> {
                    dropped = net.transport().link(partnerHost);
                    dropped.close("test drops the idle connection");
                    answer("DROPPED");
                }
                case "await-link" -> awaitLink();
                default -> answer("UNKNOWN " + line);
            }
        }
        net.close();
    }

    private void accepted(PeerEndpoint accepted) {
        endpoint = accepted;
        partnerHost = accepted.partner().host();
    }

    private void bump(double by) {
        report(() -> endpoint.bump(by));
    }

    private static void report(DoubleSupplier transaction) {
        try {
            answer("OK " + transaction.getAsDouble());
        } catch (RuntimeException e) {
            answer("FAILED " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static void hang() {
        answer("IN-ECHO");
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitLink() throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            PeerLink link = net.transport().link(partnerHost);
            if (link != null && link != dropped && link.isActive()) {
                answer("LINKED");
                return;
            }
            Thread.sleep(50);
        }
        answer("NOT-LINKED");
    }

    /** A binding that counts outcomes and can hold a prepare back. */
    private final class Ledger implements Binding {
        @Override
        public Vote prepare(BoundTransaction transaction) throws InterruptedException {
            CountDownLatch pause = preparePause;
            if (pause != null) {
                preparePause = null;
                pausedPrepare = pause;
                answer("PREPARED-PAUSE");
                pause.await();
                if (refuseAfterPause) {
                    answer("VOTED-NO");
                    return Vote.no("the test refused this prepare");
                }
            }
            answer("VOTED");
            return Vote.yes();
        }

        @Override
        public void commit(BoundTransaction transaction) {
            commits++;
        }

        @Override
        public void abort(BoundTransaction transaction) {
            aborts++;
        }
    }
}
