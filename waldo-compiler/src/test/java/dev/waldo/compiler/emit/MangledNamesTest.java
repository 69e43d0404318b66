package dev.waldo.compiler.emit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's table of names that move aside in Java ("Names: what moves aside") says exactly
 * what {@link JavaNames} does: every name it lists is mangled as the table says, and the compiler
 * mangles no name the table does not list. HostApiTest compiles host code against such names.
 */
class MangledNamesTest {
    private static final Path README = Path.of("README.md");
    private static final String MARKER = "<!-- mangled-names: checked by MangledNamesTest -->";

    @Test
    void everyNameTheTableListsMovesAsideWithOneUnderscore() throws IOException {
        List<Set<String>> rows = tableRows();
        for (String name : union(rows.subList(0, 4))) {
            assertThat(JavaNames.of(name)).as("Java name of Waldo '%s'", name).isEqualTo(name + "_");
            assertThat(JavaNames.ofClass(name)).as("Java class name of Waldo '%s'", name).isEqualTo(name + "_");
        }
        for (String name : rows.get(4)) {
            assertThat(JavaNames.ofClass(name)).as("Java class name of Waldo '%s'", name).isEqualTo(name + "_");
            assertThat(JavaNames.of(name)).as("a variable may be called '%s'", name).isEqualTo(name);
        }
    }

    @Test
    void theTableListsEveryNameTheCompilerMovesAside() throws IOException {
        List<Set<String>> rows = tableRows();

        assertThat(union(rows.subList(0, 4))).isEqualTo(JavaNames.reserved());
        assertThat(rows.get(4)).isEqualTo(JavaNames.runtimeClasses());
    }

    @Test
    void aReservedNameFollowedByUnderscoresGetsOneMoreSoNoTwoNamesMeet() {
        assertThat(List.of("short", "short_", "short__").stream().map(JavaNames::of))
                .containsExactly("short_", "short__", "short___");
        assertThat(JavaNames.of("_")).isEqualTo("__");
        assertThat(JavaNames.of("__")).isEqualTo("___");
        assertThat(JavaNames.ofClass("Variable_")).isEqualTo("Variable__");
        assertThat(JavaNames.of("shorts_")).isEqualTo("shorts_");
    }

    /** The backquoted names of each of the table's first five rows, after the row's colon. */
    private static List<Set<String>> tableRows() throws IOException {
        String readme = Files.readString(README);
        int start = readme.indexOf(MARKER);
        assertThat(start).as("README.md has the table marker %s", MARKER).isNotNegative();
        List<Set<String>> rows = new ArrayList<>();
        for (String line : readme.substring(start).lines().skip(3).limit(5).toList()) {
            String firstColumn = line.split("\\|")[1];
            Matcher names = Pattern.compile("`([^`]+)`").matcher(firstColumn.substring(firstColumn.indexOf(':') + 1));
            Set<String> row = new HashSet<>();
            while (names.find()) {
                row.add(names.group(1));
            }
            rows.add(row);
        }
        return rows;
    }

    private static Set<String> union(List<Set<String>> rows) {
        Set<String> all = new HashSet<>();
        rows.forEach(all::addAll);
        return all;
    }
}
