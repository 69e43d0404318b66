package dev.waldo.runtime.lang;

import java.util.LinkedHashMap;
import java.util.Map;

/** A Waldo {@code Map}: keys are Number, Text or TrueFalse; iteration follows insertion order. */
public final class WMap<K, V> extends LinkedHashMap<K, V> {
    /** An empty map. */
    public WMap() {
    }

    /** A map holding {@code entries} as they are (callers copy them first when needed). */
    public WMap(Map<? extends K, ? extends V> entries) {
        super(entries);
    }
}
