package dev.waldo.compiler.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.corpus.CorpusCase;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Compiles every run case of the corpus to Java, runs its {@code Main.main()}
 * on in-memory hosts and compares what committed transactions printed with
 * the file's {@code // expect:} lines; compiles every other accepted case with javac.
 */
class CorpusRunTest {

    @TestFactory
    Stream<DynamicTest> runCases() {
        return CorpusCase.loadAll().stream().filter(CorpusCase::isRunCase)
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> run(c)));
    }

    /**
     * Every other program the front end accepts compiles to Java that javac accepts too: an
     * emitter that writes Java javac rejects is caught here, not by a user's build.
     */
    @TestFactory
    Stream<DynamicTest> acceptedCasesCompileWithJavac() {
        return CorpusCase.loadAll().stream().filter(c -> !c.isErrorCase() && !c.isRunCase())
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> new ProgramRunner(c.source()).close()));
    }

    private static void run(CorpusCase c) {
        List<String> printed = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (ProgramRunner runner = new ProgramRunner(c.source())) {
                return runner.runMain();
            }
        }, c.name() + " did not finish within 30 s");
        assertThat(printed).as(c.name()).containsExactlyElementsOf(c.output());
    }
}
