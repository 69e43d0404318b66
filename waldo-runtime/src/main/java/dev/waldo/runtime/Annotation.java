package dev.waldo.runtime;

import java.util.Map;

/**
 * Metadata from a Waldo annotation such as {@code @snmp(oid: '1.3.6.1...', kind: 'portlist')}.
 * The compiler checks only its syntax; bindings give it meaning.
 *
 * @param name the annotation's name, without '@'
 * @param arguments its key/value arguments in source order; values are Text, Number or TrueFalse
 */
public record Annotation(String name, Map<String, Object> arguments) {
    public Annotation {
        arguments = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(arguments));
    }
}
