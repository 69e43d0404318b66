package dev.waldo.runtime.lang;

import java.util.LinkedHashMap;
import java.util.Map;

/** A Waldo {@code Map}: keys are Number, Text or TrueFalse; iteration follows insertion order. */
public final class WMap<K, V> extends LinkedHashMap<K, V> {
    /** An empty map. */
    public WMap() {
    }

    /**
     * Builds a map literal from alternating keys and values; generated code
     * gives the type arguments, so the casts cannot fail.
     */
    @SuppressWarnings("unchecked")
    public static <K, V> WMap<K, V> of(Object... keysAndValues) {
        WMap<K, V> map = new WMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            map.put((K) keysAndValues[i], (V) keysAndValues[i + 1]);
        }
        return map;
    }

    /** A map holding {@code entries} as they are (callers copy them first when needed). */
    public WMap(Map<? extends K, ? extends V> entries) {
        super(entries);
    }
}
