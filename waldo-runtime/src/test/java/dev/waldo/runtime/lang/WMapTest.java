package dev.waldo.runtime.lang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Host code reaches a Number-keyed map with any Java number, and a key no Waldo map can hold is refused. */
class WMapTest {
    private final WMap<Double, String> vlans = WMap.of(2.0, "two", 10.0, "ten");

    @Test
    void anyJavaNumberFindsTheDoubleKeyOfTheSameValue() {
        assertThat(vlans.get(2)).isEqualTo("two");
        assertThat(vlans.get(2L)).isEqualTo("two");
        assertThat(vlans.get((short) 10)).isEqualTo("ten");
        assertThat(vlans.get((byte) 10)).isEqualTo("ten");
        assertThat(vlans.get(2.0f)).isEqualTo("two");
        assertThat(vlans.get(new BigDecimal("10.00"))).isEqualTo("ten");
        assertThat(vlans.get(BigInteger.TWO)).isEqualTo("two");
        assertThat(vlans.get(new AtomicInteger(2))).isEqualTo("two");
        assertThat(vlans.containsKey(10)).isTrue();
        assertThat(vlans.getOrDefault(3, "none")).isEqualTo("none");
    }

    @Test
    void writesNormalizeTheirKeysToo() {
        @SuppressWarnings({"unchecked", "rawtypes"})
        Map<Object, String> raw = (Map) new WMap<Double, String>();  // as code that lost the type arguments writes
        raw.put(7, "seven");
        raw.putIfAbsent(7L, "not again");
        raw.merge(8, "eight", String::concat);

        assertThat(raw.keySet()).containsExactly(7.0, 8.0).allSatisfy(key -> assertThat(key).isInstanceOf(Double.class));
        assertThat(raw.get(7.0)).isEqualTo("seven");
        assertThat(raw.remove(8)).isEqualTo("eight");
        assertThat(new WMap<>(Map.of(1, "one")).get(1.0)).isEqualTo("one");
    }

    @Test
    void aNumberWithoutAnExactDoubleIsRefusedRatherThanRounded() {
        assertThatThrownBy(() -> vlans.get((1L << 53) + 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("9007199254740993").hasMessageContaining("no exact Number value");
        assertThatThrownBy(() -> vlans.get(new BigDecimal("0.1"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aKeyOfNoWaldoKeyTypeIsRefusedLoudly() {
        assertThatThrownBy(() -> vlans.get('x')).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Character").hasMessageContaining("Number, Text (String) or TrueFalse");
        assertThatThrownBy(() -> vlans.containsKey(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no null key");
    }

    @Test
    void textAndTrueFalseKeysAreKeptAsTheyAre() {
        WMap<String, Boolean> flags = WMap.of("on", true);
        WMap<Boolean, String> names = WMap.of(true, "yes");

        assertThat(flags.get("on")).isTrue();
        assertThat(names.get(Boolean.TRUE)).isEqualTo("yes");
    }
}
