package dev.waldo.compiler.check;

import dev.waldo.compiler.syntax.Decl;
import dev.waldo.compiler.syntax.Member;
import dev.waldo.compiler.syntax.Param;
import dev.waldo.compiler.syntax.Stmt;
import dev.waldo.compiler.syntax.VarDecl;
import java.util.List;

/** What a name, call or declaration resolves to; see {@link CheckedProgram#symbolOf}. */
public sealed interface Symbol permits Symbol.Variable, Symbol.FunctionSym, Symbol.SequenceSym,
        Symbol.BuiltinFn, Symbol.BuiltinMethod, Symbol.RemoteCall {

    /** The name as written. */
    String name();

    /** A symbol that holds a value and can be read and assigned. */
    sealed interface Variable extends Symbol permits LocalVar, ParamVar, LoopVar, CatchVar,
            MemberVar, SequenceData {
        /** The variable's type. */
        Type type();
    }

    /** A local variable declared by a statement in a function, onCreate or step body. */
    record LocalVar(String name, Type type, VarDecl decl) implements Variable {}

    /**
     * A parameter of a function or onCreate.
     *
     * @param index 0-based position in the parameter list
     */
    record ParamVar(String name, Type type, int index, Param param) implements Variable {}

    /** The variable a {@code for} loop declares (only when it did not name an existing one). */
    record LoopVar(String name, Type type, Stmt.For loop) implements Variable {}

    /** The variable of a catch clause; it holds the error's message as Text. */
    record CatchVar(String name, Stmt.Catch clause) implements Variable {
        @Override
        public Type type() {
            return Type.TEXT;
        }
    }

    /**
     * A variable of an endpoint or service.
     *
     * @param owner the endpoint kind or service that declares it
     */
    record MemberVar(String owner, String name, Type type, VarDecl decl) implements Variable {}

    /** Where a piece of sequence data comes from. */
    enum DataRole { PARAM, DATA, RESULT }

    /**
     * Sequence data: an argument, a data declaration or the named result. Visible in every step.
     *
     * @param sequence the sequence's name
     * @param index    0-based position among the sequence's data of the same role
     * @param decl     the {@link Param} for arguments, the {@link VarDecl} for data, the
     *                 {@link Decl.SequenceDecl} for the named result
     */
    record SequenceData(String sequence, String name, Type type, DataRole role, int index, Object decl)
            implements Variable {}

    /**
     * A function of an endpoint or service.
     *
     * @param owner the endpoint kind or service that declares it
     */
    record FunctionSym(String owner, String name, List<Type> params, Type returnType,
                       Member.FunctionDecl decl) implements Symbol {
        /** Whether it may be called from outside its endpoint or service. */
        public boolean isPublic() {
            return decl.visibility() == Member.Visibility.PUBLIC;
        }
    }

    /** A sequence, called by name from an endpoint of its first step's kind. */
    record SequenceSym(String name, SequenceInfo info) implements Symbol {}

    /** The built-in functions. */
    enum Builtin { LEN, RANGE, KEYS, TO_TEXT, ID, PRINT }

    /** A call of a built-in function: {@code len range keys toText id print}. */
    record BuiltinFn(String name, Builtin builtin) implements Symbol {}

    /** The built-in methods of lists and maps. */
    enum Method { LIST_APPEND, LIST_INSERT, LIST_REMOVE, MAP_REMOVE, CSET_ADD, CSET_REM, CSET_COUNT, CSET_ELEMENTS }

    /** A call of a list, map or CSet method: {@code append insert remove add rem count elements}. */
    record BuiltinMethod(String name, Method method) implements Symbol {}

    /**
     * A call on an {@code Endpoint} value. Which function runs is decided at run time by the
     * endpoint's kind; the candidates are every Public function of that name and argument count
     * in the program, which is what the checker typed the call against.
     */
    record RemoteCall(String name, List<FunctionSym> candidates) implements Symbol {}
}
