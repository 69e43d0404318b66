package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.core.Priority;
import dev.waldo.runtime.testing.Node;
import org.junit.jupiter.api.Test;

/** The scheduling option: primaries by default, plain wound-wait for comparison. */
class SchedulingModeTest {
    private static Priority priorityOfALoneTransaction(Host.Scheduling mode) {
        try (InMemoryNetwork network = new InMemoryNetwork()) {
            Host host = mode == null ? Host.inMemory(network, "h") : Host.inMemory(network, "h", mode);
            Node node = Node.create(host);
            return node.atomically("alone", host::priorityOf);
        }
    }

    @Test
    void byDefaultAnEndpointsOldestTransactionIsItsPrimary() {
        assertThat(priorityOfALoneTransaction(null).primary()).isTrue();
        assertThat(priorityOfALoneTransaction(Host.Scheduling.PRIMARIES).primary()).isTrue();
    }

    @Test
    void plainWoundWaitNeverMakesAPrimary() {
        assertThat(priorityOfALoneTransaction(Host.Scheduling.PLAIN_WOUND_WAIT).primary()).isFalse();
    }
}
