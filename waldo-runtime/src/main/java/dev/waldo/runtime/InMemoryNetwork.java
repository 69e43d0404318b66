package dev.waldo.runtime;

import dev.waldo.runtime.core.Envelope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Connects hosts of one JVM through in-memory message queues. Tests use it to
 * cut links between hosts ({@link #cut}, {@link #heal}) and to fail hosts
 * ({@link Host#close}).
 *
 * <p>Each host has one mailbox thread that delivers its messages, link events
 * and ticks in order, so messages on a link arrive in the order sent. A cut
 * drops messages sent after it; the link-down event is queued behind the
 * messages already in the mailbox.
 */
public final class InMemoryNetwork implements AutoCloseable {
    private static final long TICK_MS = 20;
    /**
     * How long an unhurried message ({@link Envelope#unhurried()}) may wait for a message to the
     * same host to travel with: a commit or an acknowledgement nothing waits for soon.
     */
    static final long PIGGYBACK_MICROS = 1_000;

    private final Map<String, Integer> numbers = new HashMap<>();
    private final List<Port> ports = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Set<Set<Integer>> cutLinks = new HashSet<>();
    private final ScheduledExecutorService ticker;

    /** Creates an empty network. */
    public InMemoryNetwork() {
        ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "waldo-ticker");
            thread.setDaemon(true);
            return thread;
        });
        ticker.scheduleAtFixedRate(this::tickAll, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    }

    /** Joins host {@code hostId} to the network and returns its transport. */
    synchronized Transport attach(String hostId) {
        if (numbers.containsKey(hostId)) {
            throw new IllegalArgumentException("host id '" + hostId + "' is already on this network");
        }
        Port port = new Port(ports.size() + 1, hostId);
        numbers.put(hostId, port.number);
        ports.add(port);
        return port;
    }

    /** Cuts the link between two hosts: messages between them are dropped and both see the link go down. */
    public void cut(String hostA, String hostB) {
        Port a = port(hostA);
        Port b = port(hostB);
        synchronized (this) {
            if (!cutLinks.add(Set.of(a.number, b.number))) {
                return;
            }
        }
        a.deliver(receiver -> receiver.onLinkDown(b.number));
        b.deliver(receiver -> receiver.onLinkDown(a.number));
    }

    /** Restores a link cut by {@link #cut}. */
    public void heal(String hostA, String hostB) {
        Port a = port(hostA);
        Port b = port(hostB);
        synchronized (this) {
            if (!cutLinks.remove(Set.of(a.number, b.number))) {
                return;
            }
        }
        a.deliver(receiver -> receiver.onLinkUp(b.number));
        b.deliver(receiver -> receiver.onLinkUp(a.number));
    }

    /** Stops every host on the network. */
    @Override
    public void close() {
        List<Port> all;
        synchronized (this) {
            all = List.copyOf(ports);
        }
        for (Port port : all) {
            port.close();
        }
        ticker.shutdownNow();
    }

    private synchronized Port port(String hostId) {
        Integer number = numbers.get(hostId);
        if (number == null) {
            throw new IllegalArgumentException("no host '" + hostId + "' on this network");
        }
        return ports.get(number - 1);
    }

    private synchronized boolean linked(int from, int to) {
        Port target = ports.get(to - 1);
        return !target.leaving && !ports.get(from - 1).leaving && (from == to || !cutLinks.contains(Set.of(from, to)));
    }

    private void tickAll() {
        List<Port> all;
        synchronized (this) {
            all = List.copyOf(ports);
        }
        for (Port port : all) {
            port.deliver(Transport.Receiver::onTick);
        }
    }

    /** One host's end of the network. */
    private final class Port implements Transport {
        final int number;
        final String hostId;
        final ExecutorService mailbox;
        volatile Receiver receiver;
        /** Set when the host starts leaving: nothing is sent to or from it any more. */
        volatile boolean leaving;
        /** Set once the host's own link-down events are delivered: its mailbox goes quiet. */
        volatile boolean closed;
        /** Unhurried messages waiting for a message to the same host, by host; guards the sends. */
        private final Map<Integer, List<Envelope>> held = new HashMap<>();
        private boolean flushScheduled;

        Port(int number, String hostId) {
            this.number = number;
            this.hostId = hostId;
            this.mailbox = Executors.newSingleThreadExecutor(Thread.ofVirtual().name("waldo-mailbox-" + hostId).factory());
        }

        void deliver(java.util.function.Consumer<Receiver> event) {
            Receiver target = receiver;
            if (target == null || closed) {
                return;
            }
            try {
                mailbox.execute(() -> {
                    if (!closed) {
                        event.accept(target);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException stopped) {
                // The host closed between the check and the hand-over; the event no longer matters.
            }
        }

        @Override
        public int localHost() {
            return number;
        }

        @Override
        public int hostNumber(String id) {
            synchronized (InMemoryNetwork.this) {
                return numbers.getOrDefault(id, -1);
            }
        }

        @Override
        public String hostId(int host) {
            synchronized (InMemoryNetwork.this) {
                return host >= 1 && host <= ports.size() ? ports.get(host - 1).hostId : "#" + host;
            }
        }

        @Override
        public void start(Receiver receiver) {
            this.receiver = receiver;
        }

        /**
         * Sends at once, with whatever unhurried messages to the same host wait (one mailbox
         * task for them all, in the order sent), or, for an unhurried message, holds it until
         * then or until {@link #PIGGYBACK_MICROS} passed.
         */
        @Override
        public void send(Envelope envelope) {
            synchronized (held) {
                if (envelope.unhurried()) {
                    held.computeIfAbsent(envelope.to(), to -> new ArrayList<>()).add(envelope);
                    if (!flushScheduled) {
                        flushScheduled = true;
                        try {
                            ticker.schedule(this::flushHeld, PIGGYBACK_MICROS, TimeUnit.MICROSECONDS);
                        } catch (java.util.concurrent.RejectedExecutionException closed) {
                            held.clear(); // the network closed: nothing is delivered any more
                        }
                    }
                    return;
                }
                List<Envelope> batch = held.remove(envelope.to());
                if (batch == null) {
                    deliverTo(envelope.to(), List.of(envelope));
                } else {
                    batch.add(envelope);
                    deliverTo(envelope.to(), batch);
                }
            }
        }

        /** The piggyback delay passed: unhurried messages still held leave on their own. */
        private void flushHeld() {
            synchronized (held) {
                flushScheduled = false;
                held.forEach(this::deliverTo);
                held.clear();
            }
        }

        /** Puts messages to one host in its mailbox as one task, if the link is up. Holds {@code held}. */
        private void deliverTo(int to, List<Envelope> batch) {
            if (linked(number, to)) {
                ports.get(to - 1).deliver(target -> {
                    for (Envelope envelope : batch) {
                        target.onMessage(envelope);
                    }
                });
            }
        }

        @Override
        public void close() {
            List<Port> others;
            synchronized (InMemoryNetwork.this) {
                if (leaving) {
                    return;
                }
                leaving = true;
                others = List.copyOf(ports);
            }
            for (Port other : others) {
                if (other != this) {
                    other.deliver(target -> target.onLinkDown(number));
                    deliver(target -> target.onLinkDown(other.number));
                }
            }
            deliver(target -> closed = true);
            mailbox.shutdown();
        }
    }
}
