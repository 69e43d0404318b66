package dev.waldo.compiler.diag;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DiagnosticTest {

    @Test
    void formatsHeadlineSourceLineAndCaret() {
        SourceFile source = new SourceFile("pubsub.wld", "Endpoint A {\n    Push(x;\n}\n");
        Diagnostic diagnostic = new Diagnostic(new Span("pubsub.wld", 2, 11, 23, 24),
                "expected ')' after the arguments, found ';'");
        assertThat(diagnostic.format(source)).isEqualTo("""
                pubsub.wld:2:11: error: expected ')' after the arguments, found ';'
                    Push(x;
                          ^""");
    }

    @Test
    void caretKeepsTabsSoItLinesUp() {
        SourceFile source = new SourceFile("t.wld", "\tx = ;\r\n");
        Diagnostic diagnostic = new Diagnostic(new Span("t.wld", 1, 6, 5, 6), "expected an expression");
        assertThat(diagnostic.format(source)).endsWith("\tx = ;\n\t    ^");
    }

    @Test
    void linePastTheEndOfTheFileIsEmpty() {
        assertThat(new SourceFile("t.wld", "one").lineText(5)).isEmpty();
    }
}
