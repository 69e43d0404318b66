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
import java.util.Locale;
import java.util.Map;

/**
 * The compiler as a library: Waldo sources in, Java sources (and optionally
 * compiled classes) out. Phases run in order — parse, check, emit — and the
 * pipeline stops after a phase that reported errors.
 */
public final class WaldoCompiler {
    /** Java keywords (and literals) that cannot be a package name's part as they are. */
    private static final java.util.Set<String> JAVA_KEYWORDS = java.util.Set.of(
            "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
            "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
            "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
            "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized",
            "this", "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null",
            "_");

    private WaldoCompiler() {
    }

    /**
     * The Java package a program's classes go into unless the caller names one: {@code waldo.}
     * followed by the name of its first source file without {@code .wld}, lower case, with every
     * character Java does not allow in a name turned into {@code _} ({@code greeter.wld} →
     * {@code waldo.greeter}, {@code My-Switch.wld} → {@code waldo.my_switch}, {@code 2pc.wld} →
     * {@code waldo._2pc}, {@code int.wld} → {@code waldo.int_}). So two programs loaded into one
     * JVM keep their classes apart without anyone choosing a package.
     *
     * @param fileName the first source file's name or path
     */
    public static String defaultPackage(String fileName) {
        String name = Path.of(fileName).getFileName().toString();
        String stem = (name.endsWith(".wld") ? name.substring(0, name.length() - 4) : name).toLowerCase(Locale.ROOT);
        StringBuilder part = new StringBuilder();
        stem.codePoints().forEach(c -> part.append(c < 128 && Character.isLetterOrDigit(c) ? (char) c : '_'));
        if (part.isEmpty() || Character.isDigit(part.charAt(0))) {
            part.insert(0, '_');
        }
        String segment = JAVA_KEYWORDS.contains(part.toString()) ? part + "_" : part.toString();
        return "waldo." + segment;
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
