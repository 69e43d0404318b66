package dev.waldo.compiler.corpus;

import dev.waldo.compiler.diag.SourceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One {@code .wld} file of the test corpus with the expectations written inside it:
 * <ul>
 *   <li>{@code // error: text} — an error whose message contains {@code text} is reported on
 *       this line; {@code // error@+N: text} or {@code // error@-N: text} puts it N lines
 *       below or above. One line may carry several {@code // error...} markers.</li>
 *   <li>{@code // expect: text} — a line the program prints, in order. A file with such lines
 *       is a run case: it has an {@code Endpoint Main} or {@code Service Main} whose
 *       {@code Public Function main()} prints them.</li>
 * </ul>
 * A file with neither must compile without errors.
 *
 * @param name   the path relative to the corpus folder, e.g. {@code types/mismatch.wld}
 * @param source the file as the compiler sees it
 * @param errors the expected errors, in line order
 * @param output the expected printed lines
 */
public record CorpusCase(String name, SourceFile source, List<ExpectedError> errors, List<String> output) {
    private static final Pattern ERROR = Pattern.compile("//\\s*error(?:@([+-]\\d+))?:\\s*(.*?)\\s*(?=//\\s*error|$)");
    private static final Pattern EXPECT = Pattern.compile("//\\s*expect:\\s?(.*)$");

    /** The folder that holds the corpus in the source tree. */
    public static final Path ROOT = Path.of("src/test/resources/corpus");

    /**
     * An error the file expects.
     *
     * @param line    the 1-based line it must be reported on
     * @param message a substring of the reported message
     */
    public record ExpectedError(int line, String message) {}

    /** Whether the program is meant to run and print {@link #output()}. */
    public boolean isRunCase() {
        return !output.isEmpty();
    }

    /** Whether the program is meant to be rejected. */
    public boolean isErrorCase() {
        return !errors.isEmpty();
    }

    /** Loads every {@code .wld} file under {@link #ROOT}, sorted by path. */
    public static List<CorpusCase> loadAll() {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(p -> p.toString().endsWith(".wld")).sorted().map(CorpusCase::load).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Loads one corpus file and reads its expectations. */
    public static CorpusCase load(Path path) {
        String text;
        try {
            text = Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String name = ROOT.relativize(path).toString().replace('\\', '/');
        List<ExpectedError> errors = new ArrayList<>();
        List<String> output = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher error = ERROR.matcher(lines[i]);
            while (error.find()) {
                int offset = error.group(1) == null ? 0 : Integer.parseInt(error.group(1));
                errors.add(new ExpectedError(i + 1 + offset, error.group(2)));
            }
            Matcher expect = EXPECT.matcher(lines[i]);
            if (expect.find()) {
                output.add(expect.group(1));
            }
        }
        return new CorpusCase(name, new SourceFile(name, text), List.copyOf(errors), List.copyOf(output));
    }

    @Override
    public String toString() {
        return name;
    }
}
