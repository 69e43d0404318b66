package dev.waldo.net;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A listener that records link events for tests to wait on. */
final class RecordingListener implements LinkListener {
    final BlockingQueue<PeerLink> ups = new LinkedBlockingQueue<>();
    final BlockingQueue<Object> messages = new LinkedBlockingQueue<>();
    final BlockingQueue<String> downs = new LinkedBlockingQueue<>();
    final List<PeerLink> active = new CopyOnWriteArrayList<>();

    @Override
    public void linkUp(PeerLink link) {
        active.add(link);
        ups.add(link);
    }

    @Override
    public void message(PeerLink link, Object message) {
        messages.add(message);
    }

    @Override
    public void linkDown(PeerLink link, String reason) {
        active.remove(link);
        downs.add(link.hostId() + ": " + reason);
    }

    /** The next link up, waiting at most 10 s; fails the test when none came. */
    PeerLink nextUp() throws InterruptedException {
        return require(ups.poll(10, TimeUnit.SECONDS), "link up");
    }

    /** The next link-down reason, waiting at most 10 s. */
    String nextDown() throws InterruptedException {
        return require(downs.poll(10, TimeUnit.SECONDS), "link down");
    }

    /** The next message, waiting at most 10 s. */
    Object nextMessage() throws InterruptedException {
        return require(messages.poll(10, TimeUnit.SECONDS), "message");
    }

    private static <T> T require(T value, String what) {
        if (value == null) {
            throw new AssertionError("no " + what + " within 10 s");
        }
        return value;
    }
}
