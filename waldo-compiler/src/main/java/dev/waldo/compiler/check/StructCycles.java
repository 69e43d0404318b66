package dev.waldo.compiler.check;

import dev.waldo.compiler.diag.Diagnostics;
import dev.waldo.compiler.syntax.VarDecl;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Finds structs that contain themselves through struct-typed fields. Such a struct has no
 * finite default value (LANGUAGE.md: "struct of defaults"), so it is an error. Lists and maps
 * of the struct are fine: their default is empty.
 */
final class StructCycles {
    private final Map<String, StructInfo> structs;
    private final Diagnostics diagnostics;

    StructCycles(Map<String, StructInfo> structs, Diagnostics diagnostics) {
        this.structs = structs;
        this.diagnostics = diagnostics;
    }

    /** Reports each struct that can reach itself, once, at the field that starts the cycle. */
    void report() {
        for (StructInfo struct : structs.values()) {
            for (VarDecl field : struct.decl().fields()) {
                if (struct.fields().get(field.name()) instanceof Type.StructType inner
                        && reaches(inner.name(), struct.name(), new HashSet<>())) {
                    diagnostics.error(field.nameSpan(), "struct '" + struct.name() + "' contains itself through field '"
                            + field.name() + "'; use a List or Map of it instead");
                    break;
                }
            }
        }
    }

    private boolean reaches(String from, String target, Set<String> seen) {
        if (from.equals(target)) {
            return true;
        }
        StructInfo struct = structs.get(from);
        if (struct == null || !seen.add(from)) {
            return false;
        }
        for (Type type : struct.fields().values()) {
            if (type instanceof Type.StructType inner && reaches(inner.name(), target, seen)) {
                return true;
            }
        }
        return false;
    }
}
