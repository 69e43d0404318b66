package dev.waldo.runtime;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Metadata from a Waldo annotation such as {@code @snmp(oid: '1.3.6.1.2.1.1.6.0')}: the device
 * mapping a binding reads. The compiler checks that argument names are unique and values are
 * literals, and, for an annotation whose meaning the compiling program declares (an
 * {@code AnnotationSpec} of waldo-compiler), which arguments it takes and of what type; bindings
 * read the arguments typed with {@link #text}, {@link #number} and {@link #truth}.
 *
 * @param name the annotation's name, without '@'
 * @param arguments its key/value arguments in source order; values are String (Text), Double
 *     (Number) or Boolean (TrueFalse)
 */
public record Annotation(String name, Map<String, Object> arguments) {
    public Annotation {
        arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
    }

    /**
     * The Text argument {@code key}.
     *
     * @throws IllegalArgumentException if there is none, or it is not Text
     */
    public String text(String key) {
        return argument(key, String.class, "Text");
    }

    /**
     * The Number argument {@code key}.
     *
     * @throws IllegalArgumentException if there is none, or it is not a Number
     */
    public double number(String key) {
        return argument(key, Double.class, "Number");
    }

    /**
     * The TrueFalse argument {@code key}.
     *
     * @throws IllegalArgumentException if there is none, or it is not True or False
     */
    public boolean truth(String key) {
        return argument(key, Boolean.class, "TrueFalse");
    }

    private <T> T argument(String key, Class<T> type, String waldoType) {
        Object value = arguments.get(key);
        if (value == null) {
            throw new IllegalArgumentException("@" + name + " has no argument '" + key + "'; it has "
                    + (arguments.isEmpty() ? "none" : String.join(", ", arguments.keySet())));
        }
        if (!type.isInstance(value)) {
            throw new IllegalArgumentException("@" + name + "'s argument '" + key + "' is " + value
                    + ", not a " + waldoType);
        }
        return type.cast(value);
    }
}
