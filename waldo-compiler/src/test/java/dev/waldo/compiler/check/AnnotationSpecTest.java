package dev.waldo.compiler.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.diag.Diagnostic;
import dev.waldo.compiler.diag.SourceFile;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * An annotation whose meaning the driver declares ({@link AnnotationSpec}) is checked against it
 * at every use, with errors at the argument or variable that breaks it; without a spec the same
 * program compiles, because annotations mean nothing to the language itself.
 */
class AnnotationSpecTest {
    private static final AnnotationSpec LIGHT = new AnnotationSpec("light", List.of(
            new AnnotationSpec.Argument("channel", Type.NUMBER, true, null, null),
            new AnnotationSpec.Argument("group", Type.TEXT, false, Pattern.compile("[a-z]+"),
                    "a lower-case word, e.g. 'hall'"),
            new AnnotationSpec.Argument("dimmable", Type.BOOL, false, null, null)),
            List.of(Type.NUMBER), "a light channel holds a Number", true);

    private static List<String> errors(String text, AnnotationSpec... specs) {
        Frontend.Result result = Frontend.parseAndCheck(List.of(new SourceFile("l.wld", text)), List.of(specs));
        return result.diagnostics().stream().map(Diagnostic::headline).toList();
    }

    @Test
    void aUseThatFitsTheSpecCompiles() {
        assertThat(errors("""
                Service Lamp {
                    @light(channel: 3, group: 'hall', dimmable: True) Number level;
                    @light(channel: 4) Number spot;
                }
                """, LIGHT)).isEmpty();
    }

    @Test
    void everyBreachIsReportedAtTheArgumentOrVariableThatBreaksIt() {
        assertThat(errors("""
                Service Lamp {
                    @light(channel: 'three') Number a;
                    @light(group: 'Hall 2', channel: 1) Number b;
                    @light(colour: 'red') Number c;
                    @light(channel: 5) Text d;
                }
                Endpoint Panel {
                    @light(channel: 6) Number e;
                }
                """, LIGHT)).containsExactly(
                "l.wld:2:12: error: @light's argument 'channel' is Number, not Text",
                "l.wld:3:19: error: 'Hall 2' is not a valid group for @light: a lower-case word, e.g. 'hall'",
                "l.wld:4:5: error: @light needs argument 'channel' (Number)",
                "l.wld:4:12: error: @light has no argument 'colour'; it takes channel: Number, group: Text,"
                        + " dimmable: TrueFalse",
                "l.wld:5:29: error: @light variable 'd' is Text; a light channel holds a Number",
                "l.wld:8:5: error: @light variables belong in a Service; Panel is an Endpoint");
    }

    @Test
    void theErrorShowsTheLineWithACaretUnderTheArgument() {
        WaldoCompiler.Result result = WaldoCompiler.compile(List.of(new SourceFile("l.wld",
                "Service Lamp {\n    @light(channel: True) Number a;\n}\n")), "x", List.of(LIGHT));
        assertThat(result.rendered()).isEqualTo("""
                l.wld:2:12: error: @light's argument 'channel' is Number, not TrueFalse
                    @light(channel: True) Number a;
                           ^
                """);
    }

    @Test
    void withoutASpecTheSameAnnotationsAreOnlyMetadata() {
        assertThat(errors("""
                Endpoint Panel {
                    @light(colour: 'red') Text d;
                }
                """)).isEmpty();
    }
}
