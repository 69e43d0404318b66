package dev.waldoconf.lab;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Prints every skipped or aborted test with its reason on the build's console, as
 * {@code SKIPPED Class#method: reason}. Registered with the JUnit Platform through
 * {@code META-INF/services} in the lab's test jar, so it runs in every module whose tests can skip
 * (lab, waldoconf, cli).
 *
 * <p>Why the process's own stderr and not {@code System.err}: surefire captures both of the
 * test's streams into report files ({@code redirectTestOutputToFile}), so a skip would otherwise
 * show on the console only as a count. What the forked JVM writes to its file descriptor 2 goes
 * past that capture to Maven's console.
 */
public final class SkipReporter implements TestExecutionListener {
    private final PrintStream console;

    /** Prints to this process's standard error file descriptor (what the JUnit Platform's service loader calls). */
    public SkipReporter() {
        this(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
    }

    /** Prints to {@code console} (for tests). */
    SkipReporter(PrintStream console) {
        this.console = console;
    }

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        report(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            report(test, result.getThrowable().map(Throwable::getMessage).orElse("aborted"));
        }
    }

    private void report(TestIdentifier test, String reason) {
        console.println("SKIPPED " + name(test) + ": " + reason);
    }

    /** {@code Class#method} for a method, the class for a class. */
    private static String name(TestIdentifier test) {
        return test.getSource().map(source -> switch (source) {
            case org.junit.platform.engine.support.descriptor.MethodSource m -> m.getClassName() + "#" + m.getMethodName();
            case org.junit.platform.engine.support.descriptor.ClassSource c -> c.getClassName();
            default -> test.getDisplayName();
        }).orElse(test.getDisplayName());
    }
}
