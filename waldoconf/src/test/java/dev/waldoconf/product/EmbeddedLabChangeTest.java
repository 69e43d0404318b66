package dev.waldoconf.product;

import dev.waldoconf.lab.Lab;
import dev.waldoconf.lab.SwitchConfig;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/** {@link AtomicChangeScenarios} on eight switches embedded in the test JVM, each with its control port. */
@Timeout(180)
class EmbeddedLabChangeTest extends AtomicChangeScenarios {
    static final int SWITCHES = 8;
    private static Lab lab;

    @BeforeAll
    static void startLab() throws Exception {
        lab = Lab.start(SWITCHES, SwitchConfig.named("lab"), null);
    }

    @AfterAll
    static void stopLab() {
        if (lab != null) {
            lab.close();
        }
    }

    @Override
    List<Fleet.Switch> switches() {
        return lab.switches().stream()
                .map(sw -> new Fleet.Switch(sw.name(), sw.snmpAddress(), sw.controlAddress()))
                .toList();
    }
}
