package dev.waldo.compiler.check;

import dev.waldo.compiler.check.Symbol.Builtin;
import dev.waldo.compiler.check.Symbol.Method;
import dev.waldo.compiler.diag.Span;
import dev.waldo.compiler.syntax.Expr;
import java.util.List;

/** Types one call of a built-in function or list/map method (LANGUAGE.md §4). */
final class Builtins {
    private final ExprChecker exprs;
    private final Expr call;
    private final String name;
    private final Span nameSpan;
    private final List<Expr> args;

    Builtins(ExprChecker exprs, Expr.Call call) {
        this.exprs = exprs;
        this.call = call;
        this.name = call.name();
        this.nameSpan = call.nameSpan();
        this.args = call.args();
    }

    Builtins(ExprChecker exprs, Expr.MethodCall call) {
        this.exprs = exprs;
        this.call = call;
        this.name = call.name();
        this.nameSpan = call.nameSpan();
        this.args = call.args();
    }

    /** Types a call of the built-in function {@code builtin}. */
    Type check(Builtin builtin) {
        return switch (builtin) {
            case LEN -> len();
            case RANGE -> range();
            case KEYS -> keys();
            case TO_TEXT -> {
                if (count(1)) {
                    exprs.value(args.get(0));
                }
                yield Type.TEXT;
            }
            case ID -> {
                count(0);
                if (exprs.kind() == null) {
                    exprs.error(nameSpan, "'id()' is only available inside an Endpoint or Service");
                }
                yield Type.TEXT;
            }
            case PRINT -> {
                args.forEach(exprs::value);
                yield Type.NOTHING;
            }
        };
    }

    // len(x): the length of a List, Map or Text.
    private Type len() {
        if (count(1)) {
            Type type = exprs.value(args.get(0));
            if (!(type instanceof Type.ListType || type instanceof Type.MapType
                    || type instanceof Type.TextType || type instanceof Type.ErrorType)) {
                exprs.error(args.get(0).span(), "type mismatch: len() needs a List, Map or Text, found "
                        + type.display());
            }
        }
        return Type.NUMBER;
    }

    // range(a), range(a, b) or range(a, b, step): a List of Numbers.
    private Type range() {
        if (args.isEmpty() || args.size() > 3) {
            args.forEach(exprs::value);
            exprs.error(nameSpan, "wrong number of arguments to 'range': expected 1 to 3, found " + args.size());
        } else {
            for (int i = 0; i < args.size(); i++) {
                exprs.require(args.get(i), Type.NUMBER, "argument " + (i + 1) + " of 'range'");
            }
        }
        return new Type.ListType(Type.NUMBER);
    }

    // keys(m): the keys of a Map, as a List in insertion order.
    private Type keys() {
        if (!count(1)) {
            return Type.ERROR;
        }
        Type type = exprs.value(args.get(0));
        if (type instanceof Type.MapType map) {
            return new Type.ListType(map.key());
        }
        if (!(type instanceof Type.ErrorType)) {
            exprs.error(args.get(0).span(), "type mismatch: keys() needs a Map, found " + type.display());
        }
        return Type.ERROR;
    }

    /** Types {@code list.append(x)}, {@code list.insert(i, x)} or {@code list.remove(i)}. */
    Type listMethod(Type.ListType list) {
        switch (name) {
            case "append" -> method(Method.LIST_APPEND, List.of(list.element()));
            case "insert" -> method(Method.LIST_INSERT, List.of(Type.NUMBER, list.element()));
            case "remove" -> method(Method.LIST_REMOVE, List.of(Type.NUMBER));
            default -> {
                return noSuchMethod(list, "append, insert and remove");
            }
        }
        return Type.NOTHING;
    }

    /** Types {@code map.remove(k)}. */
    Type mapMethod(Type.MapType map) {
        if (!name.equals("remove")) {
            return noSuchMethod(map, "remove");
        }
        method(Method.MAP_REMOVE, List.of(map.key()));
        return Type.NOTHING;
    }

    /** Types {@code set.add(x)}, {@code set.rem(x)}, {@code set.count(x)} or {@code set.elements()}. */
    Type csetMethod(Type.CSetType set) {
        return switch (name) {
            case "add" -> typed(Method.CSET_ADD, List.of(set.element()), Type.NOTHING);
            case "rem" -> typed(Method.CSET_REM, List.of(set.element()), Type.NOTHING);
            case "count" -> typed(Method.CSET_COUNT, List.of(set.element()), Type.NUMBER);
            case "elements" -> typed(Method.CSET_ELEMENTS, List.of(), new Type.ListType(set.element()));
            default -> noSuchMethod(set, "add, rem, count and elements");
        };
    }

    private Type typed(Method method, List<Type> params, Type result) {
        method(method, params);
        return result;
    }

    private void method(Method method, List<Type> params) {
        exprs.checkerSymbols().put(call, new Symbol.BuiltinMethod(name, method));
        exprs.arguments(name, nameSpan, args, params);
    }

    private Type noSuchMethod(Type receiver, String known) {
        args.forEach(exprs::value);
        exprs.error(nameSpan, receiver.display() + " has no method '" + name + "'; its methods are " + known);
        return Type.ERROR;
    }

    // Reports a wrong argument count; returns whether the count is right.
    private boolean count(int expected) {
        if (args.size() == expected) {
            return true;
        }
        args.forEach(exprs::value);
        exprs.error(nameSpan, "wrong number of arguments to '" + name + "': expected " + expected
                + ", found " + args.size());
        return false;
    }
}
