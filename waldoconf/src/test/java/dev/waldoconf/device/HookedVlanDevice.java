package dev.waldoconf.device;

import dev.waldoconf.model.SwitchState;
import java.util.function.UnaryOperator;

/**
 * An in-memory switch with hooks around its reads and pushes, for tests: a hook that throws
 * stands for a switch that does not answer, one that runs an action lets a test act mid-prepare,
 * and one after a push stands for a connection lost once the SETs landed.
 */
public final class HookedVlanDevice implements VlanDevice {
    /** Runs around a read or push; a DeviceException it throws is what the caller gets. */
    @FunctionalInterface
    public interface Hook {
        /** Runs the hook. */
        void run() throws DeviceException;
    }

    private static final Hook NONE = () -> { };

    private final MemoryVlanDevice memory;
    private volatile Hook beforeRead = NONE;
    private volatile Hook beforePush = NONE;
    private volatile Hook afterPush = NONE;

    /** A switch that behaves as {@code memory} until a hook is set. */
    public HookedVlanDevice(MemoryVlanDevice memory) {
        this.memory = memory;
    }

    /** The switch behind the hooks, for changes made behind the service's back. */
    public MemoryVlanDevice memory() {
        return memory;
    }

    /** Runs {@code hook} before every later read. */
    public HookedVlanDevice beforeRead(Hook hook) {
        beforeRead = hook;
        return this;
    }

    /** Runs {@code hook} before every later push. */
    public HookedVlanDevice beforePush(Hook hook) {
        beforePush = hook;
        return this;
    }

    /** Runs {@code hook} after every later push has landed. */
    public HookedVlanDevice afterPush(Hook hook) {
        afterPush = hook;
        return this;
    }

    @Override
    public String name() {
        return memory.name();
    }

    @Override
    public SwitchState read() throws DeviceException {
        beforeRead.run();
        return memory.read();
    }

    @Override
    public SwitchState push(UnaryOperator<SwitchState> target) throws DeviceException {
        beforePush.run();
        SwitchState held = memory.push(target);
        afterPush.run();
        return held;
    }

    @Override
    public void close() {
        memory.close();
    }
}
