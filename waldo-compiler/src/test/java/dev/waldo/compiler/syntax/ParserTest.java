package dev.waldo.compiler.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.diag.Diagnostic;
import dev.waldo.compiler.diag.Diagnostics;
import dev.waldo.compiler.diag.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParserTest {

    private final Diagnostics diagnostics = new Diagnostics();

    private List<Decl> parse(String text) {
        return Parser.parse(new SourceFile("t.wld", text), diagnostics);
    }

    private List<String> errors() {
        return diagnostics.all().stream().map(Diagnostic::headline).toList();
    }

    @Test
    void parsesEndpointWithVariablesFunctionsAndOnCreate() {
        List<Decl> decls = parse("""
                Endpoint Client {
                    @snmp(oid: '1.3.6', index: -1, bound: True) Number count = 3;
                    List(element: Text) seen;
                    onCreate(Number start) { count = start; }
                    Public send_data(Text data) { seen.append(data); }
                    Private Function twice(Number n) returns Number { return n * 2; }
                    helper() { }
                }
                """);
        assertThat(errors()).isEmpty();
        Decl.EndpointDecl client = (Decl.EndpointDecl) decls.get(0);
        assertThat(client.name()).isEqualTo("Client");
        assertThat(client.members()).hasSize(6);
        VarDecl count = (VarDecl) client.members().get(0);
        assertThat(count.annotations().get(0).args()).extracting(Annotation.Arg::key)
                .containsExactly("oid", "index", "bound");
        assertThat(((Expr.NumberLit) count.annotations().get(0).args().get(1).value()).value()).isEqualTo(-1);
        Member.FunctionDecl send = (Member.FunctionDecl) client.members().get(3);
        assertThat(send.visibility()).isEqualTo(Member.Visibility.PUBLIC);
        assertThat(send.returnType()).isEqualTo(new TypeRef.Basic(TypeRef.BasicKind.NOTHING, send.nameSpan()));
        Member.FunctionDecl twice = (Member.FunctionDecl) client.members().get(4);
        assertThat(twice.visibility()).isEqualTo(Member.Visibility.PRIVATE);
        assertThat(((TypeRef.Basic) twice.returnType()).kind()).isEqualTo(TypeRef.BasicKind.NUMBER);
        assertThat(((Member.FunctionDecl) client.members().get(5)).name()).isEqualTo("helper");
    }

    @Test
    void parsesSequenceWithNamedResultDataAndSteps() {
        List<Decl> decls = parse("""
                Sequence Negotiation(Text hello) returns TrueFalse cipher_initialized {
                    List<Text> ciphers;
                    Client.send_ciphers { ciphers = ['a', 'b']; }
                    Server.choose_cipher { cipher_initialized = 'a' in ciphers; }
                }
                """);
        assertThat(errors()).isEmpty();
        Decl.SequenceDecl seq = (Decl.SequenceDecl) decls.get(0);
        assertThat(seq.resultName()).isEqualTo("cipher_initialized");
        assertThat(seq.data()).extracting(VarDecl::name).containsExactly("ciphers");
        assertThat(seq.data().get(0).type()).isInstanceOf(TypeRef.ListOf.class);
        assertThat(seq.steps()).extracting(Decl.Step::kind).containsExactly("Client", "Server");
        assertThat(seq.steps()).extracting(Decl.Step::name).containsExactly("send_ciphers", "choose_cipher");
    }

    @Test
    void precedenceFollowsTheLanguageTable() {
        Expr expr = onlyExpression("a or not b and c == 1 + 2 * -d");
        Expr.Binary or = (Expr.Binary) expr;
        assertThat(or.op()).isEqualTo(Expr.BinaryOp.OR);
        Expr.Binary and = (Expr.Binary) or.right();
        assertThat(and.op()).isEqualTo(Expr.BinaryOp.AND);
        assertThat(((Expr.Unary) and.left()).op()).isEqualTo(Expr.UnaryOp.NOT);
        Expr.Binary eq = (Expr.Binary) and.right();
        Expr.Binary plus = (Expr.Binary) eq.right();
        assertThat(plus.op()).isEqualTo(Expr.BinaryOp.ADD);
        Expr.Binary times = (Expr.Binary) plus.right();
        assertThat(times.right()).isInstanceOf(Expr.Unary.class);
    }

    @Test
    void binaryOperatorsAreLeftAssociativeAndNotInIsOneOperator() {
        Expr.Binary minus = (Expr.Binary) onlyExpression("1 - 2 - 3");
        assertThat(minus.left()).isInstanceOf(Expr.Binary.class);
        Expr.Binary notIn = (Expr.Binary) onlyExpression("x not in items");
        assertThat(notIn.op()).isEqualTo(Expr.BinaryOp.NOT_IN);
    }

    @Test
    void postfixChainsBuildCallsFieldsAndIndexes() {
        Expr expr = onlyExpression("subs[0].peer.send_data(f(1), 'x')");
        Expr.MethodCall call = (Expr.MethodCall) expr;
        assertThat(call.name()).isEqualTo("send_data");
        assertThat(call.args().get(0)).isInstanceOf(Expr.Call.class);
        Expr.Field field = (Expr.Field) call.receiver();
        assertThat(field.target()).isInstanceOf(Expr.Index.class);
    }

    @Test
    void parsesStatementForms() {
        List<Stmt> body = functionBody("""
                Number i = 0;
                i += 2;
                if (i > 1) i = 1; elseIf (i < 0) { i = 0; } else if (i == 0) i = 2; else i = 3;
                for (Text t in names) continue;
                for (k in keys(m)) break;
                while (True) { break; }
                try { f(); } catch (NetworkException nex) {} catch (Exception e) {} finally { g(); }
                abort();
                return;
                """);
        assertThat(errors()).isEmpty();
        assertThat(body).hasSize(9);
        Stmt.If chain = (Stmt.If) body.get(2);
        Stmt.If elseIf = (Stmt.If) chain.otherwise();
        Stmt.If elseIf2 = (Stmt.If) elseIf.otherwise();
        assertThat(elseIf2.otherwise()).isInstanceOf(Stmt.Assign.class);
        assertThat(((Stmt.For) body.get(3)).varType()).isNotNull();
        assertThat(((Stmt.For) body.get(4)).varType()).isNull();
        Stmt.Try tryStmt = (Stmt.Try) body.get(6);
        assertThat(tryStmt.catches()).extracting(Stmt.Catch::kind)
                .containsExactly(Stmt.CatchKind.NETWORK, Stmt.CatchKind.ANY);
        assertThat(tryStmt.finallyBlock()).isNotNull();
        assertThat(body.get(7)).isInstanceOf(Stmt.Abort.class);
    }

    @Test
    void parsesStructsAndStructTypedDeclarations() {
        List<Stmt> body = functionBody("Vlan v; Struct Vlan w; Map(from: Text, to: Vlan) m = {'a': v};");
        assertThat(errors()).isEmpty();
        assertThat(((VarDecl) body.get(0)).type()).isEqualTo(new TypeRef.Named("Vlan", ((VarDecl) body.get(0)).type().span()));
        assertThat(((VarDecl) body.get(2)).init()).isInstanceOf(Expr.MapLit.class);
    }

    @Test
    void reportsSeveralErrorsAndRecoversAtTheNextStatement() {
        parse("""
                Endpoint A {
                    Public f() {
                        Number x = ;
                        x = 1
                        Text t = 'ok';
                        f() = 2;
                    }
                    Number broken
                    Public g() { }
                }
                """);
        assertThat(errors()).containsExactly(
                "t.wld:3:20: error: expected an expression, found ';'",
                "t.wld:4:14: error: expected ';' after the assignment, found 'Text'",
                "t.wld:6:13: error: cannot assign to this expression; the left side of '=' must be a variable, a field or an element",
                "t.wld:8:18: error: expected ';' after the declaration of 'broken', found 'Public'");
    }

    @Test
    void missingClosingBraceAtEndOfFileIsOneError() {
        parse("Endpoint A {\n Public f() {\n if (True) {\n");
        assertThat(errors()).hasSize(1);
        assertThat(errors().get(0)).contains("expected '}'").contains("end of file");
    }

    @Test
    void deepNestingIsReportedNotAStackOverflow() {
        String deep = "(".repeat(5000) + "1" + ")".repeat(5000);
        functionBody("Number x = " + deep + ";");
        assertThat(errors()).anyMatch(e -> e.contains("nested too deeply"));
    }

    @Test
    void docCommentsStayOnTheirDeclarations() {
        List<Decl> decls = parse("""
                /** The server side. */
                Endpoint S {
                    /** Times pinged. */
                    @audit Number pings;
                    /** Pings once. */
                    Public ping() { }
                }
                /** A point. */
                Struct P { /** Across. */ Number x; }
                """);
        assertThat(errors()).isEmpty();
        Decl.EndpointDecl server = (Decl.EndpointDecl) decls.get(0);
        assertThat(server.doc()).isEqualTo("The server side.");
        assertThat(((VarDecl) server.members().get(0)).doc()).isEqualTo("Times pinged.");
        assertThat(((Member.FunctionDecl) server.members().get(1)).doc()).isEqualTo("Pings once.");
        Decl.StructDecl point = (Decl.StructDecl) decls.get(1);
        assertThat(point.doc()).isEqualTo("A point.");
        assertThat(point.fields().get(0).doc()).isEqualTo("Across.");
    }

    @Test
    void spansCoverTheWholeNode() {
        Expr.Binary sum = (Expr.Binary) onlyExpression("f(1) + xs[2]");
        assertThat(sum.span().col()).isEqualTo(5);
        assertThat(sum.span().end() - sum.span().start()).isEqualTo("f(1) + xs[2]".length());
        Expr.Call call = (Expr.Call) sum.left();
        assertThat(call.nameSpan().end() - call.nameSpan().start()).isEqualTo(1);
        assertThat(call.span().end() - call.span().start()).isEqualTo(4);
    }

    private Expr onlyExpression(String source) {
        List<Stmt> body = functionBody("x = " + source + ";");
        assertThat(errors()).isEmpty();
        return ((Stmt.Assign) body.get(0)).value();
    }

    private List<Stmt> functionBody(String statements) {
        List<Decl> decls = parse("Endpoint E { f() {\n" + statements + "\n} }");
        if (decls.isEmpty()) {
            return List.of();
        }
        Member.FunctionDecl f = (Member.FunctionDecl) ((Decl.EndpointDecl) decls.get(0)).members().get(0);
        return f.body().stmts();
    }
}
