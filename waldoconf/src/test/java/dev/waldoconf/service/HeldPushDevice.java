package dev.waldoconf.service;

import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.VlanDevice;
import dev.waldoconf.model.SwitchState;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A switch whose pushes can be held: once {@link #holdPushes()} is called, the next push waits
 * (before it touches the switch) until {@link #release()}, so a test can act while a transaction
 * is inside its prepare, as during a slow SNMP push. Reads are never held.
 */
final class HeldPushDevice implements VlanDevice {
    private final VlanDevice device;
    private final AtomicInteger pushes = new AtomicInteger();
    private volatile CountDownLatch started = new CountDownLatch(1);
    private volatile CountDownLatch released;

    HeldPushDevice(VlanDevice device) {
        this.device = device;
    }

    /** Holds the next pushes until {@link #release()}. */
    void holdPushes() {
        started = new CountDownLatch(1);
        released = new CountDownLatch(1);
    }

    /** Lets held pushes go on, and the later ones through. */
    void release() {
        CountDownLatch held = released;
        released = null;
        if (held != null) {
            held.countDown();
        }
    }

    /** Waits (at most 30 s, else fails) until a held push has started. */
    void awaitPushStarted() throws InterruptedException {
        if (!started.await(30, TimeUnit.SECONDS)) {
            throw new AssertionError(device.name() + ": no push started within 30 s");
        }
    }

    /** How many pushes reached the switch. */
    int pushes() {
        return pushes.get();
    }

    @Override
    public String name() {
        return device.name();
    }

    @Override
    public SwitchState read() throws DeviceException {
        return device.read();
    }

    @Override
    public SwitchState push(UnaryOperator<SwitchState> target) throws DeviceException {
        CountDownLatch held = released;
        if (held != null) {
            started.countDown();
            try {
                if (!held.await(60, TimeUnit.SECONDS)) {
                    throw new DeviceException(device.name() + ": the test never released the held push", false);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DeviceException(device.name() + ": interrupted while the push was held", false);
            }
        }
        pushes.incrementAndGet();
        return device.push(target);
    }

    @Override
    public void close() {
        device.close();
    }
}
