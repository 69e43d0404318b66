package dev.waldoconf.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
    void aMissingToolSkipsAndPrintsTheReason() {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        assertThatThrownBy(() -> Prerequisite.require(false, "no engine", "WALDO_EXPECT_X", "start it", Map.of(),
                new PrintStream(printed, true, StandardCharsets.UTF_8)))
                .isInstanceOf(TestAbortedException.class).hasMessageContaining("no engine");
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo("SKIPPED: no engine (start it)\n");
    }

    @Test
    void aMissingToolThatWasExpectedFails() {
        assertThatThrownBy(() -> Prerequisite.require(false, "no engine", "WALDO_EXPECT_X", "start it",
                Map.of("WALDO_EXPECT_X", "1")))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessage("no engine, but WALDO_EXPECT_X=1 says it should be; start it");
    }
}
