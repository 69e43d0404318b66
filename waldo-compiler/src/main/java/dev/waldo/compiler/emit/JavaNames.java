package dev.waldo.compiler.emit;

import java.util.Set;

/**
 * Maps Waldo identifiers to Java ones. Waldo names never contain '$', so the
 * emitter's own names ({@code $ctx}, {@code name$}) cannot collide with the
 * user's; Waldo names that are Java keywords or that would hide a method of
 * the runtime's base classes get a trailing '_'.
 */
final class JavaNames {
    private static final Set<String> RESERVED = Set.of(
            // Java keywords and literals that are legal Waldo identifiers.
            "abstract", "assert", "boolean", "byte", "case", "char", "class", "const", "default", "do",
            "double", "enum", "extends", "final", "float", "goto", "implements", "import", "instanceof",
            "int", "interface", "long", "native", "new", "null", "package", "private", "protected",
            "public", "short", "static", "strictfp", "super", "switch", "synchronized", "this", "throw",
            "throws", "transient", "void", "volatile", "true", "false", "var", "yield", "record",
            "sealed", "permits", "exports", "module", "open", "opens", "provides", "requires", "to",
            "transitive", "uses", "with", "when", "_",
            // Methods of WaldoObject/WaldoEndpoint and Object that a Public method would clash with.
            "host", "kind", "ref", "id", "partner", "create", "transact", "dispatch", "runStep",
            "committedValue", "committed", "mapVar", "csetVar", "invoke", "functions", "publicFunctions",
            "getClass", "hashCode", "equals", "toString", "clone", "finalize", "notify", "notifyAll", "wait",
            // The list of a class's Variable constants, which host code finds by this name.
            "VARIABLES",
            // Classes the emitted code names without qualification.
            "Ctx", "Host", "Values", "Builtins", "Dispatch", "WList", "WMap", "WCSet", "SequenceFrame",
            "PublicFunction", "ValueType", "Object", "String", "Double", "Boolean", "Math");

    /** Runtime classes a generated class names unqualified, which a kind or struct must not hide. */
    private static final Set<String> RUNTIME_CLASSES = Set.of("EndpointRef", "Annotation", "TVar", "TMap", "TCSet",
            "Variable");

    private JavaNames() {
    }

    /**
     * The Java name for a Waldo variable, parameter, field or Public method: a reserved name, and a
     * reserved name followed by '_'s, gets one more '_' ({@code short} → {@code short_},
     * {@code short_} → {@code short__}), so no two Waldo names meet in Java.
     */
    static String of(String waldoName) {
        return RESERVED.contains(stem(waldoName)) ? waldoName + "_" : waldoName;
    }

    /** Every name {@link #of} moves aside, for the test that holds the README's table to it. */
    static Set<String> reserved() {
        return RESERVED;
    }

    /** Every further name {@link #ofClass} moves aside, for the same test. */
    static Set<String> runtimeClasses() {
        return RUNTIME_CLASSES;
    }

    /** {@code name} without its trailing '_'s ({@code id__} → {@code id}); "_" for a name of '_'s only. */
    private static String stem(String name) {
        int end = name.length();
        while (end > 1 && name.charAt(end - 1) == '_') {
            end--;
        }
        return name.substring(0, end);
    }

    /**
     * The constant that holds a variable's {@code Variable} handle: the Waldo name in upper
     * case ({@code trial_switches} becomes {@code TRIAL_SWITCHES}), before {@link #unique}.
     */
    static String constant(String waldoName) {
        return waldoName.toUpperCase(java.util.Locale.ROOT);
    }

    /**
     * {@code name}, with '_' appended until no member in {@code taken} has it; adds the result to
     * {@code taken}. Keeps constants apart from fields whose Waldo names differ only in case.
     * Constants are upper case, so none is a Java keyword.
     */
    static String unique(String name, Set<String> taken) {
        String candidate = name;
        while (!taken.add(candidate)) {
            candidate += "_";
        }
        return candidate;
    }

    /** The Java class name for an endpoint kind, service or struct. */
    static String ofClass(String waldoName) {
        String stem = stem(waldoName);
        return RESERVED.contains(stem) || RUNTIME_CLASSES.contains(stem) ? waldoName + "_" : waldoName;
    }

    /** {@code name} with its indefinite article, for generated Javadoc: "an Order", "a Lamp". */
    static String article(String name) {
        return ("AEIOU".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name;
    }

    /** The in-transaction method that runs Waldo function {@code name}. */
    static String body(String name) {
        return name + "$";
    }

    /** The method that runs sequence {@code name} from its first endpoint. */
    static String sequence(String name) {
        return "seq$" + name;
    }

    /** The method that runs one step of a sequence on the endpoint that owns it. */
    static String step(String sequence, String step) {
        return "step$" + sequence + "$" + step;
    }

    /** A Java string literal for {@code text}. */
    static String literal(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /** A Java double literal for {@code number}. */
    static String literal(double number) {
        if (Double.isNaN(number)) {
            return "Double.NaN";
        }
        if (Double.isInfinite(number)) {
            return number > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY";
        }
        return Double.toString(number);
    }
}
