package dev.waldoconf.lab;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class PrerequisiteTest {

    @Test
    void aPresentToolLetsTheTestRun() {
        assertThatCode(() -> Prerequisite.require(true, "x", "WALDO_EXPECT_X", "install x", Map.of()))
                .doesNotThrowAnyException();
    }

    @Test
    void aMissingToolSkipsWithTheReason() {
        assertThatThrownBy(() -> Prerequisite.require(false, "no engine", "WALDO_EXPECT_X", "start it", Map.of()))
                .isInstanceOf(TestAbortedException.class).hasMessageContaining("no engine");
    }

    @Test
    void aMissingToolThatWasExpectedFails() {
        assertThatThrownBy(() -> Prerequisite.require(false, "no engine", "WALDO_EXPECT_X", "start it",
                Map.of("WALDO_EXPECT_X", "1")))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessage("no engine, but WALDO_EXPECT_X=1 says it should be; start it");
    }
}
