package dev.waldo.compiler.check;

import dev.waldo.compiler.syntax.Expr;
import dev.waldo.compiler.syntax.Program;
import dev.waldo.compiler.syntax.TypeRef;
import java.util.Map;

/**
 * A program that passed the checker, with everything the emitter needs besides the tree.
 * Lookups are by node identity, so pass the very nodes of {@link #program()}.
 *
 * @param program   the syntax tree
 * @param kinds     endpoint kinds and services by name, in source order
 * @param structs   structs by name, in source order
 * @param sequences sequences by name, in source order
 * @param types     the type of every expression
 * @param symbols   what each {@link Expr.Name}, {@link Expr.Call} and {@link Expr.MethodCall}
 *                  resolves to, and what each declaring node declares: {@code VarDecl}
 *                  (except struct fields, see {@link StructInfo}), {@code Param},
 *                  {@code Stmt.For} (its loop variable, possibly an existing variable),
 *                  {@code Stmt.Catch} and {@code Member.FunctionDecl}
 * @param typeRefs  the type each written {@link TypeRef} denotes
 */
public record CheckedProgram(Program program, Map<String, KindInfo> kinds,
                             Map<String, StructInfo> structs, Map<String, SequenceInfo> sequences,
                             Map<Expr, Type> types, Map<Object, Symbol> symbols,
                             Map<TypeRef, Type> typeRefs) {

    /** Returns the type of {@code expr}. */
    public Type typeOf(Expr expr) {
        return types.get(expr);
    }

    /** Returns the type {@code ref} denotes. */
    public Type typeOf(TypeRef ref) {
        return typeRefs.get(ref);
    }

    /**
     * Returns what {@code node} resolves to or declares: a {@link Symbol.Variable} for names,
     * declarations and loops; a {@link Symbol.FunctionSym}, {@link Symbol.SequenceSym},
     * {@link Symbol.BuiltinFn}, {@link Symbol.BuiltinMethod} or {@link Symbol.RemoteCall} for
     * calls. Null for other nodes.
     */
    public Symbol symbolOf(Object node) {
        return symbols.get(node);
    }
}
