package dev.waldo.compiler.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.diag.Diagnostic;
import dev.waldo.compiler.diag.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CSet variables: where the type may appear, its element types and methods, with errors at file:line:col. */
class CSetCheckTest {
    private static Frontend.Result check(String text) {
        return Frontend.parseAndCheck(List.of(new SourceFile("c.wld", text)));
    }

    private static List<String> errors(String text) {
        return check(text).diagnostics().stream().map(Diagnostic::headline).toList();
    }

    @Test
    void aCSetVariableHasItsTypeAndMethodsWithBothSpellings() {
        Frontend.Result result = check("""
                Service Visits {
                    CSet(element: Text) seen;
                    CSet<Number> rooms;
                    Public Function visit(Text who) returns Number {
                        seen.add(who);
                        rooms.rem(3);
                        return seen.count(who) + len(rooms.elements());
                    }
                }
                """);
        assertThat(result.diagnostics()).isEmpty();
        KindInfo visits = result.program().kinds().get("Visits");
        assertThat(visits.variables().get("seen").type()).isEqualTo(new Type.CSetType(Type.TEXT));
        assertThat(visits.variables().get("rooms").type().display()).isEqualTo("CSet(element: Number)");
    }

    @Test
    void misusesAreReportedWhereTheyAreWritten() {
        assertThat(errors("""
                Endpoint E {
                    CSet(element: Endpoint) refs;
                    CSet(element: Text) seen;
                    Public Function f(CSet<Text> other) {
                        seen.insert('x');
                        Number n = seen.elements();
                    }
                }
                """)).containsExactly(
                "c.wld:2:19: error: CSet elements must be Number, Text or TrueFalse, found Endpoint",
                "c.wld:4:23: error: a CSet can only be the type of an endpoint or service variable (its adds and"
                        + " removes commute across transactions); read it with count() or elements()",
                "c.wld:5:14: error: CSet(element: Text) has no method 'insert'; its methods are add, rem, count"
                        + " and elements",
                "c.wld:6:20: error: type mismatch: the initial value of 'n' must be Number, found List(element: Text)");
    }

    @Test
    void aMalformedCSetTypeSaysHowToWriteIt() {
        assertThat(errors("""
                Endpoint E {
                    CSet[Text] seen;
                }
                """)).first().asString().startsWith("c.wld:2:9: error: expected '(' after 'CSet' (write CSet(element: T) or CSet<T>)");
    }
}
