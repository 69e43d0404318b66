package dev.waldo.runtime.lang;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The counting set value: adds and removes commute, counts go below zero, zero counts vanish. */
class WCSetTest {
    @Test
    void addsAndRemovesInAnyOrderLeaveTheSameCounts() {
        WCSet<String> one = new WCSet<>();
        one.add("a");
        one.rem("b");
        one.add("a");
        WCSet<String> other = new WCSet<>();
        other.rem("b");
        other.add("a");
        other.add("a");
        assertThat(one).isEqualTo(other);
        assertThat(one.count("a")).isEqualTo(2.0);
        assertThat(one.count("b")).as("an anti-element").isEqualTo(-1.0);
        assertThat(one.elements()).containsExactly("a");
        assertThat(one).hasToString("cset{'a': 2, 'b': -1}");
    }

    @Test
    void anElementBackAtZeroIsGoneAndNumbersAreNormalizedAsMapKeys() {
        WCSet<Double> set = new WCSet<>();
        set.add(2.0);
        set.rem(2.0);
        assertThat(set.isEmpty()).isTrue();
        set.add(-0.0);
        assertThat(set.count(0.0)).isEqualTo(1.0);
    }

    @Test
    void aDeltaAddsToTheCountsAndCopiesAreIndependent() {
        WCSet<String> committed = new WCSet<>();
        committed.add("a");
        WCSet<String> delta = new WCSet<>();
        delta.add("a");
        delta.rem("c");
        WCSet<String> copy = Values.copy(committed);
        committed.addAll(delta);
        assertThat(committed.count("a")).isEqualTo(2.0);
        assertThat(committed.count("c")).isEqualTo(-1.0);
        assertThat(copy.count("a")).as("the copy kept its own counts").isEqualTo(1.0);
        assertThat(Values.equal(copy, committed)).isFalse();
        assertThat(Values.toText(copy)).isEqualTo("cset{'a': 1}");
    }
}
