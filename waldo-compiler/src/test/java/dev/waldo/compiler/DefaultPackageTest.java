package dev.waldo.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.emit.JavaCompilation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each program gets a package of its own, named after its file, unless told otherwise. */
class DefaultPackageTest {
    @Test
    void thePackageIsWaldoDotTheFileNameMadeAJavaName() {
        assertThat(WaldoCompiler.defaultPackage("greeter.wld")).isEqualTo("waldo.greeter");
        assertThat(WaldoCompiler.defaultPackage("examples/greeter/greeter.wld")).isEqualTo("waldo.greeter");
        assertThat(WaldoCompiler.defaultPackage("My-Switch.v2.wld")).isEqualTo("waldo.my_switch_v2");
        assertThat(WaldoCompiler.defaultPackage("2pc.wld")).isEqualTo("waldo._2pc");
        assertThat(WaldoCompiler.defaultPackage("int.wld")).isEqualTo("waldo.int_");
        assertThat(WaldoCompiler.defaultPackage("café.wld")).isEqualTo("waldo.caf_");
    }

    @Test
    void twoProgramsWithTheSameKindNamesShareOneClassPath() throws Exception {
        Map<String, String> first = javaOf("first.wld");
        Map<String, String> second = javaOf("second.wld");
        Map<String, String> both = new HashMap<>(first);
        both.putAll(second);

        assertThat(both).hasSize(first.size() + second.size());  // not one file overwrote another
        ClassLoader loader = JavaCompilation.compile(both).loader(getClass().getClassLoader());
        assertThat(loader.loadClass("waldo.first.Counter")).isNotEqualTo(loader.loadClass("waldo.second.Counter"));
        assertThat(loader.loadClass("waldo.first.Structs")).isNotEqualTo(loader.loadClass("waldo.second.Structs"));
    }

    private static Map<String, String> javaOf(String file) {
        List<SourceFile> sources = List.of(new SourceFile(file, "Endpoint Counter { Number n; }"));
        return WaldoCompiler.compile(sources, WaldoCompiler.defaultPackage(file)).javaSources();
    }
}
