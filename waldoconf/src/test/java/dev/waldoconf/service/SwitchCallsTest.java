package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.Ctx;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldo.runtime.WaldoObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SwitchCalls}: one function on many switches' objects as one transaction, the calls in
 * flight together (not one after another), and an abort when one answers False. Hosts on the
 * runtime's in-memory network; each switch's object answers only once every other was called too.
 */
@Timeout(60)
class SwitchCallsTest {
    private static final int SWITCHES = 4;
    private final InMemoryNetwork network = new InMemoryNetwork();
    private final Host operator = Host.inMemory(network, "operator");
    private final CountDownLatch allCalled = new CountDownLatch(SWITCHES);
    private final List<EndpointRef> gates = new ArrayList<>();

    /** A switch's object whose function answers once every switch was called, or False after 10 s. */
    private final class Gate extends WaldoObject {
        private final boolean answer;

        Gate(Host host, boolean answer) {
            super(host, "Gate");
            this.answer = answer;
        }

        @Override
        protected Object dispatch(Ctx ctx, String function, Object[] args) {
            allCalled.countDown();
            try {
                return allCalled.await(10, TimeUnit.SECONDS) && answer;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    private void gates(boolean lastAnswers) {
        for (int i = 0; i < SWITCHES; i++) {
            gates.add(new Gate(Host.inMemory(network, "switch-" + i), i < SWITCHES - 1 || lastAnswers).ref());
        }
    }

    @AfterEach
    void close() {
        network.close();
    }

    @Test
    void everyObjectIsCalledWhileTheOthersAreAndAnswersInOrder() {
        gates(true);

        List<Object> answers = new SwitchCalls(operator).each(gates, "open");

        assertThat(answers).as("each call waited for all four to be called: they were in flight together")
                .containsExactly(true, true, true, true);
    }

    @Test
    void oneFalseAbortsTheTransactionOnEveryObject() {
        gates(false);

        assertThatThrownBy(() -> new SwitchCalls(operator).allTrue(gates, "open"))
                .isInstanceOf(TransactionAbortedException.class);
    }
}
