package dev.waldo.compiler;

import dev.waldo.compiler.check.AnnotationSpec;
import dev.waldo.compiler.check.CheckedProgram;
import dev.waldo.compiler.check.Frontend;
import dev.waldo.compiler.diag.Diagnostic;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.emit.JavaCompilation;
import dev.waldo.compiler.emit.JavaEmitter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The compiler as a library: Waldo sources in, Java sources (and optionally
 * compiled classes) out. Phases run in order — parse, check, emit — and the
 * pipeline stops after a phase that reported errors.
 */
public final class WaldoCompiler {
    /** The Java package emitted code goes into unless the caller names one. */
    public static final String DEFAULT_PACKAGE = "waldo.generated";

    private WaldoCompiler() {
    }

    /**
     * The outcome of a compilation.
     *
     * @param program     the checked program, or null when there were errors
     * @param javaSources emitted Java by relative path; empty when there were errors
     * @param diagnostics every error found, in order
     * @param rendered    the diagnostics as the user sees them, with source lines and carets
     */
    public record Result(CheckedProgram program, Map<String, String> javaSources, List<Diagnostic> diagnostics, String rendered) {
        /** Whether the program compiled without errors. */
        public boolean ok() {
            return diagnostics.isEmpty();
        }

        /** Compiles the emitted Java in memory against the runtime. */
        public JavaCompilation.Classes classes() {
            if (!ok()) {
                throw new IllegalStateException("the Waldo program has errors:\n" + rendered);
            }
            return JavaCompilation.compile(javaSources);
        }
    }

    /** Compiles {@code files} as one program into {@code javaPackage}. Never throws for bad input. */
    public static Result compile(List<SourceFile> files, String javaPackage) {
        return compile(files, javaPackage, List.of());
    }

    /**
     * Compiles {@code files} as {@link #compile(List, String)} does, holding every use of an
     * annotation named in {@code annotationSpecs} to what it means (its arguments, their types and
     * forms, the variables it can bind). Never throws for bad input.
     */
    public static Result compile(List<SourceFile> files, String javaPackage, List<AnnotationSpec> annotationSpecs) {
        Frontend.Result front = Frontend.parseAndCheck(files, annotationSpecs);
        if (!front.ok()) {
            return new Result(null, Map.of(), front.diagnostics(), Frontend.render(front.diagnostics(), files));
        }
        String sourceName = files.stream().map(f -> Path.of(f.name()).getFileName().toString())
                .reduce((a, b) -> a + ", " + b).orElse("<none>");
        return new Result(front.program(), JavaEmitter.emit(front.program(), javaPackage, sourceName), List.of(), "");
    }

    /** Reads {@code paths} as UTF-8 source files named as given. */
    public static List<SourceFile> read(List<Path> paths) throws IOException {
        List<SourceFile> files = new ArrayList<>();
        for (Path path : paths) {
            files.add(new SourceFile(path.toString(), Files.readString(path, StandardCharsets.UTF_8)));
        }
        return files;
    }
}
