package dev.waldo.compiler.emit;

import dev.waldo.compiler.check.CheckedProgram;
import dev.waldo.compiler.check.KindInfo;
import dev.waldo.compiler.check.Symbol;
import dev.waldo.compiler.syntax.Expr;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What the emitter knows while it writes one Java method: the checked
 * program, the endpoint or service that owns the method, whether sequence
 * data is in reach (a step or a sequence driver), which remote call is the
 * body's last, and the Java names chosen for the method's locals.
 */
final class MethodScope {
    final CheckedProgram program;
    final KindInfo owner;
    final boolean hasFrame;
    /** The remote call that carries the prepare ({@link LastCall}); null in most methods. */
    Expr.MethodCall lastCall;
    private final Map<Object, String> localNames = new IdentityHashMap<>();
    private int temporaries;

    MethodScope(CheckedProgram program, KindInfo owner, boolean hasFrame) {
        this.program = program;
        this.owner = owner;
        this.hasFrame = hasFrame;
    }

    /**
     * Chooses the Java name of a local declared by {@code node} (a VarDecl,
     * Param, For or Catch). Waldo forbids shadowing inside a body, but sibling
     * blocks may reuse a name, which Java allows too; the suffix only guards
     * against reserved words.
     */
    String declare(Object node, String waldoName) {
        String name = JavaNames.of(waldoName);
        localNames.put(node, name);
        return name;
    }

    /** The Java name of the local that {@code variable} denotes. */
    String nameOf(Symbol.Variable variable) {
        Object node = switch (variable) {
            case Symbol.LocalVar local -> local.decl();
            case Symbol.ParamVar param -> param.param();
            case Symbol.LoopVar loop -> loop.loop();
            case Symbol.CatchVar caught -> caught.clause();
            default -> throw new IllegalArgumentException("not a local: " + variable);
        };
        String name = localNames.get(node);
        return name != null ? name : JavaNames.of(variable.name());
    }

    /** A fresh name for a temporary the emitter needs; '$' keeps it apart from Waldo names. */
    String temporary(String hint) {
        return "$" + hint + (++temporaries);
    }
}
