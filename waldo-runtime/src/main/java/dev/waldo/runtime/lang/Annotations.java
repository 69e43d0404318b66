package dev.waldo.runtime.lang;

import dev.waldo.runtime.Annotation;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds {@link Annotation}s in generated code, keeping arguments in source order. */
public final class Annotations {
    private Annotations() {
    }

    /** An annotation from its name and alternating argument names and values. */
    public static Annotation of(String name, Object... keysAndValues) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            arguments.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return new Annotation(name, arguments);
    }
}
