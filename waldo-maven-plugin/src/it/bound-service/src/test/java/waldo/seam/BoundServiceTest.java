package waldo.seam;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.runtime.Annotation;
import dev.waldo.runtime.Binding;
import dev.waldo.runtime.BoundTransaction;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldo.runtime.Variable;
import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.lang.WMap;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Assertions;

/**
 * Host code and a binding written against the classes waldoc generated from
 * waldo-compiler's {@code corpus/annotations/bound_service.wld} by waldo-maven-plugin in this sample project: they
 * read committed state, a transaction's changes and the annotations' arguments through the
 * generated {@code Variable} constants, typed, and never name a Waldo variable by a string.
 */
class BoundServiceTest {
    private InMemoryNetwork network;
    private Host host;

    @BeforeEach
    void start() {
        network = new InMemoryNetwork();
        host = Host.inMemory(network, "controller");
    }

    @AfterEach
    void stop() {
        network.close();
    }

    @Test
    void hostCodeReadsCommittedStateTyped() {
        Lamp lamp = Lamp.create(host, "desk");
        lamp.dim(0.5);
        lamp.store(1, "reading");

        String label = lamp.committed(Lamp.LABEL);
        double level = lamp.committed(Lamp.LEVEL);
        WMap<Double, Scene> scenes = lamp.committed(Lamp.SCENES);
        WList<String> history = lamp.committed(Lamp.HISTORY);
        assertThat(label).isEqualTo("desk");
        assertThat(level).isEqualTo(0.5);
        assertThat(scenes.get(1.0).name).isEqualTo("reading");
        assertThat(scenes.get(1.0).level).isEqualTo(0.5);
        assertThat(history).containsExactly("dim 0.5");
    }

    @Test
    void theConstantsDescribeEveryVariableWithItsTypeAndAnnotations() {
        assertThat(Lamp.VARIABLES).containsExactly(Lamp.LABEL, Lamp.LEVEL, Lamp.SCENES, Lamp.HISTORY);
        assertThat(Lamp.LEVEL.owner()).isEqualTo(Lamp.class);
        assertThat(Lamp.LEVEL.type()).isEqualTo(Double.class);
        assertThat(Lamp.SCENES.type()).isEqualTo(WMap.class);
        Annotation light = Lamp.LEVEL.annotation("light").orElseThrow();
        assertThat(light.number("channel")).isEqualTo(3.0);
        assertThat(light.truth("dimmable")).isTrue();
        assertThat(Lamp.HISTORY.annotation("audit")).get().extracting(Annotation::arguments)
                .isEqualTo(java.util.Map.of());
        assertThat(Lamp.LABEL.annotations()).isEmpty();
    }

    @Test
    void aBindingReadsTheTransactionsChangesTypedWithTheirDeviceMapping() {
        Lamp lamp = Lamp.create(host, "desk");
        LightController controller = new LightController(lamp);
        host.bind("light", controller);

        lamp.dim(0.25);
        lamp.store(7, "night");

        assertThat(controller.sent).containsExactly(
                "channel 3: level 0.0 -> 0.25 (scenes unchanged: 0 stored)",
                "channel 4: 1 scene(s), scene 7 'night' at 0.25 (level stays 0.25)");
    }

    @Test
    void aBindingThatRefusesBacksOutTheChangeItWasShownTyped() {
        Lamp lamp = Lamp.create(host, "desk");
        host.bind("light", new LightController(lamp) {
            @Override
            public Vote prepare(BoundTransaction transaction) {
                return transaction.valueAfter(lamp, Lamp.LEVEL) > 1 ? Vote.no("brighter than full") : Vote.yes();
            }
        });
        Assertions.assertThrows(TransactionAbortedException.class, () -> lamp.dim(2));
        assertThat(lamp.committed(Lamp.LEVEL)).isEqualTo(0.0);
        assertThat(lamp.committed(Lamp.HISTORY)).isEmpty();
    }

    /** A binding as a device adapter writes one: it looks only at the variables it maps, through their constants. */
    private static class LightController implements Binding {
        private final Lamp lamp;
        final List<String> sent = new ArrayList<>();

        LightController(Lamp lamp) {
            this.lamp = lamp;
        }

        @Override
        public Vote prepare(BoundTransaction transaction) {
            transaction.change(lamp, Lamp.LEVEL).ifPresent(change -> sent.add("channel " + channel(Lamp.LEVEL)
                    + ": level " + Lamp.LEVEL.before(change) + " -> " + Lamp.LEVEL.after(change)
                    + " (scenes unchanged: " + transaction.valueAfter(lamp, Lamp.SCENES).size() + " stored)"));
            transaction.change(lamp, Lamp.SCENES).ifPresent(change -> {
                WMap<Double, Scene> scenes = Lamp.SCENES.after(change);
                Scene stored = scenes.get(7.0);
                sent.add("channel " + channel(Lamp.SCENES) + ": " + scenes.size() + " scene(s), scene 7 '"
                        + stored.name + "' at " + stored.level + " (level stays "
                        + transaction.valueAfter(lamp, Lamp.LEVEL) + ")");
            });
            return Vote.yes();
        }

        private static long channel(Variable<?> variable) {
            return Math.round(variable.annotation("light").orElseThrow().number("channel"));
        }

        @Override
        public void commit(BoundTransaction transaction) {
        }

        @Override
        public void abort(BoundTransaction transaction) {
        }
    }
}
