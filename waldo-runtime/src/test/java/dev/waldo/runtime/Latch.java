package dev.waldo.runtime;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A one-shot gate for scenario tests, with a cap that turns a hang into a failure. */
final class Latch {
    private final CountDownLatch latch = new CountDownLatch(1);
    private final String name;

    Latch(String name) {
        this.name = name;
    }

    void open() {
        latch.countDown();
    }

    boolean isOpen() {
        return latch.getCount() == 0;
    }

    void await() {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("gave up waiting for " + name);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + name);
        }
    }

    static <T> T get(java.util.concurrent.Future<T> future) {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new AssertionError(e.getCause());
        } catch (Exception e) {
            throw new AssertionError("gave up waiting for a transaction", e);
        }
    }
}
