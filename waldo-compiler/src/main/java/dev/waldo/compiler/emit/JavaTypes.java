package dev.waldo.compiler.emit;

import dev.waldo.compiler.check.Type;

/**
 * How Waldo types appear in emitted Java. Numbers and TrueFalse are
 * primitives where Java allows, boxed inside generics; every other value is
 * an object of the runtime's {@code dev.waldo.runtime.lang} classes.
 */
final class JavaTypes {
    private JavaTypes() {
    }

    /** The Java type of a local, parameter, field or result. */
    static String of(Type type) {
        return switch (type) {
            case Type.NumberType n -> "double";
            case Type.BoolType b -> "boolean";
            case Type.NothingType n -> "void";
            default -> boxed(type);
        };
    }

    /** The Java type inside generics ({@code Double}, not {@code double}). */
    static String boxed(Type type) {
        return switch (type) {
            case Type.NumberType n -> "Double";
            case Type.TextType t -> "String";
            case Type.BoolType b -> "Boolean";
            case Type.NothingType n -> "Object";
            case Type.EndpointType e -> "EndpointRef";
            case Type.ListType l -> "WList<" + boxed(l.element()) + ">";
            case Type.MapType m -> "WMap<" + boxed(m.key()) + ", " + boxed(m.value()) + ">";
            case Type.CSetType c -> "WCSet<" + boxed(c.element()) + ">";
            case Type.StructType s -> JavaNames.ofClass(s.name());
            case Type.DynamicType d -> "Object";
            case Type.ErrorType e -> throw new IllegalStateException("error type in a checked program");
        };
    }

    /** The class to check a value against when it crosses an untyped boundary. */
    static String rawClass(Type type) {
        return switch (type) {
            case Type.ListType l -> "WList.class";
            case Type.MapType m -> "WMap.class";
            case Type.CSetType c -> "WCSet.class";
            default -> boxed(type) + ".class";
        };
    }

    /** A Java expression for the runtime's {@code ValueType} of {@code type}, which {@code invoke} checks against. */
    static String valueType(Type type) {
        return switch (type) {
            case Type.NumberType n -> "ValueType.NUMBER";
            case Type.TextType t -> "ValueType.TEXT";
            case Type.BoolType b -> "ValueType.TRUE_FALSE";
            case Type.EndpointType e -> "ValueType.ENDPOINT";
            case Type.ListType l -> "ValueType.list(" + valueType(l.element()) + ")";
            case Type.MapType m -> "ValueType.map(" + valueType(m.key()) + ", " + valueType(m.value()) + ")";
            case Type.StructType s -> "ValueType.struct(" + JavaNames.ofClass(s.name()) + ".class)";
            default -> throw new IllegalStateException("a Public function's parameter has no value type: " + type);
        };
    }

    /** A Java expression for the type's default value (LANGUAGE.md §3). */
    static String defaultValue(Type type) {
        return switch (type) {
            case Type.NumberType n -> "0.0";
            case Type.TextType t -> "\"\"";
            case Type.BoolType b -> "false";
            case Type.ListType l -> "new " + boxed(type) + "()";
            case Type.MapType m -> "new " + boxed(type) + "()";
            case Type.CSetType c -> "new " + boxed(type) + "()";
            case Type.StructType s -> "new " + JavaNames.ofClass(s.name()) + "()";
            default -> "null";
        };
    }

    /** Whether values of the type are mutable containers that assignment must copy. */
    static boolean needsCopy(Type type) {
        return type instanceof Type.ListType || type instanceof Type.MapType || type instanceof Type.StructType
                || type instanceof Type.CSetType;
    }

    /**
     * Whether an endpoint or service variable of the type is a cell with finer locks than the
     * whole variable (a Map's per-key locks, a CSet's commuting adds): reading or assigning it
     * whole goes through {@code whole($ctx)} and {@code setWhole($ctx, v)} instead of get and set.
     */
    static boolean hasFinerLocks(Type type) {
        return type instanceof Type.MapType || type instanceof Type.CSetType;
    }

    /** The runtime class that holds an endpoint or service variable of the type. */
    static String cellClass(Type type) {
        return switch (type) {
            case Type.MapType map -> "TMap<" + boxed(map.key()) + ", " + boxed(map.value()) + ">";
            case Type.CSetType set -> "TCSet<" + boxed(set.element()) + ">";
            default -> "TVar<" + boxed(type) + ">";
        };
    }

    /** Whether the Java type is a primitive (compared with ==, never null). */
    static boolean isPrimitive(Type type) {
        return type instanceof Type.NumberType || type instanceof Type.BoolType;
    }

    /**
     * Converts an expression of static Java type Object to {@code type}: used for
     * sequence data, which the frame holds untyped.
     */
    static String cast(String objectExpr, Type type) {
        return switch (type) {
            case Type.NumberType n -> "((Double) " + objectExpr + ").doubleValue()";
            case Type.BoolType b -> "((Boolean) " + objectExpr + ").booleanValue()";
            case Type.NothingType n -> objectExpr;
            default -> "((" + boxed(type) + ") " + objectExpr + ")";
        };
    }
}
