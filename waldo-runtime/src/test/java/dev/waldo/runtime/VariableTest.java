package dev.waldo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.runtime.lang.Annotations;
import dev.waldo.runtime.lang.WMap;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The typed seam between host code and a service's state: {@link Variable} constants (as waldoc
 * emits them) read committed values, match a binding's changes and carry the annotation's
 * arguments, so no variable is named by a string.
 */
class VariableTest {
    /**
     * A hand-written service in the shape waldoc emits for:
     * <pre>
     * Service Lamp {
     *     Text label;
     *     &#64;light(channel: 3, dimmable: True) Number level;
     *     &#64;light(channel: 4) Map(from: Text, to: Number) scenes;
     *     Public dim(Number to) { level = to; }
     *     Public label_as(Text text) { label = text; }
     * }
     * </pre>
     */
    static final class Lamp extends WaldoService {
        static final Variable<String> LABEL = Variable.of(Lamp.class, "label", String.class);
        static final Variable<Double> LEVEL = Variable.of(Lamp.class, "level", Double.class,
                Annotations.of("light", "channel", 3.0, "dimmable", true));
        static final Variable<WMap<String, Double>> SCENES = Variable.of(Lamp.class, "scenes", WMap.class,
                Annotations.of("light", "channel", 4.0));

        private final TVar<String> label;
        private final TVar<Double> level;
        private final TMap<String, Double> scenes;

        private Lamp(Host host) {
            super(host, "Lamp");
            label = var(LABEL, () -> "");
            level = var(LEVEL, () -> 0.0);
            scenes = mapVar(SCENES);
        }

        static Lamp create(Host host) {
            Lamp lamp = new Lamp(host);
            lamp.transact("onCreate", ctx -> null);
            return lamp;
        }

        void dim(double to) {
            transact("dim", ctx -> {
                level.set(ctx, to);
                return null;
            });
        }

        void labelAs(String text) {
            transact("label_as", ctx -> {
                label.set(ctx, text);
                return null;
            });
        }

        @Override
        protected Object dispatch(Ctx ctx, String function, Object[] args) {
            throw new ApplicationException("Lamp has no remote functions");
        }
    }

    /** Another class with a variable of the same name, which must not match Lamp's. */
    abstract static class Other extends WaldoService {
        static final Variable<Double> LEVEL = Variable.of(Other.class, "level", Double.class);

        Other(Host host) {
            super(host, "Other");
        }
    }

    private InMemoryNetwork network;
    private Host host;

    @BeforeEach
    void start() {
        network = new InMemoryNetwork();
        host = Host.inMemory(network, "h");
    }

    @AfterEach
    void stop() {
        network.close();
    }

    @Test
    void committedReadsATypedValueThroughTheGeneratedConstant() {
        Lamp lamp = Lamp.create(host);
        lamp.dim(0.5);
        Double level = lamp.committed(Lamp.LEVEL);
        assertThat(level).isEqualTo(0.5);
        assertThat(lamp.committed(Lamp.SCENES)).isEqualTo(new WMap<>());
        assertThatThrownBy(() -> lamp.committed(Other.LEVEL))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Other.level is not a variable of Lamp");
    }

    @Test
    void bindingSeesTypedChangesAndTheValueEveryBoundVariableWillHold() {
        Lamp lamp = Lamp.create(host);
        List<String> seen = new ArrayList<>();
        host.bind("light", new Binding() {
            @Override
            public Vote prepare(BoundTransaction transaction) {
                BoundTransaction.Change change = transaction.change(lamp, Lamp.LEVEL).orElseThrow();
                seen.add("level " + Lamp.LEVEL.before(change) + " -> " + Lamp.LEVEL.after(change)
                        + " on channel " + Lamp.LEVEL.annotation("light").orElseThrow().number("channel"));
                seen.add("scenes changed: " + transaction.changed(lamp, Lamp.SCENES)
                        + ", after: " + transaction.valueAfter(lamp, Lamp.SCENES));
                seen.add("matches Other.level: " + Other.LEVEL.matches(change));
                return Vote.yes();
            }

            @Override
            public void commit(BoundTransaction transaction) {
            }

            @Override
            public void abort(BoundTransaction transaction) {
            }
        });
        lamp.dim(0.75);
        assertThat(seen).containsExactly("level 0.0 -> 0.75 on channel 3.0", "scenes changed: false, after: {}",
                "matches Other.level: false");
    }

    @Test
    void anUnboundVariableCarriesNoAnnotationAndIsNotReported() {
        Lamp lamp = Lamp.create(host);
        List<BoundTransaction> prepared = new ArrayList<>();
        host.bind("light", new Binding() {
            @Override
            public Vote prepare(BoundTransaction transaction) {
                prepared.add(transaction);
                return Vote.yes();
            }

            @Override
            public void commit(BoundTransaction transaction) {
            }

            @Override
            public void abort(BoundTransaction transaction) {
            }
        });
        lamp.labelAs("desk");
        assertThat(Lamp.LABEL.annotations()).isEmpty();
        assertThat(prepared).isEmpty();
        assertThat(lamp.committed(Lamp.LABEL)).isEqualTo("desk");
    }

    @Test
    void annotationArgumentsAreReadTypedAndAMissingOrMistypedOneIsNamed() {
        Annotation light = Lamp.LEVEL.annotation("light").orElseThrow();
        assertThat(light.number("channel")).isEqualTo(3.0);
        assertThat(light.truth("dimmable")).isTrue();
        assertThatThrownBy(() -> light.text("channel"))
                .hasMessage("@light's argument 'channel' is 3.0, not a Text");
        assertThatThrownBy(() -> light.text("oid"))
                .hasMessage("@light has no argument 'oid'; it has channel, dimmable");
        assertThat(Lamp.LABEL.annotation("light")).isEmpty();
    }
}
