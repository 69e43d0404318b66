package dev.waldo.net.bench;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The in-memory benchmark's floor: one transaction's thread hand-offs on the runtime's
 * {@code InMemoryNetwork}, with none of Waldo's work. The network gives each host a mailbox, a
 * single-thread executor on a virtual thread; a {@code ping} is the call put into the partner's
 * mailbox, the reply put into the caller host's, and the blocked caller woken from there. This
 * does the same three hand-offs with executors of the same kind, so that Waldo's in-memory CPU
 * minus this floor's is what the host layer itself costs.
 */
final class MailboxPingPong implements AutoCloseable {
    private final ExecutorService callerHost = mailbox("floor-mailbox-a");
    private final ExecutorService partnerHost = mailbox("floor-mailbox-b");

    private static ExecutorService mailbox(String name) {
        return Executors.newSingleThreadExecutor(Thread.ofVirtual().name(name).factory());
    }

    /** One round trip: caller to the partner's mailbox, to the caller host's, back to the caller. */
    void ping() {
        CompletableFuture<Boolean> replied = new CompletableFuture<>();
        partnerHost.execute(() -> callerHost.execute(() -> replied.complete(true)));
        replied.join();
    }

    @Override
    public void close() {
        callerHost.shutdown();
        partnerHost.shutdown();
    }
}
