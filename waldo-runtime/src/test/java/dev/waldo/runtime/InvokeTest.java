package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.lang.ValueType;
import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.testing.Node;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WaldoObject#invoke} on a hand-written service shaped as the emitter writes one. A
 * retried attempt gets fresh copies of the arguments, as the typed methods give it.
 */
class InvokeTest {
    private final InMemoryNetwork network = new InMemoryNetwork();
    private final Host h1 = Host.inMemory(network, "h1");
    private final Host h2 = Host.inMemory(network, "h2");
    private final Host h3 = Host.inMemory(network, "h3");
    private final Node peer = Node.create(h2);
    private final Node other = Node.create(h3);
    private final AtomicInteger attempts = new AtomicInteger();
    private final Keeper keeper = new Keeper(h1);

    /**
     * {@code Service Keeper { Public Function keep(List(element: Text) items, Endpoint peer) returns
     * Number }}: appends to its parameter, then loses the peer's host in its first attempt after the
     * peer took part, which makes the runtime retry it.
     */
    private final class Keeper extends WaldoService {
        Keeper(Host host) {
            super(host, "Keeper");
        }

        @Override
        protected List<PublicFunction> publicFunctions() {
            return List.of(PublicFunction.of("keep", "Number",
                    new PublicFunction.Parameter("items", ValueType.list(ValueType.TEXT)),
                    new PublicFunction.Parameter("peer", ValueType.ENDPOINT)));
        }

        @Override
        protected Object dispatch(Ctx ctx, String function, Object[] args) {
            @SuppressWarnings("unchecked")
            WList<String> items = (WList<String>) args[0];
            int attempt = attempts.incrementAndGet();
            items.add("seen");
            ctx.call(other.ref(), "add", "z", 1.0);  // a second participant, so the commit needs the peer
            try {
                ctx.call((EndpointRef) args[1], "add", "x", 1.0);
                if (attempt == 1) {
                    h2.close();  // the peer took part, then its host died before commit
                }
                ctx.call((EndpointRef) args[1], "add", "x", 1.0);
            } catch (NetworkException e) {
                // goes on without the peer
            }
            return (double) items.size();
        }
    }

    @AfterEach
    void close() {
        network.close();
    }

    @Test
    void aRetriedAttemptSeesTheArgumentsAsTheCallerGaveThem() {
        Object kept = keeper.invoke("keep", List.of("given"), peer);

        assertThat(attempts).hasValueGreaterThanOrEqualTo(2);
        assertThat(kept).isEqualTo(2.0);  // "given" and this attempt's "seen", not the first attempt's too
    }

    @Test
    void anObjectWithoutSignaturesRefusesEveryName() {
        assertThatThrownBy(() -> peer.invoke("add", "x", 1.0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Node has no Public function 'add' (it has none)");
    }
}
