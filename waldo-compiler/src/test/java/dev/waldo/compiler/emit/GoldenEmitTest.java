package dev.waldo.compiler.emit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.diag.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pins the Java emitted for the paper's three figures, and for a service with bound
 * (annotated) variables, to golden files, so a
 * change to the emitter shows up as a readable diff. Regenerate after an
 * intended change with {@code ./mvnw -pl waldo-compiler -am test -Dtest=GoldenEmitTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dgolden.update=true} and review the diff.
 */
class GoldenEmitTest {
    private static final Path CORPUS = Path.of("src/test/resources/corpus");
    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    @ParameterizedTest
    @ValueSource(strings = {"paper/fig1_pubsub", "paper/fig2_replicated_log", "paper/fig3_negotiation",
        "annotations/bound_service"})
    void emittedJavaMatchesGoldenFiles(String program) throws IOException {
        String file = program + ".wld";
        String figure = Path.of(program).getFileName().toString();
        WaldoCompiler.Result result = WaldoCompiler.compile(
                List.of(new SourceFile(Path.of(file).getFileName().toString(),
                        Files.readString(CORPUS.resolve(file)))), "waldo.paper");
        assertThat(result.ok()).as(result.rendered()).isTrue();
        Path folder = GOLDEN.resolve(figure);
        if (Boolean.getBoolean("golden.update")) {
            write(folder, result.javaSources());
        }
        try (Stream<Path> golden = Files.list(folder)) {
            assertThat(golden.map(p -> p.getFileName().toString()).sorted().toList())
                    .as("golden files of %s", figure)
                    .containsExactlyElementsOf(result.javaSources().keySet().stream()
                            .map(p -> Path.of(p).getFileName().toString()).sorted().toList());
        }
        for (Map.Entry<String, String> source : result.javaSources().entrySet()) {
            Path expected = folder.resolve(Path.of(source.getKey()).getFileName());
            assertThat(source.getValue()).as("%s (regenerate with -Dgolden.update=true)", expected)
                    .isEqualTo(Files.readString(expected));
        }
    }

    private static void write(Path folder, Map<String, String> sources) throws IOException {
        Files.createDirectories(folder);
        try (Stream<Path> old = Files.list(folder)) {
            for (Path stale : old.toList()) {
                Files.delete(stale);
            }
        }
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Files.writeString(folder.resolve(Path.of(source.getKey()).getFileName()), source.getValue());
        }
    }
}
