package dev.waldo.compiler.emit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.diag.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which partner step carries the prepare ({@code $ctx.lastPartnerStep}): the sequence's last
 * partner step, when the first endpoint's own code after it can call no other host. Each case
 * compiles a small program and reads the first endpoint's emitted Java.
 */
class LastStepTest {
    private static final String KINDS = """
            Endpoint A {
                Number seen;
                Endpoint other;
                Public Function run() returns Number { return S(1); }
                Function helper() { seen += 1; }
            }
            Endpoint B {
                Number got;
                Public remote() { got += 1; }
            }
            """;

    /** Two steps: the partner's step is the last one, nothing runs after it. */
    @Test
    void theLastStepOfATwoStepSequenceCarriesThePrepare() {
        String java = firstEndpoint("""
                Sequence S(Number v) returns Number r {
                    A.one { r = v; }
                    B.two { got = v; r += 1; }
                }
                """);
        assertThat(java).contains("$ctx.lastPartnerStep(this, $frame, 1);").doesNotContain("$ctx.partnerStep(");
    }

    /** Four steps: only the last partner step carries it; the earlier one is a plain step. */
    @Test
    void onlyTheLastOfSeveralPartnerStepsCarriesIt() {
        String java = firstEndpoint("""
                Sequence S(Number v) returns Number r {
                    A.one { r = v; }
                    B.two { r += 1; }
                    A.three { r += 1; }
                    B.four { got = r; }
                }
                """);
        assertThat(java).contains("$ctx.partnerStep(this, $frame, 1);", "$ctx.lastPartnerStep(this, $frame, 3);");
    }

    /** A final own step that touches its data and calls built-ins only still lets the partner step carry it. */
    @Test
    void aFinalOwnStepWithDataAndBuiltinsOnlyKeepsTheMark() {
        String java = firstEndpoint("""
                Sequence S(Number v) returns Number r {
                    List(element: Text) trail;
                    A.one { r = v; }
                    B.two { r += 1; }
                    A.three { seen = r; trail.append(toText(len(trail))); print(r); }
                }
                """);
        assertThat(java).contains("$ctx.lastPartnerStep(this, $frame, 1);");
    }

    /** A final own step that calls a function of its endpoint (which could call out) keeps the plain step. */
    @Test
    void aFinalOwnStepThatCallsAFunctionKeepsThePlainStep() {
        String java = firstEndpoint("""
                Sequence S(Number v) returns Number r {
                    A.one { r = v; }
                    B.two { r += 1; }
                    A.three { if (r > 1) { helper(); } }
                }
                """);
        assertThat(java).contains("$ctx.partnerStep(this, $frame, 1);").doesNotContain("lastPartnerStep");
    }

    /** A final own step that calls another endpoint keeps the plain step. */
    @Test
    void aFinalOwnStepThatCallsAnotherEndpointKeepsThePlainStep() {
        String java = firstEndpoint("""
                Sequence S(Number v) returns Number r {
                    A.one { r = v; }
                    B.two { r += 1; }
                    A.three { other.remote(); }
                }
                """);
        assertThat(java).contains("$ctx.partnerStep(this, $frame, 1);").doesNotContain("lastPartnerStep");
    }

    private static String firstEndpoint(String sequence) {
        WaldoCompiler.Result result = WaldoCompiler.compile(
                List.of(new SourceFile("last_step.wld", KINDS + sequence)), "waldo.test");
        assertThat(result.ok()).as(result.rendered()).isTrue();
        return result.javaSources().entrySet().stream()
                .filter(source -> source.getKey().endsWith("/A.java"))
                .map(java.util.Map.Entry::getValue)
                .findFirst().orElseThrow(() -> new AssertionError("no A.java in " + result.javaSources().keySet()));
    }
}
