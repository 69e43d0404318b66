package dev.waldo.compiler.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Writes random well-typed Waldo programs from a seed: an endpoint with a variable of every type
 * and a {@code main()} that declares, assigns, loops, branches, indexes, catches and prints over variables of
 * type Number, Text, TrueFalse, {@code List<Number>} and {@code Map<Text, Number>}. Every program
 * type-checks and ends: a non-constant {@code while} counts a private counter up to a small
 * bound, a constant-true one always ends in {@code break}, and {@code for} iterates a copy.
 * Programs do raise at run time (division by zero, an index out of range, a missing key), since
 * that is part of what they test.
 */
final class ProgramGenerator {
    /** The types generated variables and expressions have. */
    enum Kind {
        NUMBER("Number"), TEXT("Text"), TRUTH("TrueFalse"), LIST("List<Number>"), MAP("Map<Text, Number>");

        final String spelling;

        Kind(String spelling) {
            this.spelling = spelling;
        }
    }

    private record Var(String name, Kind kind, boolean assignable) {}

    private final Random random;
    private final StringBuilder out = new StringBuilder();
    private final List<Var> visible = new ArrayList<>();
    private int names;
    private int indent = 2;
    private int budget;

    private ProgramGenerator(Random random, int statements) {
        this.random = random;
        this.budget = statements;
    }

    /**
     * An endpoint kind named {@code kind} whose {@code main()} has about {@code statements}
     * statements, the same for the same seed.
     */
    static String program(long seed, int statements, String kind) {
        ProgramGenerator generator = new ProgramGenerator(new Random(seed), statements);
        generator.out.append("// generated from seed ").append(seed).append("\nEndpoint ").append(kind).append(" {\n");
        generator.members();
        generator.out.append("    Public Function main() {\n");
        while (generator.budget > 0) {
            generator.statement(0, Loop.NONE);
        }
        generator.out.append("    }\n}\n");
        return generator.out.toString();
    }

    // Endpoint variables go through the runtime's transactional cells (maps lock per key), which
    // the emitter reaches by other paths than locals: each program has one of every type.
    private void members() {
        for (Kind kind : Kind.values()) {
            String name = "m" + kind.ordinal();
            String init = random.nextBoolean() ? "" : " = " + literal(kind);
            out.append("    ").append(kind.spelling).append(' ').append(name).append(init).append(";\n");
            visible.add(new Var(name, kind, true));
        }
    }

    /** Where a statement stands: what break and continue would do there. */
    private enum Loop { NONE, COUNTED, CONSTANT_TRUE }

    private void statement(int depth, Loop loop) {
        budget--;
        // Loops nest at most three deep, so a program runs at most 4 * 4 * 4 iterations.
        int choice = random.nextInt(depth > 2 ? 9 : 15);
        switch (choice) {
            case 0, 1 -> declaration();
            case 2, 3 -> assignment();
            case 4 -> line("print(" + expr(pick(Kind.values()), 2) + ", " + expr(pick(Kind.values()), 1) + ");");
            case 5 -> expressionStatement();
            case 6 -> mutation();
            case 7 -> jump(loop);
            case 8 -> line("print(" + expr(pick(Kind.values()), 3) + ");");
            case 9 -> ifStatement(depth, loop);
            case 10 -> countedWhile(depth);
            case 11 -> constantWhile(depth);
            case 12 -> forLoop(depth);
            case 13 -> tryStatement(depth, loop);
            default -> block(depth, loop);
        }
    }

    // `{` at the start of a statement opens a block, so a map literal standing alone is in parentheses.
    private void expressionStatement() {
        String value = expr(pick(Kind.values()), 2);
        line((value.startsWith("{") ? "(" + value + ")" : value) + ";");
    }

    private void declaration() {
        Kind kind = pick(Kind.values());
        String name = fresh("v");
        String init = random.nextInt(5) == 0 ? "" : " = " + initial(kind);
        line(kind.spelling + " " + name + init + ";");
        visible.add(new Var(name, kind, true));
    }

    // An initial or assigned value: empty literals are allowed here, where the type is known.
    private String initial(Kind kind) {
        if (random.nextInt(6) == 0 && (kind == Kind.LIST || kind == Kind.MAP)) {
            return kind == Kind.LIST ? "[]" : "{}";
        }
        return expr(kind, 3);
    }

    private void assignment() {
        Var target = assignable(null);
        if (target == null) {
            declaration();
            return;
        }
        String op = switch (target.kind()) {
            case NUMBER -> pick(new String[] {"=", "+=", "-=", "*=", "/="});
            case TEXT -> pick(new String[] {"=", "+="});
            default -> "=";
        };
        Kind valueKind = target.kind();
        String value = op.equals("=") ? initial(valueKind)
                : valueKind == Kind.TEXT ? literal(Kind.TEXT) : expr(valueKind, 2);
        line(target.name() + " " + op + " " + value + ";");
    }

    private void mutation() {
        Var list = assignable(Kind.LIST);
        Var map = assignable(Kind.MAP);
        switch (random.nextInt(5)) {
            case 0 -> {
                if (list != null) {
                    line(list.name() + ".append(" + expr(Kind.NUMBER, 2) + ");");
                }
            }
            case 1 -> {
                if (list != null) {
                    line(list.name() + ".insert(" + index() + ", " + expr(Kind.NUMBER, 1) + ");");
                }
            }
            case 2 -> {
                if (list != null) {
                    line(list.name() + "[" + index() + "] = " + expr(Kind.NUMBER, 2) + ";");
                }
            }
            case 3 -> {
                if (map != null) {
                    line(map.name() + "[" + expr(Kind.TEXT, 1) + "] = " + expr(Kind.NUMBER, 2) + ";");
                }
            }
            default -> {
                if (list != null && random.nextBoolean()) {
                    line(list.name() + ".remove(" + index() + ");");
                } else if (map != null) {
                    line(map.name() + ".remove(" + expr(Kind.TEXT, 1) + ");");
                }
            }
        }
    }

    private void jump(Loop loop) {
        if (loop == Loop.NONE) {
            line("print(" + expr(Kind.TEXT, 2) + ");");
        } else if (loop == Loop.CONSTANT_TRUE || random.nextBoolean()) {
            line("break;");  // a continue in a constant-true loop would never end it
        } else {
            line("continue;");
        }
    }

    private void ifStatement(int depth, Loop loop) {
        open("if (" + expr(Kind.TRUTH, 2) + ")");
        body(depth, loop);
        while (random.nextInt(3) == 0) {
            close();
            open((random.nextBoolean() ? "elseIf (" : "else if (") + expr(Kind.TRUTH, 2) + ")");
            body(depth, loop);
        }
        if (random.nextBoolean()) {
            close();
            open("else");
            body(depth, loop);
        }
        close();
    }

    private void countedWhile(int depth) {
        String counter = fresh("w");
        line("Number " + counter + " = 0;");
        open("while (" + counter + " < " + (1 + random.nextInt(4)) + ")");
        line(counter + " += 1;");
        body(depth, Loop.COUNTED);
        close();
    }

    private void constantWhile(int depth) {
        if (random.nextBoolean()) {
            open("while (" + constant(false) + ")");
            body(depth, Loop.COUNTED);
        } else {
            open("while (" + constant(true) + ")");
            body(depth, Loop.CONSTANT_TRUE);
            line("break;");
        }
        close();
    }

    /** A TrueFalse expression of literals and operators only, of the given value. */
    private String constant(boolean value) {
        String[] truths = value
                ? new String[] {"True", "not False", "1 < 2", "2 * 3 == 6", "'a' < 'b'", "True or False",
                    "-1 < 0", "'b' in 'abc'", "1 / 4 == 0.25", "not (1 > 2) and True"}
                : new String[] {"False", "not True", "1 > 2", "1 + 1 != 2", "'b' < 'a'", "True and False",
                    "-1 > 0", "'z' in 'abc'", "7 % 2 == 0", "0.1 + 0.2 == 0.3"};
        return pick(truths);
    }

    private void forLoop(int depth) {
        String var = fresh("x");
        boolean overList = random.nextBoolean();
        String iterable = expr(overList ? Kind.LIST : Kind.MAP, 1);
        String typed = random.nextBoolean() ? (overList ? "Number " : "Text ") : "";
        open("for (" + typed + var + " in " + iterable + ")");
        visible.add(new Var(var, overList ? Kind.NUMBER : Kind.TEXT, false));
        body(depth, Loop.COUNTED);
        visible.remove(visible.size() - 1);  // the loop variable is the loop's own
        close();
    }

    private void tryStatement(int depth, Loop loop) {
        open("try");
        body(depth, loop);
        close();
        String error = fresh("e");
        open("catch (" + pick(new String[] {"ApplicationException", "Exception"}) + " " + error + ")");
        line("print('caught', " + error + ");");
        close();
        if (random.nextInt(3) == 0) {
            open("finally");
            line("print('finally');");
            close();
        }
    }

    private void block(int depth, Loop loop) {
        open("");
        body(depth, loop);
        close();
    }

    // A body is a scope: what it declares is not visible after it.
    private void body(int depth, Loop loop) {
        int scope = visible.size();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count && budget > -20; i++) {
            statement(depth + 1, loop);
        }
        visible.subList(scope, visible.size()).clear();
    }

    /** An expression of {@code kind}, at most {@code depth} operators deep. */
    String expr(Kind kind, int depth) {
        if (depth == 0 || random.nextInt(3) == 0) {
            return leaf(kind);
        }
        int d = depth - 1;
        return switch (kind) {
            case NUMBER -> switch (random.nextInt(7)) {
                case 0 -> "(" + expr(Kind.NUMBER, d) + " " + pick(new String[] {"+", "-", "*", "/", "%"}) + " "
                        + (random.nextInt(3) == 0 ? expr(Kind.NUMBER, d) : pick(new String[] {"2", "0.5", "3"})) + ")";
                case 1 -> "-" + expr(Kind.NUMBER, d);
                case 2 -> "len(" + expr(pick(new Kind[] {Kind.TEXT, Kind.LIST, Kind.MAP}), d) + ")";
                case 3 -> expr(Kind.LIST, d) + "[" + index() + "]";
                case 4 -> expr(Kind.MAP, d) + "[" + key(d) + "]";
                default -> "(" + expr(Kind.NUMBER, d) + " + " + expr(Kind.NUMBER, d) + ")";
            };
            // A variable appears at most once in a Text expression, so that assigning one in a loop
            // makes Texts grow by a little each time, never double.
            case TEXT -> switch (random.nextInt(4)) {
                case 0 -> "(" + literal(Kind.TEXT) + " + " + expr(Kind.TEXT, d) + ")";
                case 1 -> "toText(" + expr(pick(Kind.values()), d) + ")";
                case 2 -> expr(Kind.TEXT, d) + "[" + index() + "]";
                default -> "(" + expr(Kind.TEXT, d) + " + " + literal(Kind.TEXT) + ")";
            };
            case TRUTH -> switch (random.nextInt(7)) {
                case 0 -> "(" + expr(Kind.NUMBER, d) + " " + pick(new String[] {"<", "<=", ">", ">=", "==", "!="})
                        + " " + expr(Kind.NUMBER, d) + ")";
                case 1 -> "(" + expr(Kind.TEXT, d) + " " + pick(new String[] {"<", "<=", ">", ">=", "==", "!=",
                    "in", "not in"}) + " " + expr(Kind.TEXT, d) + ")";
                case 2 -> "(" + expr(Kind.TRUTH, d) + " " + pick(new String[] {"and", "or", "==", "!="}) + " "
                        + expr(Kind.TRUTH, d) + ")";
                case 3 -> "(not " + expr(Kind.TRUTH, d) + ")";
                case 4 -> "(" + expr(Kind.NUMBER, d) + " " + pick(new String[] {"in", "not in"}) + " "
                        + expr(Kind.LIST, d) + ")";
                case 5 -> "(" + expr(Kind.TEXT, d) + " in " + expr(Kind.MAP, d) + ")";
                default -> {
                    Kind compared = pick(new Kind[] {Kind.LIST, Kind.MAP});
                    yield "(" + expr(compared, d) + " " + pick(new String[] {"==", "!="}) + " " + expr(compared, d) + ")";
                }
            };
            case LIST -> random.nextBoolean() ? "[" + expr(Kind.NUMBER, d) + ", " + expr(Kind.NUMBER, d) + "]"
                    : "range(" + pick(new String[] {"0", "1", "3"}) + ")";
            case MAP -> random.nextBoolean() ? "{" + expr(Kind.TEXT, d) + ": " + expr(Kind.NUMBER, d) + "}"
                    : "{'a': " + expr(Kind.NUMBER, d) + ", " + expr(Kind.TEXT, d) + ": 1}";
        };
    }

    private String leaf(Kind kind) {
        List<Var> candidates = visible.stream().filter(v -> v.kind() == kind).toList();
        if (!candidates.isEmpty() && random.nextInt(3) > 0) {
            return candidates.get(random.nextInt(candidates.size())).name();
        }
        return literal(kind);
    }

    private String literal(Kind kind) {
        return switch (kind) {
            case NUMBER -> pick(new String[] {"0", "1", "2", "3", "0.5", "10", "1e3", "7", "-0", "1e308"});
            case TEXT -> pick(new String[] {"''", "'a'", "'b'", "'ab'", "'ba'", "\"q\""});
            case TRUTH -> pick(new String[] {"True", "False"});
            case LIST -> pick(new String[] {"[1, 2, 3]", "[0]", "[2, 1]"});
            case MAP -> pick(new String[] {"{'a': 1}", "{'b': 2, 'a': 3}"});
        };
    }

    // Indexes are small so that most are in range, and sometimes fractional or negative: most
    // programs should get far before they raise, and some should raise.
    private String index() {
        return random.nextInt(20) == 0 ? pick(new String[] {"0.5", "-1", "5"}) : pick(new String[] {"0", "0", "0", "1"});
    }

    // Every generated map literal has 'a': most lookups find their key.
    private String key(int depth) {
        return random.nextInt(8) == 0 ? expr(Kind.TEXT, depth) : "'a'";
    }

    private Var assignable(Kind kind) {
        List<Var> candidates = visible.stream().filter(v -> v.assignable() && (kind == null || v.kind() == kind))
                .toList();
        return candidates.isEmpty() ? null : candidates.get(random.nextInt(candidates.size()));
    }

    private String fresh(String prefix) {
        return prefix + (++names);
    }

    private <T> T pick(T[] options) {
        return options[random.nextInt(options.length)];
    }

    private void line(String text) {
        out.append("    ".repeat(indent)).append(text).append('\n');
    }

    private void open(String head) {
        line(head.isEmpty() ? "{" : head + " {");
        indent++;
    }

    private void close() {
        indent--;
        line("}");
    }
}
