package dev.waldo.compiler.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.corpus.CorpusCase;
import dev.waldo.compiler.diag.Diagnostic;
import dev.waldo.compiler.diag.Diagnostics;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.syntax.Lexer;
import dev.waldo.compiler.syntax.Token;
import dev.waldo.compiler.syntax.TokenType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Feeds the front end random and mutated programs. Whatever the input, the outcome must be a
 * checked program with no diagnostics or no program with at least one diagnostic, and every
 * diagnostic must render with its source line: never an exception.
 */
class FrontendFuzzTest {
    private static final List<CorpusCase> CORPUS = CorpusCase.loadAll();

    /** Words that make up token soup: every keyword and operator plus names and literals. */
    private static final List<String> WORDS = vocabulary();

    private static List<String> vocabulary() {
        List<String> words = new ArrayList<>();
        for (TokenType type : TokenType.values()) {
            if (type.spelling() != null) {
                words.add(type.spelling());
            }
        }
        words.addAll(List.of("Main", "main", "x", "y", "Vlan", "A", "B", "print", "len", "range",
                "keys", "toText", "id", "append", "remove", "0", "1", "2.5", "1e3", "'t'", "\"u\"",
                "'unterminated", "/*", "*/", "/**", "//", "\n", "NetworkException", "Exception", "\\", "#"));
        return List.copyOf(words);
    }

    @Property(tries = 400)
    void tokenSoupNeverCrashes(@ForAll("soup") String text) {
        assertOutcome(text);
    }

    @Provide
    Arbitrary<String> soup() {
        return Arbitraries.of(WORDS).list().ofMaxSize(80).map(words -> String.join(" ", words));
    }

    @Property(tries = 200)
    void randomBytesNeverCrash(@ForAll @Size(max = 400) byte[] bytes) {
        assertOutcome(new String(bytes, StandardCharsets.UTF_8));
    }

    @Property(tries = 200)
    void randomPrintableTextNeverCrashes(@ForAll("printable") String text) {
        assertOutcome(text);
    }

    @Provide
    Arbitrary<String> printable() {
        return Arbitraries.strings().withCharRange(' ', '~').withChars('\n', '\t').ofMaxLength(300);
    }

    @Property(tries = 1200)
    void mutatedCorpusProgramsNeverCrash(@ForAll("mutants") String text) {
        assertOutcome(text);
    }

    @Provide
    Arbitrary<String> mutants() {
        return Combinators.combine(Arbitraries.of(CORPUS), Arbitraries.longs(), Arbitraries.integers().between(1, 4))
                .as((c, seed, count) -> mutate(c.source().text(), new Random(seed), count));
    }

    /**
     * Well-formed programs with random, mostly ill-typed expressions and statements over
     * variables of every type: these get past the parser and exercise every checker rule.
     */
    @Property(tries = 1000)
    void randomWellFormedProgramsNeverCrash(@ForAll("statements") List<String> statements) {
        assertOutcome(SKELETON.replace("$BODY", String.join("\n", statements)));
    }

    private static final String SKELETON = """
            Struct S { Number n; Text t; List<S> kids; }
            Endpoint Peer { Public Function get(Number k) returns Number { return k; } }
            Endpoint Main {
                Number n; Text t; TrueFalse b; Endpoint e; List<Number> ln; List<Text> lt;
                Map(from: Text, to: Number) m; S s;
                Public Function f(Number x) returns Number {
                    $BODY
                }
                Private g(Text y) { }
            }
            Sequence Q(Number q) returns Number r {
                Main.one { r = q; }
                Peer.two { }
            }
            """;

    @Provide
    Arbitrary<List<String>> statements() {
        return statement(3).list().ofMaxSize(6);
    }

    private Arbitrary<String> statement(int depth) {
        Arbitrary<String> expr = expression(3);
        Arbitrary<String> simple = Arbitraries.oneOf(
                expr.map(x -> x + ";"),
                Combinators.combine(Arbitraries.of("n", "t", "b", "ln[0]", "m['k']", "s.n", "s.kids[0].t", "x"),
                        Arbitraries.of("=", "+=", "-="), expr).as((l, op, r) -> l + " " + op + " " + r + ";"),
                Combinators.combine(Arbitraries.of("Number", "Text", "List<Number>", "S", "Map<Text, S>"),
                        Arbitraries.of("v", "w", "n"), expr).as((t, v, x) -> t + " " + v + " = " + x + ";"),
                Arbitraries.of("return;", "break;", "continue;", "abort();", "return x;"),
                expr.map(x -> "return " + x + ";"));
        if (depth == 0) {
            return simple;
        }
        Arbitrary<String> inner = Arbitraries.lazy(() -> statement(depth - 1));
        return Arbitraries.oneOf(simple,
                Combinators.combine(expr, inner, inner).as((c, a, b) -> "if (" + c + ") { " + a + " } else " + b),
                Combinators.combine(expr, inner).as((c, a) -> "while (" + c + ") { " + a + " }"),
                Combinators.combine(Arbitraries.of("Number i", "i", "Text i", "n"), expr, inner)
                        .as((v, c, a) -> "for (" + v + " in " + c + ") { " + a + " }"),
                Combinators.combine(inner, inner).as((a, b) -> "try { " + a + " } catch (NetworkException z) { " + b + " }"));
    }

    private Arbitrary<String> expression(int depth) {
        Arbitrary<String> leaf = Arbitraries.of("1", "2.5", "'a'", "True", "n", "t", "b", "e", "ln", "lt", "m",
                "s", "x", "q", "r", "self", "[]", "{}", "[1, 2]", "['a']", "{'k': 1}", "id()", "nothing");
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<String> sub = Arbitraries.lazy(() -> expression(depth - 1));
        return Arbitraries.oneOf(leaf,
                Combinators.combine(sub, Arbitraries.of("+", "-", "*", "/", "%", "==", "!=", "<", ">=", "and", "or",
                        "in", "not in"), sub).as((a, op, b) -> "(" + a + " " + op + " " + b + ")"),
                sub.map(a -> "(not " + a + ")"), sub.map(a -> "-" + a),
                Combinators.combine(Arbitraries.of("len", "toText", "keys", "range", "print", "f", "g", "Q", "nope"),
                        sub.list().ofMaxSize(3)).as((name, args) -> name + "(" + String.join(", ", args) + ")"),
                Combinators.combine(sub, Arbitraries.of("append", "remove", "insert", "get", "n", "kids"),
                        sub.list().ofMaxSize(2)).as((r, name, args) -> r + "." + name + "(" + String.join(", ", args) + ")"),
                Combinators.combine(sub, Arbitraries.of("n", "t", "kids", "zz")).as((r, name) -> r + "." + name),
                Combinators.combine(sub, sub).as((a, i) -> a + "[" + i + "]"));
    }

    @Example
    void pathologicalNestingIsADiagnostic() {
        assertOutcome("Endpoint E { f() { x = " + "(".repeat(20_000) + "1" + ")".repeat(20_000) + "; } }");
        assertOutcome("Endpoint E { f() { Number x = " + "1 + ".repeat(50_000) + "1; } }");
        assertOutcome("Endpoint E { f() { " + "{".repeat(20_000) + "}".repeat(20_000) + " } }");
        assertOutcome("Endpoint E { f() { " + "if (True) x = 1; elseIf (False) x = 2; ".repeat(2_000) + " } }");
        assertOutcome("Endpoint E { f() { Number x = " + "- ".repeat(20_000) + "1; } }");
        assertOutcome("Endpoint E { List(element: " + "List<".repeat(5_000) + "Number" + ">".repeat(5_000) + ") x; }");
    }

    /** Applies {@code count} random token-level edits: delete, duplicate, swap, insert, truncate. */
    static String mutate(String text, Random random, int count) {
        String result = text;
        for (int i = 0; i < count; i++) {
            List<Token> tokens = new Lexer(new SourceFile("m.wld", result), new Diagnostics()).tokenize();
            if (tokens.size() < 3) {
                return result;
            }
            Token token = tokens.get(random.nextInt(tokens.size() - 2));
            Token next = tokens.get(tokens.indexOf(token) + 1);
            int start = token.span().start();
            int end = token.span().end();
            result = switch (random.nextInt(5)) {
                case 0 -> result.substring(0, start) + result.substring(end);
                case 1 -> result.substring(0, end) + " " + token.lexeme() + result.substring(end);
                case 2 -> result.substring(0, start) + next.lexeme() + result.substring(end, next.span().start())
                        + token.lexeme() + result.substring(next.span().end());
                case 3 -> result.substring(0, start) + WORDS.get(random.nextInt(WORDS.size())) + " "
                        + result.substring(start);
                default -> result.substring(0, random.nextInt(result.length() + 1));
            };
        }
        return result;
    }

    private static void assertOutcome(String text) {
        SourceFile source = new SourceFile("fuzz.wld", text);
        Frontend.Result result = Frontend.parseAndCheck(List.of(source));
        assertThat(result.ok()).as("a program comes with no errors, errors with no program")
                .isEqualTo(result.diagnostics().isEmpty());
        for (Diagnostic diagnostic : result.diagnostics()) {
            assertThat(diagnostic.span().line()).isPositive();
            assertThat(diagnostic.span().col()).isPositive();
            assertThat(diagnostic.format(source)).startsWith("fuzz.wld:");
        }
    }
}
