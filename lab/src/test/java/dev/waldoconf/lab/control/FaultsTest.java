package dev.waldoconf.lab.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FaultsTest {
    private final Faults faults = new Faults();

    @Test
    void dropNextSetResponsesDropsExactlyThatManySetAnswersAndNoOtherAnswer() {
        faults.dropNextSetResponses(2);

        assertThat(faults.dropsResponse(false)).isFalse();
        assertThat(faults.describe()).endsWith(" drop-next-sets=2");
        assertThat(faults.dropsResponse(true)).isTrue();
        assertThat(faults.dropsResponse(true)).isTrue();
        assertThat(faults.dropsResponse(true)).isFalse();
        assertThat(faults.describe()).isEqualTo("refuse=none delay=0 drop=off exit-after=off");
    }

    @Test
    void clearForgetsTheSetAnswersLeftToDrop() {
        faults.dropNextSetResponses(1);
        faults.clear();

        assertThat(faults.dropsResponse(true)).isFalse();
    }

    @Test
    void aNegativeCountIsRefused() {
        assertThatThrownBy(() -> faults.dropNextSetResponses(-1)).hasMessageContaining("0 or more, got -1");
    }
}
