package dev.waldo.compiler.emit;

import dev.waldo.compiler.check.StructInfo;
import dev.waldo.compiler.check.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the Java class of a Waldo struct: public fields with their defaults,
 * a constructor of defaults and one taking every field in declaration order,
 * a deep {@code copy} (value semantics), field-wise equality, and the
 * reflective accessors the runtime uses to print and serialize it.
 */
final class StructEmitter {
    /** The JVM's limit on a constructor's parameter slots (255, less one for {@code this}). */
    private static final int MAX_PARAMETER_SLOTS = 254;

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
        constructors();
        copy();
        accessors();
        equality();
        out.close();
        return out.toString();
    }

    /**
     * A constructor of defaults (what Waldo's {@code S s;} gives), and for host code one that takes
     * the fields in declaration order, copying containers so the caller's list stays its own.
     */
    private void constructors() {
        out.javadoc("Makes " + JavaNames.article(struct.name()) + " with every field at its default.");
        out.open("public %s()", className).close().blank();
        if (struct.fields().isEmpty() || parameterSlots() > MAX_PARAMETER_SLOTS) {
            return;
        }
        List<String> params = new ArrayList<>();
        struct.fields().forEach((name, type) -> params.add(JavaTypes.of(type) + " " + JavaNames.of(name)));
        out.javadoc("Makes " + JavaNames.article(struct.name()) + " with the given fields, in declaration order;"
                + " lists, maps and structs are copied (value semantics).");
        out.open("public %s(%s)", className, String.join(", ", params));
        struct.fields().forEach((name, type) -> out.line("this.%s = %s;", JavaNames.of(name), fieldValue(name, type)));
        out.close().blank();
    }

    /** What the fields' constructor parameters take of the JVM's limit: a double takes two slots. */
    private int parameterSlots() {
        return struct.fields().values().stream().mapToInt(type -> type instanceof Type.NumberType ? 2 : 1).sum();
    }

    /** The constructor parameter as the field keeps it: never null where Waldo has no null, containers copied. */
    private String fieldValue(String name, Type type) {
        String param = JavaNames.of(name);
        if (JavaTypes.isPrimitive(type) || type instanceof Type.EndpointType) {
            return param;
        }
        String checked = "java.util.Objects.requireNonNull(" + param + ", "
                + JavaNames.literal(struct.name() + "." + name) + ")";
        return JavaTypes.needsCopy(type) ? "Values.copy(" + checked + ")" : checked;
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
