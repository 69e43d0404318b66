package dev.waldo.compiler.check;

import dev.waldo.compiler.syntax.Decl;
import java.util.Map;

/**
 * A checked struct.
 *
 * @param decl   its declaration
 * @param fields field name to type, in declaration order
 */
public record StructInfo(Decl.StructDecl decl, Map<String, Type> fields) {

    /** The struct's name. */
    public String name() {
        return decl.name();
    }
}
