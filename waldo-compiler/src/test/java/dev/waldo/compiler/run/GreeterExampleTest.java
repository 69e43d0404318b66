package dev.waldo.compiler.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.emit.JavaCompilation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keeps the README's runnable example (examples/greeter) runnable: the .wld and its
 * Java host compile together and print what the README shows.
 */
class GreeterExampleTest {
    private static final Path EXAMPLE = Path.of("../examples/greeter");

    @Test
    void theGreeterExampleCompilesAndRuns() throws Exception {
        WaldoCompiler.Result waldo = WaldoCompiler.compile(List.of(new SourceFile("greeter.wld",
                Files.readString(EXAMPLE.resolve("greeter.wld")))), WaldoCompiler.defaultPackage("greeter.wld"));
        assertThat(waldo.ok()).as(waldo.rendered()).isTrue();
        Map<String, String> sources = new LinkedHashMap<>(waldo.javaSources());
        sources.put("GreeterHost.java", Files.readString(EXAMPLE.resolve("GreeterHost.java")));
        ClassLoader loader = JavaCompilation.compile(sources).loader(getClass().getClassLoader());

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            loader.loadClass("GreeterHost").getMethod("main", String[].class).invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(original);
        }

        assertThat(printed.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "hello, Ada! (guest 1)", "hello, Grace! (guest 2)", "server guests: [Ada!, Grace!]");
    }
}
