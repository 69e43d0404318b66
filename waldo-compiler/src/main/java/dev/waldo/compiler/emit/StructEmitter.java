package dev.waldo.compiler.emit;

import dev.waldo.compiler.check.StructInfo;
import dev.waldo.compiler.check.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the Java class of a Waldo struct: public fields with their defaults,
 * a deep {@code copy} (value semantics), field-wise equality, and the
 * reflective accessors the runtime uses to print and serialize it.
 */
final class StructEmitter {
    private final StructInfo struct;
    private final String className;
    private final JavaWriter out = new JavaWriter();

    StructEmitter(StructInfo struct) {
        this.struct = struct;
        this.className = JavaNames.ofClass(struct.name());
    }

    /** The class body, without package and imports. */
    String emit() {
        out.javadoc("Struct " + struct.name() + ": a record with value semantics.");
        out.open("public final class %s implements WStruct", className);
        for (Map.Entry<String, Type> field : struct.fields().entrySet()) {
            out.line("public %s %s = %s;", JavaTypes.of(field.getValue()), JavaNames.of(field.getKey()),
                    JavaTypes.defaultValue(field.getValue()));
        }
        out.blank();
        copy();
        accessors();
        equality();
        out.close();
        return out.toString();
    }

    private void copy() {
        out.line("@Override");
        out.open("public %s copy()", className);
        out.line("%s copy = new %s();", className, className);
        for (Map.Entry<String, Type> field : struct.fields().entrySet()) {
            String name = JavaNames.of(field.getKey());
            out.line(JavaTypes.needsCopy(field.getValue()) ? "copy.%s = Values.copy(this.%s);" : "copy.%s = this.%s;",
                    name, name);
        }
        out.line("return copy;");
        out.close().blank();
    }

    private void accessors() {
        out.line("@Override");
        out.open("public String structName()");
        out.line("return %s;", JavaNames.literal(struct.name()));
        out.close().blank();
        List<String> names = new ArrayList<>();
        struct.fields().keySet().forEach(name -> names.add(JavaNames.literal(name)));
        out.line("@Override");
        out.open("public java.util.List<String> fieldNames()");
        out.line("return java.util.List.of(%s);", String.join(", ", names));
        out.close().blank();
        out.line("@Override");
        // Parameters are '$'-named and fields 'this.'-qualified: a struct may have a field called
        // 'name' or 'value', which would otherwise be shadowed.
        out.open("public Object field(String $name)");
        out.open("return switch ($name)");
        struct.fields().keySet().forEach(name ->
                out.line("case %s -> this.%s;", JavaNames.literal(name), JavaNames.of(name)));
        out.line("default -> throw new IllegalArgumentException(\"no field \" + $name + \" in %s\");", struct.name());
        out.close(";");
        out.close().blank();
        out.line("@Override");
        out.open("public void setField(String $name, Object $value)");
        out.open("switch ($name)");
        for (Map.Entry<String, Type> field : struct.fields().entrySet()) {
            out.line("case %s -> this.%s = %s;", JavaNames.literal(field.getKey()), JavaNames.of(field.getKey()),
                    JavaTypes.cast("$value", field.getValue()));
        }
        out.line("default -> throw new IllegalArgumentException(\"no field \" + $name + \" in %s\");", struct.name());
        out.close();
        out.close().blank();
    }

    private void equality() {
        List<String> names = new ArrayList<>();
        struct.fields().keySet().forEach(name -> names.add(JavaNames.of(name)));
        out.line("@Override");
        out.open("public boolean equals(Object other)");
        if (names.isEmpty()) {
            out.line("return other instanceof %s;", className);
        } else {
            List<String> checks = new ArrayList<>();
            names.forEach(name -> checks.add("java.util.Objects.equals(this." + name + ", that." + name + ")"));
            out.line("return other instanceof %s that && %s;", className, String.join(" && ", checks));
        }
        out.close().blank();
        out.line("@Override");
        out.open("public int hashCode()");
        out.line("return java.util.Objects.hash(%s);", String.join(", ", names.stream().map(n -> "this." + n).toList()));
        out.close().blank();
        out.line("@Override");
        out.open("public String toString()");
        out.line("return Values.toText(this);");
        out.close();
    }
}
