package dev.waldo.runtime;

import java.util.function.BooleanSupplier;

/**
 * Waits, with a generous cap, for something that other threads make true.
 * Not a timing assertion: the cap only turns a hang into a failure.
 */
final class Awaiting {
    private static final long CAP_MS = 30_000;

    private Awaiting() {
    }

    static void until(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + CAP_MS * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting until " + what);
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what);
            }
        }
    }
}
