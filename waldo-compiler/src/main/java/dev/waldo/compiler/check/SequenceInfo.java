package dev.waldo.compiler.check;

import dev.waldo.compiler.syntax.Decl;
import java.util.List;

/**
 * A checked sequence.
 *
 * @param decl       its declaration
 * @param firstKind  the endpoint kind that runs the first step and so calls the sequence
 * @param secondKind the partner kind that runs the second step
 * @param steps      the steps in the order they run; they alternate first, second, first, ...
 * @param params     the arguments, as sequence data, in order
 * @param data       the data declarations, in order
 * @param result     the named result, or null
 * @param resultType what a call of the sequence returns ({@link Type#NOTHING} if nothing)
 */
public record SequenceInfo(Decl.SequenceDecl decl, String firstKind, String secondKind,
                           List<Decl.Step> steps, List<Symbol.SequenceData> params,
                           List<Symbol.SequenceData> data, Symbol.SequenceData result,
                           Type resultType) {

    /** The sequence's name. */
    public String name() {
        return decl.name();
    }
}
