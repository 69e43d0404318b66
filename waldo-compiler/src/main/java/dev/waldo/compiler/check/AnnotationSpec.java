package dev.waldo.compiler.check;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What an annotation means to the program that binds it, so the checker can hold every use of
 * it to that meaning: which arguments it takes and of which type, which of them are required,
 * what form a Text argument has, which variable types it can bind, and whether only Services
 * may carry it. A driver passes the specs of the annotations it gives meaning to (WaldoConf's
 * custom services pass {@code @snmp(oid: ...)}); annotations without a spec are checked only for
 * the rules every annotation follows (see LANGUAGE-NOTES.md).
 *
 * @param name the annotation's name, without '@'
 * @param arguments the arguments it takes; any other is an error
 * @param variableTypes the types of variable it can bind; empty means any
 * @param typesHint why only those types, appended to the error (e.g. "an SNMP scalar is Text or Number")
 * @param servicesOnly whether only variables of a Service may carry it
 */
public record AnnotationSpec(String name, List<Argument> arguments, List<Type> variableTypes, String typesHint,
        boolean servicesOnly) {
    public AnnotationSpec {
        Objects.requireNonNull(name, "name");
        arguments = List.copyOf(arguments);
        variableTypes = List.copyOf(variableTypes);
        Objects.requireNonNull(typesHint, "typesHint");
    }

    /**
     * One argument of an annotation.
     *
     * @param key its name
     * @param type {@link Type#TEXT}, {@link Type#NUMBER} or {@link Type#BOOL}
     * @param required whether every use must give it
     * @param format for Text, the whole value must match it (null: any text)
     * @param formatHint what a value that does not match should look like, for the error
     */
    public record Argument(String key, Type type, boolean required, Pattern format, String formatHint) {
        public Argument {
            Objects.requireNonNull(key, "key");
            if (!type.equals(Type.TEXT) && !type.equals(Type.NUMBER) && !type.equals(Type.BOOL)) {
                throw new IllegalArgumentException("annotation arguments are Text, Number or TrueFalse, not "
                        + type.display());
            }
        }

        /** {@code key: Type}, as errors list the arguments. */
        String described() {
            return key + ": " + type.display();
        }
    }

    /** The argument named {@code key}, or null. */
    Argument argument(String key) {
        return arguments.stream().filter(a -> a.key().equals(key)).findFirst().orElse(null);
    }
}
