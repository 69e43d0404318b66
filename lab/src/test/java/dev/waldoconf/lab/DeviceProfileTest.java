package dev.waldoconf.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldoconf.lab.DeviceProfile.Fate;
import dev.waldoconf.lab.DeviceProfile.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The profiles' seeded draws and their rate limit, with the clock given explicitly. */
class DeviceProfileTest {
    private static final long SECOND_NS = 1_000_000_000L;

    private static List<Fate> fates(DeviceProfile profile, String switchName, int count) {
        DeviceProfile.Pacer pacer = profile.pacer(switchName);
        List<Fate> fates = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            fates.add(pacer.next(i * SECOND_NS));
        }
        return fates;
    }

    @Test
    void theSameSeedAndSwitchGiveTheSameFatesPduByPdu() {
        assertThat(fates(DeviceProfile.FLAKY, "lab-7", 500)).isEqualTo(fates(DeviceProfile.FLAKY, "lab-7", 500));
        assertThat(fates(DeviceProfile.FLAKY, "lab-7", 500))
                .as("another switch of the same lab draws its own sequence")
                .isNotEqualTo(fates(DeviceProfile.FLAKY, "lab-8", 500))
                .as("another seed draws another sequence")
                .isNotEqualTo(fates(DeviceProfile.FLAKY.withSeed(2), "lab-7", 500));
    }

    @Test
    void delaysStayWithinDelayPlusJitterAndUseTheWholeRange() {
        List<Long> delays = fates(DeviceProfile.SLOW_CPU, "lab-1", 2000).stream().map(Fate::delayMs).toList();
        assertThat(delays).allSatisfy(delay -> assertThat(delay).isBetween(20L, 30L)).contains(20L, 30L);
    }

    @Test
    void lossesComeAtAboutTheConfiguredRate() {
        long lost = fates(DeviceProfile.FLAKY, "lab-1", 10_000).stream()
                .filter(fate -> fate.outcome() == Outcome.LOST).count();
        // 2 % of 10,000 is 200; five standard deviations (about 14 each) either side.
        assertThat(lost).isBetween(130L, 270L);
        assertThat(fates(DeviceProfile.FAST, "lab-1", 10_000)).allMatch(fate -> fate.equals(
                new Fate(Outcome.ANSWERED, 0)));
    }

    @Test
    void theRateLimitLetsABurstThroughThenTheRefillRate() {
        DeviceProfile limited = new DeviceProfile("test", 0, 0, 0, 10, 3, 1);
        DeviceProfile.Pacer pacer = limited.pacer("lab-1");
        long start = 5 * SECOND_NS;
        // Five PDUs at once: the burst of 3 goes through, the rest is dropped.
        List<Outcome> atOnce = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            atOnce.add(pacer.next(start).outcome());
        }
        assertThat(atOnce).containsExactly(Outcome.ANSWERED, Outcome.ANSWERED, Outcome.ANSWERED,
                Outcome.RATE_LIMITED, Outcome.RATE_LIMITED);
        // 10 a second refills one token every 100 ms.
        assertThat(pacer.next(start + 50_000_000L).outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(pacer.next(start + 150_000_000L).outcome()).isEqualTo(Outcome.ANSWERED);
        assertThat(pacer.next(start + 160_000_000L).outcome()).isEqualTo(Outcome.RATE_LIMITED);
        // A long pause refills no more than the burst.
        List<Outcome> afterPause = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            afterPause.add(pacer.next(start + 60 * SECOND_NS).outcome());
        }
        assertThat(afterPause).containsExactly(Outcome.ANSWERED, Outcome.ANSWERED, Outcome.ANSWERED,
                Outcome.RATE_LIMITED);
    }

    @Test
    void namedProfilesAreFoundByNameAndUnknownNamesListTheChoices() {
        assertThat(DeviceProfile.named("slow-cpu")).isEqualTo(DeviceProfile.SLOW_CPU);
        assertThat(DeviceProfile.named("fast").isInstant()).isTrue();
        assertThatThrownBy(() -> DeviceProfile.named("turbo"))
                .hasMessage("unknown device profile 'turbo'; choose fast | slow-cpu | rate-limited | flaky");
    }

    @Test
    void nonsenseFiguresAreRefused() {
        assertThatThrownBy(() -> new DeviceProfile("x", -1, 0, 0, 0, 0, 1)).hasMessageContaining("0 or more ms");
        assertThatThrownBy(() -> new DeviceProfile("x", 0, 0, 101, 0, 0, 1)).hasMessageContaining("0..100 percent");
        assertThatThrownBy(() -> new DeviceProfile("x", 0, 0, 0, 5, 0, 1)).hasMessageContaining("burst of at least 1");
    }
}
