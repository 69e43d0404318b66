package dev.waldo.compiler.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.check.Frontend;
import dev.waldo.compiler.diag.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the front end over every corpus file: error cases must report exactly the expected
 * errors on the expected lines, and every other case must pass with no errors.
 */
class CorpusTest {

    @TestFactory
    Stream<DynamicTest> frontEnd() {
        return CorpusCase.loadAll().stream()
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c)));
    }

    @Test
    void corpusHasTheAgreedSizeAndMix() {
        List<CorpusCase> cases = CorpusCase.loadAll();
        long errorCases = cases.stream().filter(CorpusCase::isErrorCase).count();
        assertThat(cases).hasSizeGreaterThanOrEqualTo(150);
        assertThat(errorCases).isBetween(cases.size() / 4L, cases.size() / 2L);
        assertThat(cases).filteredOn(c -> c.isErrorCase() && c.isRunCase()).isEmpty();
    }

    @Test
    void everyRunCaseHasTheMainThatTheRunnerCalls() {
        assertThat(CorpusCase.loadAll()).filteredOn(CorpusCase::isRunCase).allSatisfy(c -> {
            String text = c.source().text();
            assertThat(text).containsAnyOf("Endpoint Main {", "Service Main {");
            assertThat(text).contains("Public Function main() {");
        });
    }

    static void check(CorpusCase c) {
        Frontend.Result result = Frontend.parseAndCheck(List.of(c.source()));
        List<String> problems = new ArrayList<>();
        List<Diagnostic> unmatched = new ArrayList<>(result.diagnostics());
        for (CorpusCase.ExpectedError expected : c.errors()) {
            Diagnostic match = unmatched.stream()
                    .filter(d -> d.span().line() == expected.line() && d.message().contains(expected.message()))
                    .findFirst().orElse(null);
            if (match == null) {
                problems.add("missing error on line " + expected.line() + ": " + expected.message());
            } else {
                unmatched.remove(match);
            }
        }
        unmatched.forEach(d -> problems.add("unexpected " + d.headline()));
        assertThat(problems)
                .as("%s\n%s", c.name(), Frontend.render(result.diagnostics(), List.of(c.source())))
                .isEmpty();
        assertThat(result.ok()).as("a program without errors checks to a CheckedProgram").isEqualTo(!c.isErrorCase());
    }
}
