package dev.waldo.compiler.check;

import dev.waldo.compiler.diag.Diagnostic;
import dev.waldo.compiler.diag.Diagnostics;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.diag.Span;
import dev.waldo.compiler.syntax.Decl;
import dev.waldo.compiler.syntax.Parser;
import dev.waldo.compiler.syntax.Program;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The compiler's front end for drivers: parse every file, then check the whole program,
 * stopping after the syntax phase if it reported errors (checking a broken tree would only
 * echo them).
 */
public final class Frontend {
    private Frontend() {
    }

    /**
     * The outcome of {@link #parseAndCheck}.
     *
     * @param program     the checked program, or null when there were errors
     * @param diagnostics every error, by file (in the order given) and position
     */
    public record Result(CheckedProgram program, List<Diagnostic> diagnostics) {
        /** Whether the program is free of errors and ready for the emitter. */
        public boolean ok() {
            return program != null;
        }
    }

    /** Parses and checks {@code files} as one program. Never throws for any input. */
    public static Result parseAndCheck(List<SourceFile> files) {
        return parseAndCheck(files, List.of());
    }

    /**
     * Parses and checks {@code files} as one program, holding the annotations named in
     * {@code annotationSpecs} to their meaning. Never throws for any input.
     */
    public static Result parseAndCheck(List<SourceFile> files, List<AnnotationSpec> annotationSpecs) {
        Diagnostics diagnostics = new Diagnostics();
        try {
            List<Decl> decls = new ArrayList<>();
            for (SourceFile file : files) {
                decls.addAll(Parser.parse(file, diagnostics));
            }
            if (diagnostics.hasErrors()) {
                return new Result(null, diagnostics.all());
            }
            CheckedProgram program = Checker.check(new Program(List.copyOf(decls)), diagnostics, annotationSpecs);
            return new Result(diagnostics.hasErrors() ? null : program, inSourceOrder(diagnostics.all(), files));
        } catch (StackOverflowError e) {
            // The parser bounds nesting, so only a pathologically long operator chain gets here.
            String file = files.isEmpty() ? "<input>" : files.get(0).name();
            diagnostics.error(new Span(file, 1, 1, 0, 0), "program is too deeply nested to compile; "
                    + "split long expressions into smaller ones");
            return new Result(null, diagnostics.all());
        }
    }

    // The checker finds some errors out of order (a missing return after the body's errors,
    // struct cycles before everything else); users read them best top to bottom.
    private static List<Diagnostic> inSourceOrder(List<Diagnostic> diagnostics, List<SourceFile> files) {
        List<String> names = files.stream().map(SourceFile::name).toList();
        return diagnostics.stream()
                .sorted(Comparator.comparingInt((Diagnostic d) -> names.indexOf(d.span().file()))
                        .thenComparingInt(d -> d.span().line())
                        .thenComparingInt(d -> d.span().col()))
                .toList();
    }

    /** Formats diagnostics with their source lines and carets, one after another. */
    public static String render(List<Diagnostic> diagnostics, List<SourceFile> files) {
        Map<String, SourceFile> byName = files.stream()
                .collect(Collectors.toMap(SourceFile::name, Function.identity(), (a, b) -> a));
        StringBuilder out = new StringBuilder();
        for (Diagnostic diagnostic : diagnostics) {
            SourceFile source = byName.get(diagnostic.span().file());
            out.append(source == null ? diagnostic.headline() : diagnostic.format(source)).append('\n');
        }
        return out.toString();
    }
}
