package dev.waldoconf.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.opentest4j.TestAbortedException;

/** What reaches the console for skipped, aborted and passing tests. */
class SkipReporterTest {
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final SkipReporter reporter = new SkipReporter(new PrintStream(console, true, StandardCharsets.UTF_8));

    private static TestIdentifier test(String className, String method) {
        return TestIdentifier.from(new AbstractTestDescriptor(UniqueId.root("test", method), method,
                MethodSource.from(className, method)) {
            @Override
            public Type getType() {
                return Type.TEST;
            }
        });
    }

    @Test
    void anAbortedTestIsPrintedWithTheReasonItGave() {
        reporter.executionFinished(test("dev.x.NetSnmpTest", "walks"),
                TestExecutionResult.aborted(new TestAbortedException("snmpd is missing")));

        assertThat(console.toString(StandardCharsets.UTF_8)).isEqualTo("SKIPPED dev.x.NetSnmpTest#walks: snmpd is missing"
                + System.lineSeparator());
    }

    @Test
    void aDisabledTestIsPrintedWithItsReason() {
        reporter.executionSkipped(test("dev.x.T", "later"), "not on this platform");

        assertThat(console.toString(StandardCharsets.UTF_8)).contains("SKIPPED dev.x.T#later: not on this platform");
    }

    @Test
    void passingAndFailingTestsPrintNothing() {
        reporter.executionFinished(test("dev.x.T", "passes"), TestExecutionResult.successful());
        reporter.executionFinished(test("dev.x.T", "fails"), TestExecutionResult.failed(new AssertionError("no")));

        assertThat(console.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
