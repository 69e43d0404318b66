package dev.waldo.compiler.emit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.diag.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which call to another endpoint carries the prepare ({@code $ctx.lastCall}): the final top-level
 * statement of a Public function that no Waldo code calls directly, when it is a remote call.
 * Each case compiles a small program and reads endpoint A's emitted Java.
 */
class LastCallTest {
    private static final String B = """
            Endpoint B {
                Number got;
                Public put(Number v) { got = v; }
                Public value() returns Number { return got; }
            }
            """;

    @Test
    void aRemoteCallThatEndsThePublicBodyCarriesThePrepare() {
        String java = endpointA("""
                Endpoint A {
                    Number sent;
                    Endpoint other;
                    Public send(Number v) { sent = v; other.put(v); }
                }
                """);
        assertThat(java).contains("$ctx.lastCall(this.other.read($ctx), \"put\", v);").doesNotContain("$ctx.call(");
    }

    @Test
    void aReturnedRemoteCallCarriesItAndEarlierCallsStayPlain() {
        String java = endpointA("""
                Endpoint A {
                    Endpoint other;
                    Public swap(Number v) returns Number { other.put(v + other.value()); return other.value(); }
                }
                """);
        assertThat(java).containsOnlyOnce("$ctx.lastCall(").contains("return Dispatch.result($ctx.lastCall(")
                .contains("$ctx.call(this.other.read($ctx), \"put\"");
    }

    @Test
    void aRemoteCallFollowedByOtherWorkStaysPlain() {
        String java = endpointA("""
                Endpoint A {
                    Number sent;
                    Endpoint other;
                    Public send(Number v) { other.put(v); sent = v; }
                }
                """);
        assertThat(java).contains("$ctx.call(").doesNotContain("lastCall");
    }

    @Test
    void aPublicFunctionThatOtherCodeCallsDirectlyStaysPlain() {
        String java = endpointA("""
                Endpoint A {
                    Endpoint other;
                    Public send(Number v) { other.put(v); }
                    Public twice(Number v) { send(v); send(v + 1); }
                }
                """);
        assertThat(java).doesNotContain("lastCall");
    }

    @Test
    void aPrivateFunctionStaysPlain() {
        String java = endpointA("""
                Endpoint A {
                    Endpoint other;
                    Function send(Number v) { other.put(v); }
                }
                """);
        assertThat(java).contains("$ctx.call(").doesNotContain("lastCall");
    }

    private static String endpointA(String a) {
        WaldoCompiler.Result result = WaldoCompiler.compile(
                List.of(new SourceFile("last_call.wld", a + B)), "waldo.test");
        assertThat(result.ok()).as(result.rendered()).isTrue();
        return result.javaSources().entrySet().stream()
                .filter(source -> source.getKey().endsWith("/A.java"))
                .map(java.util.Map.Entry::getValue)
                .findFirst().orElseThrow(() -> new AssertionError("no A.java in " + result.javaSources().keySet()));
    }
}
