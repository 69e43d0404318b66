package dev.waldo.compiler.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.diag.Diagnostic;
import dev.waldo.compiler.diag.SourceFile;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Coverage-guided fuzzing of the compiler's front end and emitter with Jazzer. The property: on
 * any input, {@link WaldoCompiler#compile} returns either Java sources and no diagnostics or
 * diagnostics that point into the file, and throws nothing (an exception here is what waldoc
 * reports as an internal compiler error, exit 3: a crash).
 *
 * <p>In an ordinary build ({@code ./mvnw verify}) Jazzer runs in regression mode: it replays
 * every stored input under {@code src/test/resources/dev/waldo/compiler/fuzz/FrontendJazzerTestInputs/compile/}
 * (seed programs and every crash found so far). With {@code JAZZER_FUZZ=1} it fuzzes, starting
 * from those inputs, until {@link FuzzTest#maxExecutions()} inputs or {@link FuzzTest#maxDuration()};
 * a crash is written to that folder as a new input, which then replays in every build. The
 * command is in the module's README ("Fuzzing").
 */
class FrontendJazzerTest {

    @FuzzTest(maxDuration = "60m", maxExecutions = 1_000_000)
    @DictionaryEntries({"Endpoint", "Service", "Struct", "Sequence", "Public", "Private", "Function",
            "returns", "onCreate", "Number", "Text", "TrueFalse", "List", "Map", "element:", "from:", "to:",
            "Nothing", "True", "False", "if", "else", "elseIf", "while", "for", "in", "break", "continue",
            "return", "try", "catch", "finally", "abort()", "and", "or", "not", "self", "len(", "range(",
            "keys(", "toText(", "id()", "print(", ".append(", ".insert(", ".remove(", "NetworkException",
            "ApplicationException", "Exception", "@snmp(oid: '1.3.6.1.2.1.1.6.0')", "List<", "Map<", "/**",
            "*/", "//", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "1e3", "2.5", "'\\n'", "Main.a {",
            "Public Function main() {"})
    void compile(byte[] input) {
        SourceFile source = new SourceFile("fuzz.wld", new String(input, StandardCharsets.UTF_8));
        WaldoCompiler.Result result = WaldoCompiler.compile(List.of(source), "waldo.fuzz");
        assertThat(result.ok()).isEqualTo(result.diagnostics().isEmpty());
        assertThat(result.javaSources().isEmpty()).as("Java comes out exactly when the program has no errors")
                .isEqualTo(!result.ok());
        for (Diagnostic diagnostic : result.diagnostics()) {
            assertThat(diagnostic.span().line()).isPositive();
            assertThat(diagnostic.span().col()).isPositive();
            assertThat(diagnostic.format(source)).startsWith("fuzz.wld:");
        }
    }
}
