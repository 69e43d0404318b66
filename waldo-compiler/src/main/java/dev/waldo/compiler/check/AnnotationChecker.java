package dev.waldo.compiler.check;

import dev.waldo.compiler.check.Symbol.MemberVar;
import dev.waldo.compiler.diag.Diagnostics;
import dev.waldo.compiler.syntax.Annotation;
import dev.waldo.compiler.syntax.Expr;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Checks the annotations on endpoint and service variables. Every annotation: each argument name
 * is given once, and a variable carries each annotation once (a binding is told one annotation
 * per changed variable). An annotation with an {@link AnnotationSpec}: its arguments are the
 * spec's, of the spec's types and forms, the required ones present; the variable's type and kind
 * are ones it can bind. The parser already made every value a literal.
 */
final class AnnotationChecker {
    private final Diagnostics diagnostics;
    private final Map<String, AnnotationSpec> specs;

    AnnotationChecker(Diagnostics diagnostics, Iterable<AnnotationSpec> specs) {
        this.diagnostics = diagnostics;
        this.specs = new HashMap<>();
        specs.forEach(spec -> this.specs.put(spec.name(), spec));
    }

    void check(KindInfo kind) {
        for (MemberVar variable : kind.variables().values()) {
            Map<String, Annotation> seen = new HashMap<>();
            for (Annotation annotation : variable.decl().annotations()) {
                Annotation first = seen.putIfAbsent(annotation.name(), annotation);
                if (first != null) {
                    diagnostics.error(annotation.span(), "@" + annotation.name() + " is already on '"
                            + variable.name() + "' (line " + first.span().line() + "); a variable carries each"
                            + " annotation once");
                    continue;
                }
                uniqueArguments(annotation);
                AnnotationSpec spec = specs.get(annotation.name());
                if (spec != null) {
                    new Use(kind, variable, annotation, spec).check();
                }
            }
        }
    }

    private void uniqueArguments(Annotation annotation) {
        Map<String, Annotation.Arg> seen = new HashMap<>();
        for (Annotation.Arg arg : annotation.args()) {
            Annotation.Arg first = seen.putIfAbsent(arg.key(), arg);
            if (first != null) {
                diagnostics.error(arg.span(), "@" + annotation.name() + " already has argument '" + arg.key()
                        + "' (column " + first.span().col() + "); give each argument once");
            }
        }
    }

    /** One use of an annotation that has a spec. */
    private final class Use {
        private final KindInfo kind;
        private final MemberVar variable;
        private final Annotation annotation;
        private final AnnotationSpec spec;

        Use(KindInfo kind, MemberVar variable, Annotation annotation, AnnotationSpec spec) {
            this.kind = kind;
            this.variable = variable;
            this.annotation = annotation;
            this.spec = spec;
        }

        void check() {
            if (spec.servicesOnly() && !kind.isService()) {
                diagnostics.error(annotation.span(), "@" + spec.name() + " variables belong in a Service; "
                        + kind.name() + " is an Endpoint");
                return;
            }
            for (Annotation.Arg arg : annotation.args()) {
                argument(arg);
            }
            for (AnnotationSpec.Argument required : spec.arguments()) {
                if (required.required() && annotation.args().stream().noneMatch(a -> a.key().equals(required.key()))) {
                    diagnostics.error(annotation.span(), "@" + spec.name() + " needs argument '" + required.key()
                            + "' (" + required.type().display() + ")" + example(required));
                }
            }
            if (!spec.variableTypes().isEmpty() && !variable.type().equals(Type.ERROR)
                    && !spec.variableTypes().contains(variable.type())) {
                diagnostics.error(variable.decl().nameSpan(), "@" + spec.name() + " variable '" + variable.name()
                        + "' is " + variable.type().display() + "; " + spec.typesHint());
            }
        }

        private void argument(Annotation.Arg arg) {
            AnnotationSpec.Argument expected = spec.argument(arg.key());
            if (expected == null) {
                diagnostics.error(arg.span(), "@" + spec.name() + " has no argument '" + arg.key() + "'; it takes "
                        + (spec.arguments().isEmpty() ? "none" : spec.arguments().stream()
                                .map(AnnotationSpec.Argument::described).collect(Collectors.joining(", "))));
                return;
            }
            Type given = typeOf(arg.value());
            if (!given.equals(expected.type())) {
                diagnostics.error(arg.span(), "@" + spec.name() + "'s argument '" + arg.key() + "' is "
                        + expected.type().display() + ", not " + given.display() + example(expected));
                return;
            }
            if (expected.format() != null && arg.value() instanceof Expr.TextLit text
                    && !expected.format().matcher(text.value()).matches()) {
                diagnostics.error(arg.value().span(), "'" + text.value() + "' is not a valid " + arg.key()
                        + " for @" + spec.name() + example(expected));
            }
        }

        private String example(AnnotationSpec.Argument argument) {
            return argument.formatHint() == null ? "" : ": " + argument.formatHint();
        }
    }

    /** The type of a literal annotation value (the parser allows nothing else). */
    private static Type typeOf(Expr value) {
        return switch (value) {
            case Expr.TextLit t -> Type.TEXT;
            case Expr.BoolLit b -> Type.BOOL;
            default -> Type.NUMBER;  // a number, possibly negated
        };
    }
}
