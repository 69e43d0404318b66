package dev.waldo.compiler.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.emit.JavaCompilation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runs the complete example of the README's "Using generated code from Java" as it stands there:
 * every fenced block after a {@code <!-- readme-example: NAME -->} marker is the file NAME (a
 * {@code .wld}, a {@code .java}) or, for {@code output}, what running it must print. Editing the
 * README's example is enough to change what this test checks.
 */
class ReadmeExamplesTest {
    private static final Path README = Path.of("README.md");
    private static final Pattern EXAMPLE = Pattern.compile(
            "<!-- readme-example: (\\S+) -->\\s*```[a-z]*\\n(.*?)```", Pattern.DOTALL);

    @Test
    void theCompleteExampleCompilesRunsAndPrintsWhatTheReadmeShows() throws Exception {
        Map<String, String> blocks = blocks();
        assertThat(blocks).as("README example blocks").containsKeys("output");
        List<SourceFile> waldo = new ArrayList<>();
        Map<String, String> java = new LinkedHashMap<>();
        blocks.forEach((name, text) -> {
            if (name.endsWith(".wld")) {
                waldo.add(new SourceFile(name, text));
            } else if (name.endsWith(".java")) {
                java.put(name, text);
            }
        });
        assertThat(waldo).as("a .wld block").isNotEmpty();
        assertThat(java).as("a .java block").hasSize(1);

        WaldoCompiler.Result compiled = WaldoCompiler.compile(waldo, WaldoCompiler.defaultPackage(waldo.get(0).name()));
        assertThat(compiled.ok()).as(compiled.rendered()).isTrue();
        Map<String, String> sources = new LinkedHashMap<>(compiled.javaSources());
        sources.putAll(java);
        ClassLoader loader = JavaCompilation.compile(sources).loader(getClass().getClassLoader());
        String mainClass = java.keySet().iterator().next().replace(".java", "");

        assertThat(runMain(loader, mainClass)).isEqualTo(blocks.get("output"));
    }

    /** The README's example blocks by name, in order. */
    private static Map<String, String> blocks() throws IOException {
        Map<String, String> blocks = new LinkedHashMap<>();
        Matcher matcher = EXAMPLE.matcher(Files.readString(README));
        while (matcher.find()) {
            blocks.put(matcher.group(1), matcher.group(2));
        }
        return blocks;
    }

    /** What {@code mainClass.main} prints to standard output. */
    private static String runMain(ClassLoader loader, String mainClass) throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            loader.loadClass(mainClass).getMethod("main", String[].class).invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(original);
        }
        return printed.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
