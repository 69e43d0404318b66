package dev.waldo.runtime;

import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.lang.WMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * Deep equality of Waldo values that also respects map order, since Waldo
 * iterates maps in insertion order: two maps with the same entries in a
 * different order are different values. Used to find the sequence data that
 * changed and the bound variables that changed.
 */
final class SameValue {
    private SameValue() {
    }

    static boolean of(Object a, Object b) {
        if (a instanceof WList<?> left && b instanceof WList<?> right) {
            return sameLists(left, right);
        }
        if (a instanceof WMap<?, ?> left && b instanceof WMap<?, ?> right) {
            return sameMaps(left, right);
        }
        return Objects.equals(a, b);
    }

    private static boolean sameLists(WList<?> left, WList<?> right) {
        if (left.size() != right.size()) {
            return false;
        }
        for (int i = 0; i < left.size(); i++) {
            if (!of(left.get(i), right.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameMaps(WMap<?, ?> left, WMap<?, ?> right) {
        if (left.size() != right.size()) {
            return false;
        }
        Iterator<? extends Map.Entry<?, ?>> rightEntries = right.entrySet().iterator();
        for (Map.Entry<?, ?> entry : left.entrySet()) {
            Map.Entry<?, ?> other = rightEntries.next();
            if (!Objects.equals(entry.getKey(), other.getKey()) || !of(entry.getValue(), other.getValue())) {
                return false;
            }
        }
        return true;
    }
}
