package dev.waldo.compiler.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.corpus.CorpusCase;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.syntax.Decl;
import dev.waldo.compiler.syntax.Expr;
import dev.waldo.compiler.syntax.Member;
import dev.waldo.compiler.syntax.Param;
import dev.waldo.compiler.syntax.Stmt;
import dev.waldo.compiler.syntax.TypeRef;
import dev.waldo.compiler.syntax.VarDecl;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Tests what the checker hands the emitter: types, resolutions and sequence facts. */
class CheckerTest {

    private static CheckedProgram check(String text) {
        Frontend.Result result = Frontend.parseAndCheck(List.of(new SourceFile("c.wld", text)));
        assertThat(result.diagnostics()).isEmpty();
        return result.program();
    }

    @Test
    void resolvesEveryKindOfName() {
        CheckedProgram program = check("""
                Endpoint A {
                    Number count;
                    Public Function f(Number p) returns Number {
                        Number local = p;
                        for (Number i in range(2)) { local += i; }
                        try { count += 1; } catch (Exception e) { print(e); }
                        return local + count;
                    }
                }
                """);
        Map<String, Symbol> byName = namesIn(program);
        assertThat(byName.get("count")).isInstanceOf(Symbol.MemberVar.class);
        assertThat(byName.get("p")).isInstanceOf(Symbol.ParamVar.class);
        assertThat(byName.get("local")).isInstanceOf(Symbol.LocalVar.class);
        assertThat(byName.get("i")).isInstanceOf(Symbol.LoopVar.class);
        assertThat(byName.get("e")).isInstanceOf(Symbol.CatchVar.class);
        Symbol.FunctionSym f = program.kinds().get("A").functions().get("f");
        assertThat(f.params()).containsExactly(Type.NUMBER);
        assertThat(f.returnType()).isEqualTo(Type.NUMBER);
        assertThat(f.isPublic()).isTrue();
    }

    @Test
    void sequenceInfoGivesKindsOrderDataAndPartners() {
        CheckedProgram program = check("""
                Endpoint Client { Public Function go() returns TrueFalse { return Hello(1); } }
                Endpoint Server { }
                Sequence Hello(Number n) returns TrueFalse ok {
                    Text note;
                    Client.a { note = 'x'; }
                    Server.b { ok = n > 0; }
                    Client.c { }
                }
                """);
        SequenceInfo hello = program.sequences().get("Hello");
        assertThat(hello.firstKind()).isEqualTo("Client");
        assertThat(hello.secondKind()).isEqualTo("Server");
        assertThat(hello.steps()).extracting(Decl.Step::name).containsExactly("a", "b", "c");
        assertThat(hello.params()).extracting(Symbol.SequenceData::name).containsExactly("n");
        assertThat(hello.data()).extracting(Symbol.SequenceData::name).containsExactly("note");
        assertThat(hello.result().name()).isEqualTo("ok");
        assertThat(hello.resultType()).isEqualTo(Type.BOOL);
        assertThat(program.kinds().get("Client").partner()).isEqualTo("Server");
        assertThat(program.kinds().get("Server").partner()).isEqualTo("Client");
        Map<String, Symbol> byName = namesIn(program);
        assertThat(byName.get("ok")).isInstanceOfSatisfying(Symbol.SequenceData.class,
                d -> assertThat(d.role()).isEqualTo(Symbol.DataRole.RESULT));
        assertThat(byName.get("Hello")).isInstanceOf(Symbol.SequenceSym.class);
    }

    @Test
    void remoteCallsListTheirCandidatesAndSettleDynamicResults() {
        CheckedProgram program = check("""
                Endpoint P { Public Function read() returns Number { return 1; } }
                Endpoint Q { Public Function read() returns Text { return 'q'; } }
                Service S {
                    Public Function f(Endpoint e) returns Number {
                        e.read();
                        Number n = e.read();
                        return n;
                    }
                }
                """);
        List<Expr.MethodCall> calls = nodes(program, Expr.MethodCall.class);
        assertThat(calls).hasSize(2);
        assertThat(program.symbolOf(calls.get(0))).isInstanceOfSatisfying(Symbol.RemoteCall.class,
                r -> assertThat(r.candidates()).extracting(Symbol.FunctionSym::owner).containsExactly("P", "Q"));
        assertThat(program.typeOf(calls.get(0))).isEqualTo(Type.DYNAMIC);
        assertThat(program.typeOf(calls.get(1))).isEqualTo(Type.NUMBER);
    }

    @Test
    void builtinsAndMethodsResolveToTheirKinds() {
        CheckedProgram program = check("""
                Endpoint A {
                    Private h() { }
                    Public f() {
                        List(element: Text) xs;
                        Map(from: Text, to: Number) m;
                        xs.append(toText(len(xs)));
                        m.remove('k');
                        self.h();
                    }
                }
                """);
        List<Symbol> symbols = new ArrayList<>();
        nodes(program, Expr.MethodCall.class).forEach(c -> symbols.add(program.symbolOf(c)));
        nodes(program, Expr.Call.class).forEach(c -> symbols.add(program.symbolOf(c)));
        assertThat(symbols).containsExactlyInAnyOrder(
                new Symbol.BuiltinMethod("append", Symbol.Method.LIST_APPEND),
                new Symbol.BuiltinMethod("remove", Symbol.Method.MAP_REMOVE),
                program.kinds().get("A").functions().get("h"),
                new Symbol.BuiltinFn("toText", Symbol.Builtin.TO_TEXT),
                new Symbol.BuiltinFn("len", Symbol.Builtin.LEN));
    }

    @Test
    void emptyLiteralsTakeTheirTypeFromContext() {
        CheckedProgram program = check("""
                Endpoint A { Public f() { Map(from: Text, to: List(element: Number)) m = {'a': []}; } }
                """);
        Expr.ListLit empty = nodes(program, Expr.ListLit.class).get(0);
        assertThat(program.typeOf(empty)).isEqualTo(new Type.ListType(Type.NUMBER));
    }

    @Test
    void forOverAnExistingVariableResolvesToIt() {
        CheckedProgram program = check("Endpoint A { Number last; Public f() { for (last in [1]) { } } }");
        Stmt.For loop = nodes(program, Stmt.For.class).get(0);
        assertThat(program.symbolOf(loop)).isInstanceOf(Symbol.MemberVar.class);
    }

    /**
     * The contract with the emitter, on every corpus program that checks: every expression has
     * a type (never ERROR; DYNAMIC only on a call whose value is discarded), every name, call
     * and declaration has a symbol, and every written type is resolved.
     */
    @TestFactory
    Stream<DynamicTest> everyCheckedCorpusProgramIsFullyAnnotated() {
        return CorpusCase.loadAll().stream().filter(c -> !c.isErrorCase())
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> assertFullyAnnotated(c)));
    }

    private static void assertFullyAnnotated(CorpusCase c) {
        CheckedProgram program = Frontend.parseAndCheck(List.of(c.source())).program();
        List<Object> all = nodes(program, Object.class);
        // Struct fields are described by StructInfo.fields(), not by symbols.
        nodes(program, Decl.StructDecl.class).forEach(s -> s.fields().forEach(f -> all.removeIf(n -> n == f)));
        IdentityHashMap<Expr, Boolean> discarded = new IdentityHashMap<>();
        nodes(program, Stmt.ExprStmt.class).forEach(s -> discarded.put(s.expr(), true));
        for (Object node : all) {
            if (node instanceof Expr expr) {
                Type type = program.typeOf(expr);
                assertThat(type).as("type of %s", expr).isNotNull().isNotEqualTo(Type.ERROR);
                if (type instanceof Type.DynamicType) {
                    assertThat(discarded).as("dynamic only when discarded: %s", expr).containsKey(expr);
                }
            }
            if (node instanceof Expr.Name || node instanceof Expr.Call || node instanceof Expr.MethodCall
                    || node instanceof VarDecl || node instanceof Param || node instanceof Stmt.For
                    || node instanceof Stmt.Catch || node instanceof Member.FunctionDecl) {
                assertThat(program.symbolOf(node)).as("symbol of %s", node).isNotNull();
            }
            if (node instanceof TypeRef ref) {
                assertThat(program.typeOf(ref)).as("type of %s", ref).isNotNull();
            }
        }
    }

    private static Map<String, Symbol> namesIn(CheckedProgram program) {
        Map<String, Symbol> byName = new java.util.HashMap<>();
        for (Expr.Name name : nodes(program, Expr.Name.class)) {
            byName.put(name.name(), program.symbolOf(name));
        }
        for (Expr.Call call : nodes(program, Expr.Call.class)) {
            byName.put(call.name(), program.symbolOf(call));
        }
        return byName;
    }

    /** Every syntax node of {@code type} in the program, in tree order, found through record components. */
    static <T> List<T> nodes(CheckedProgram program, Class<T> type) {
        List<T> found = new ArrayList<>();
        program.program().decls().forEach(d -> collect(d, type, found));
        return found;
    }

    private static <T> void collect(Object node, Class<T> type, List<T> found) {
        if (node instanceof List<?> list) {
            list.forEach(item -> collect(item, type, found));
            return;
        }
        if (node == null || !node.getClass().isRecord()
                || !node.getClass().getPackageName().startsWith("dev.waldo.compiler.syntax")) {
            return;
        }
        if (type.isInstance(node)) {
            found.add(type.cast(node));
        }
        for (RecordComponent component : node.getClass().getRecordComponents()) {
            try {
                collect(component.getAccessor().invoke(node), type, found);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
    }
}
