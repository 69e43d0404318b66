package dev.waldo.compiler.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.diag.Diagnostic;
import dev.waldo.compiler.diag.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrontendTest {
    private static final SourceFile KINDS = new SourceFile("kinds.wld", """
            Endpoint Client {
                Public go() { Ping(); }
            }
            Endpoint Server { Number pings; }
            """);
    private static final SourceFile PROTOCOL = new SourceFile("protocol.wld", """
            Sequence Ping() {
                Client.send { }
                Server.receive { pings += 1; }
            }
            """);

    @Test
    void filesFormOneProgramInAnyOrder() {
        Frontend.Result result = Frontend.parseAndCheck(List.of(PROTOCOL, KINDS));
        assertThat(result.diagnostics()).isEmpty();
        assertThat(result.ok()).isTrue();
        assertThat(result.program().kinds()).containsOnlyKeys("Client", "Server");
        assertThat(result.program().program().decls()).extracting(d -> d.nameSpan().file())
                .containsExactly("protocol.wld", "kinds.wld", "kinds.wld");
    }

    @Test
    void duplicateAcrossFilesNamesTheOtherFile() {
        SourceFile again = new SourceFile("again.wld", "Endpoint Server { }\n");
        Frontend.Result result = Frontend.parseAndCheck(List.of(KINDS, PROTOCOL, again));
        assertThat(result.ok()).isFalse();
        assertThat(result.diagnostics()).extracting(Diagnostic::headline).containsExactly(
                "again.wld:1:10: error: duplicate declaration: 'Server' is already declared at kinds.wld:4");
    }

    @Test
    void stopsAfterSyntaxErrorsSoTheCheckerDoesNotEchoThem() {
        SourceFile broken = new SourceFile("broken.wld", "Endpoint Client {\n    Public go() { Ping(; }\n}\n");
        SourceFile illTyped = new SourceFile("typed.wld", "Endpoint T { Public f() { Number x = 'a'; } }\n");
        Frontend.Result result = Frontend.parseAndCheck(List.of(broken, illTyped, PROTOCOL));
        assertThat(result.program()).isNull();
        assertThat(result.diagnostics()).extracting(Diagnostic::headline)
                .containsExactly("broken.wld:2:24: error: expected an expression, found ';'");
    }

    @Test
    void rendersEachDiagnosticWithItsLineAndCaret() {
        SourceFile file = new SourceFile("r.wld", "Endpoint A {\n    Public f() { x = 1; }\n}\n");
        Frontend.Result result = Frontend.parseAndCheck(List.of(file));
        assertThat(Frontend.render(result.diagnostics(), List.of(file))).isEqualTo("""
                r.wld:2:18: error: undefined variable 'x'
                    Public f() { x = 1; }
                                 ^
                """);
    }

    @Test
    void emptyInputIsAnEmptyProgram() {
        Frontend.Result result = Frontend.parseAndCheck(List.of(new SourceFile("empty.wld", "")));
        assertThat(result.ok()).isTrue();
        assertThat(result.program().kinds()).isEmpty();
    }

    @Test
    void diagnosticsComeInSourceOrder() {
        SourceFile file = new SourceFile("o.wld", """
                Endpoint A {
                    Function f() returns Number {
                        Number x = 'a';
                    }
                }
                Struct Loop { Loop next; }
                """);
        Frontend.Result result = Frontend.parseAndCheck(List.of(file));
        assertThat(result.diagnostics()).extracting(d -> d.span().line()).containsExactly(2, 3, 6);
    }
}
