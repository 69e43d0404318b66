package dev.waldo.compiler.fuzz;

import dev.waldo.compiler.check.CheckedProgram;
import dev.waldo.compiler.check.Constants;
import dev.waldo.compiler.check.Type;
import dev.waldo.compiler.syntax.Decl;
import dev.waldo.compiler.syntax.Expr;
import dev.waldo.compiler.syntax.Member;
import dev.waldo.compiler.syntax.Stmt;
import dev.waldo.compiler.syntax.VarDecl;
import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.lang.Values;
import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.lang.WMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A small interpreter of checked programs, written from LANGUAGE.md and LANGUAGE-NOTES.md rather
 * than from the emitter: it runs {@code main()} of the endpoints {@link ProgramGenerator}
 * writes (locals of Number, Text, TrueFalse, lists and maps; every statement form; no endpoints)
 * straight off the syntax tree, so that what the compiled Java prints can be compared with what
 * the language says it should print. It shares only value printing ({@link Values#toText}) and the
 * value classes with the runtime.
 *
 * <p>It also checks constant folding as it goes: every expression that {@link Constants} folds
 * must evaluate to exactly the folded value.
 */
final class ReferenceEvaluator {
    private final CheckedProgram program;
    private final Map<String, Object> variables = new HashMap<>();
    private final Set<String> members = new HashSet<>();
    private final List<String> printed = new ArrayList<>();
    private final List<String> foldingDisagreements = new ArrayList<>();

    private ReferenceEvaluator(CheckedProgram program) {
        this.program = program;
    }

    /** What the program's main prints: its lines if it commits, or only its error if it raises. */
    record Outcome(List<String> lines, List<String> foldingDisagreements) {}

    /** Runs {@code main()} of endpoint kind {@code kind} of {@code program}. */
    static Outcome runMain(CheckedProgram program, String kind) {
        ReferenceEvaluator evaluator = new ReferenceEvaluator(program);
        List<Member> members = program.program().decls().stream()
                .filter(d -> d instanceof Decl.EndpointDecl e && e.name().equals(kind))
                .flatMap(d -> ((Decl.EndpointDecl) d).members().stream()).toList();
        Member.FunctionDecl main = members.stream()
                .filter(m -> m instanceof Member.FunctionDecl f && f.name().equals("main"))
                .map(m -> (Member.FunctionDecl) m).findFirst().orElseThrow();
        members.stream().filter(m -> m instanceof VarDecl).map(m -> (VarDecl) m).forEach(v -> {
            evaluator.members.add(v.name());
            evaluator.execute(v);
        });  // endpoint variables, initialized when it is created
        List<String> lines;
        try {
            evaluator.execute(main.body());
            lines = evaluator.printed;
        } catch (Jump.Return done) {
            lines = evaluator.printed;
        } catch (ApplicationException error) {
            // A transaction that raises backs out: nothing it printed is kept (LANGUAGE.md §6).
            lines = List.of("ApplicationException: " + error.getMessage());
        }
        return new Outcome(lines, evaluator.foldingDisagreements);
    }

    /** Control leaving a statement early. */
    private static final class Jump extends RuntimeException {
        Jump() {
            super(null, null, false, false);
        }

        static final class Break extends RuntimeException {
            Break() {
                super(null, null, false, false);
            }
        }

        static final class Continue extends RuntimeException {
            Continue() {
                super(null, null, false, false);
            }
        }

        static final class Return extends RuntimeException {
            Return() {
                super(null, null, false, false);
            }
        }
    }

    private void execute(Stmt stmt) {
        switch (stmt) {
            case VarDecl v -> variables.put(v.name(), v.init() == null
                    ? defaultOf(program.typeOf(v.type())) : copy(eval(v.init())));
            case Stmt.Block b -> b.stmts().forEach(this::execute);
            case Stmt.ExprStmt e -> eval(e.expr());
            case Stmt.Assign a -> assign(a);
            case Stmt.If i -> {
                if (truth(i.cond())) {
                    execute(i.then());
                } else if (i.otherwise() != null) {
                    execute(i.otherwise());
                }
            }
            case Stmt.While w -> whileLoop(w);
            case Stmt.For f -> forLoop(f);
            case Stmt.Break b -> throw new Jump.Break();
            case Stmt.Continue c -> throw new Jump.Continue();
            case Stmt.Return r -> throw new Jump.Return();
            case Stmt.Try t -> tryStatement(t);
            case Stmt.Abort a -> throw new UnsupportedOperationException("abort is not generated");
        }
    }

    private void whileLoop(Stmt.While w) {
        while (truth(w.cond())) {
            try {
                execute(w.body());
            } catch (Jump.Break b) {
                return;
            } catch (Jump.Continue c) {
                // next round
            }
        }
    }

    private void forLoop(Stmt.For f) {
        Object iterable = eval(f.iterable());
        List<Object> items = iterable instanceof WMap<?, ?> map ? new ArrayList<>(map.keySet())
                : new ArrayList<>((WList<?>) iterable);  // the body may change the list: iterate a copy
        for (Object item : items) {
            variables.put(f.var(), copy(item));
            try {
                execute(f.body());
            } catch (Jump.Break b) {
                return;
            } catch (Jump.Continue c) {
                // next element
            }
        }
    }

    private void tryStatement(Stmt.Try t) {
        try {
            execute(t.body());
        } catch (ApplicationException error) {
            Stmt.Catch handler = t.catches().stream().filter(c -> c.kind() != Stmt.CatchKind.NETWORK)
                    .findFirst().orElseThrow(() -> error);
            variables.put(handler.name(), error.getMessage());
            execute(handler.body());
        } finally {
            if (t.finallyBlock() != null) {
                execute(t.finallyBlock());
            }
        }
    }

    // In `c[i] = v`, c and i are evaluated before v, and the index is checked last (LANGUAGE-NOTES).
    @SuppressWarnings("unchecked")
    private void assign(Stmt.Assign a) {
        if (!(a.target() instanceof Expr.Index i)) {
            variables.put(((Expr.Name) a.target()).name(), assignedValue(a));
            return;
        }
        Object container = eval(i.target());
        Object key = eval(i.index());
        Object value = assignedValue(a);
        if (container instanceof WMap<?, ?> map) {
            ((WMap<Object, Object>) map).put(key, value);
        } else {
            WList<Object> list = (WList<Object>) container;
            list.set(position((Double) key, list.size(), "list"), value);
        }
    }

    private Object assignedValue(Stmt.Assign a) {
        return a.op() == Stmt.AssignOp.ASSIGN ? copy(eval(a.value()))
                : binary(a.op().binary(), eval(a.target()), eval(a.value()));
    }

    private boolean truth(Expr expr) {
        return (Boolean) eval(expr);
    }

    private Object eval(Expr expr) {
        Object value = evaluate(expr);
        Constants.value(expr).ifPresent(folded -> {
            if (!folded.equals(value)) {
                foldingDisagreements.add(expr.span() + ": folded to " + folded + ", evaluates to " + value);
            }
        });
        return value;
    }

    private Object evaluate(Expr expr) {
        return switch (expr) {
            case Expr.NumberLit n -> n.value();
            case Expr.TextLit t -> t.value();
            case Expr.BoolLit b -> b.value();
            case Expr.Name n -> variables.get(n.name());
            case Expr.Unary u -> u.op() == Expr.UnaryOp.NOT ? !(Boolean) eval(u.operand()) : -(Double) eval(u.operand());
            case Expr.Binary b -> logicalOrBinary(b);
            case Expr.Call c -> call(c);
            case Expr.MethodCall m -> method(m);
            case Expr.Index i -> index(eval(i.target()), eval(i.index()), memberName(i.target()));
            case Expr.ListLit l -> {
                WList<Object> list = new WList<>();
                l.elements().forEach(e -> list.add(copy(eval(e))));
                yield list;
            }
            case Expr.MapLit m -> {
                WMap<Object, Object> map = new WMap<>();
                m.entries().forEach(e -> map.put(eval(e.key()), copy(eval(e.value()))));
                yield map;
            }
            default -> throw new UnsupportedOperationException("not generated: " + expr);
        };
    }

    // `and` and `or` evaluate their right side only when it decides the result.
    private Object logicalOrBinary(Expr.Binary b) {
        if (b.op() == Expr.BinaryOp.AND) {
            return truth(b.left()) && truth(b.right());
        }
        if (b.op() == Expr.BinaryOp.OR) {
            return truth(b.left()) || truth(b.right());
        }
        Object left = eval(b.left());
        return binary(b.op(), left, eval(b.right()));
    }

    private static Object binary(Expr.BinaryOp op, Object left, Object right) {
        return switch (op) {
            case ADD -> left instanceof String l ? l + right : (Double) left + (Double) right;
            case SUB -> (Double) left - (Double) right;
            case MUL -> (Double) left * (Double) right;
            case DIV -> {
                if ((Double) right == 0) {
                    throw new ApplicationException("division by zero");
                }
                yield (Double) left / (Double) right;
            }
            case MOD -> {
                if ((Double) right == 0) {
                    throw new ApplicationException("remainder by zero");
                }
                yield (Double) left % (Double) right;
            }
            case EQ -> same(left, right);
            case NE -> !same(left, right);
            case LT -> compare(left, right) < 0;
            case LE -> compare(left, right) <= 0;
            case GT -> compare(left, right) > 0;
            case GE -> compare(left, right) >= 0;
            case IN -> contains(right, left);
            case NOT_IN -> !contains(right, left);
            default -> throw new IllegalStateException(op.toString());
        };
    }

    // Numbers compare as IEEE doubles at every depth; lists element by element, maps whatever their order.
    private static boolean same(Object left, Object right) {
        if (left instanceof Double l && right instanceof Double r) {
            return l.doubleValue() == r.doubleValue();
        }
        if (left instanceof WList<?> l && right instanceof WList<?> r) {
            return l.size() == r.size()
                    && java.util.stream.IntStream.range(0, l.size()).allMatch(i -> same(l.get(i), r.get(i)));
        }
        if (left instanceof WMap<?, ?> l && right instanceof WMap<?, ?> r) {
            return l.size() == r.size() && l.entrySet().stream()
                    .allMatch(e -> r.containsKey(e.getKey()) && same(e.getValue(), r.get(e.getKey())));
        }
        return left.equals(right);
    }

    private static int compare(Object left, Object right) {
        if (left instanceof Double l) {
            double r = (Double) right;
            return l < r ? -1 : l > r ? 1 : l.doubleValue() == r ? 0 : 2;  // NaN: every comparison false
        }
        return ((String) left).compareTo((String) right);
    }

    private static boolean contains(Object container, Object element) {
        return switch (container) {
            case String text -> text.contains((String) element);
            case WMap<?, ?> map -> map.containsKey(element);
            default -> ((WList<?>) container).stream().anyMatch(item -> same(item, element));
        };
    }

    private Object call(Expr.Call c) {
        List<Object> args = new ArrayList<>();
        c.args().forEach(a -> args.add(eval(a)));
        return switch (c.name()) {
            case "len" -> (double) switch (args.get(0)) {
                case String t -> t.length();
                case WList<?> l -> l.size();
                default -> ((WMap<?, ?>) args.get(0)).size();
            };
            case "toText" -> Values.toText(args.get(0));
            case "range" -> {
                WList<Object> range = new WList<>();
                for (double i = 0; i < (Double) args.get(0); i++) {
                    range.add(i);
                }
                yield range;
            }
            case "print" -> {
                List<String> parts = new ArrayList<>();
                args.forEach(a -> parts.add(Values.toText(a)));
                printed.add(String.join(" ", parts));
                yield null;
            }
            default -> throw new UnsupportedOperationException("not generated: " + c.name());
        };
    }

    @SuppressWarnings("unchecked")
    private Object method(Expr.MethodCall m) {
        Object receiver = eval(m.receiver());
        List<Object> args = new ArrayList<>();
        m.args().forEach(a -> args.add(eval(a)));
        if (receiver instanceof WMap<?, ?> map) {
            map.remove(args.get(0));  // removing a missing key does nothing (LANGUAGE-NOTES)
            return null;
        }
        WList<Object> list = (WList<Object>) receiver;
        switch (m.name()) {
            case "append" -> list.add(copy(args.get(0)));
            case "insert" -> list.add(insertPosition((Double) args.get(0), list.size()), copy(args.get(1)));
            default -> list.remove(position((Double) args.get(0), list.size(), "list"));
        }
        return null;
    }

    // The runtime names the endpoint variable a missing key was looked up in.
    private String memberName(Expr target) {
        return target instanceof Expr.Name n && members.contains(n.name()) ? n.name() : null;
    }

    private static Object index(Object container, Object key, String member) {
        return switch (container) {
            case String text -> String.valueOf(text.charAt(position((Double) key, text.length(), "text")));
            case WMap<?, ?> map -> {
                if (!map.containsKey(key)) {
                    throw new ApplicationException("missing map key " + Values.toText(key)
                            + (member == null ? "" : " in " + member));
                }
                yield map.get(key);
            }
            default -> {
                WList<?> list = (WList<?>) container;
                yield list.get(position((Double) key, list.size(), "list"));
            }
        };
    }

    private static int position(double index, int size, String what) {
        if (index != Math.rint(index) || index < 0 || index >= size) {
            throw new ApplicationException(what + " index " + Values.formatNumber(index)
                    + " out of range (size " + size + ")");
        }
        return (int) index;
    }

    // Inserting at the end is allowed: the position may equal the size.
    private static int insertPosition(double index, int size) {
        if (index != Math.rint(index) || index < 0 || index > size) {
            throw new ApplicationException("list insert position " + Values.formatNumber(index)
                    + " out of range (size " + size + ", so a whole number from 0 to " + size + ")");
        }
        return (int) index;
    }

    private static Object copy(Object value) {
        if (value instanceof WList<?> list) {
            return new WList<Object>(list);
        }
        if (value instanceof WMap<?, ?> map) {
            WMap<Object, Object> copied = new WMap<>();
            copied.putAll(map);
            return copied;
        }
        return value;
    }

    private static Object defaultOf(Type type) {
        return switch (type) {
            case Type.NumberType n -> 0.0;
            case Type.TextType t -> "";
            case Type.BoolType b -> false;
            case Type.ListType l -> new WList<>();
            case Type.MapType m -> new WMap<>();
            default -> throw new UnsupportedOperationException("not generated: " + type);
        };
    }
}
