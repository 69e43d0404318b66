package dev.waldo.compiler.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.diag.Diagnostics;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.syntax.Decl;
import dev.waldo.compiler.syntax.Expr;
import dev.waldo.compiler.syntax.Member;
import dev.waldo.compiler.syntax.Parser;
import dev.waldo.compiler.syntax.Stmt;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Constant folding: what folds, to what, and what must stay for run time. */
class ConstantsTest {

    @Test
    void foldsLiteralsAndOperatorsWithTheRunTimesSemantics() {
        assertThat(fold("1 + 2 * 3")).contains(7.0);
        assertThat(fold("-(1 - 3)")).contains(2.0);
        assertThat(fold("7 % -2")).contains(1.0);
        assertThat(fold("1 / 4")).contains(0.25);
        assertThat(fold("not (1 > 2) and 'a' < 'b'")).contains(true);
        assertThat(fold("'ab' + 'c' == 'abc'")).contains(true);
        assertThat(fold("'b' in 'abc'")).contains(true);
        assertThat(fold("'z' not in 'abc'")).contains(true);
        assertThat(fold("False or True == True")).contains(true);
        assertThat(fold("0.1 + 0.2 == 0.3")).contains(false);
        assertThat(fold("1e308 * 10 - 1e308 * 10 != 1e308 * 10 - 1e308 * 10")).contains(true);  // NaN
    }

    @Test
    void whatRaisesOrReadsStateIsNotAConstant() {
        assertThat(fold("1 / 0 > 0")).isEmpty();
        assertThat(fold("5 % 0")).isEmpty();
        assertThat(fold("x > 1")).isEmpty();
        assertThat(fold("False and x > 1")).isEmpty();
        assertThat(fold("len('abc') == 3")).isEmpty();
        assertThat(fold("1 + 'a'")).isEmpty();
    }

    @Test
    void truthIsOnlyForTrueFalseConstants() {
        assertThat(Constants.truth(expr("1 < 2"))).contains(true);
        assertThat(Constants.truth(expr("1 + 2"))).isEmpty();
    }

    private static Optional<Object> fold(String expression) {
        return Constants.value(expr(expression));
    }

    /** Parses {@code expression} as the value of an expression statement in a function body. */
    private static Expr expr(String expression) {
        SourceFile source = new SourceFile("c.wld", "Endpoint E { f(Number x) { " + expression + "; } }");
        Diagnostics diagnostics = new Diagnostics();
        List<Decl> decls = Parser.parse(source, diagnostics);
        assertThat(diagnostics.all()).isEmpty();
        Decl.EndpointDecl endpoint = (Decl.EndpointDecl) decls.get(0);
        Member.FunctionDecl function = (Member.FunctionDecl) endpoint.members().get(0);
        return ((Stmt.ExprStmt) function.body().stmts().get(0)).expr();
    }
}
