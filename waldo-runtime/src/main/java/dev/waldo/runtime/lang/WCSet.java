package dev.waldo.runtime.lang;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A Waldo {@code CSet}: a counting set, after Walter's csets (Sovran et al., SOSP 2011). Each
 * element has an integer count; {@link #add} raises it by one and {@link #rem} lowers it by one,
 * so adds and removes commute: any order of the same operations leaves the same counts. A count
 * may go below zero (an anti-element: a remove that arrived before its add); an element is
 * {@linkplain #elements() in the set} while its count is positive. Elements are Number, Text or
 * TrueFalse, normalized as map keys are ({@link WMap#key}); they iterate in their natural order,
 * so two sets with the same counts list them the same way whatever order the adds came in.
 *
 * <p>A value with value semantics, like {@link WList} and {@link WMap}: {@link Values#copy}
 * copies it.
 */
public final class WCSet<E> {
    /** Non-zero counts only: an element back at zero is gone. */
    private final TreeMap<Object, Long> counts = new TreeMap<>();

    /** An empty counting set: every count is zero. */
    public WCSet() {
    }

    /** Raises the count of {@code element} by one. */
    public void add(E element) {
        change(element, 1);
    }

    /** Lowers the count of {@code element} by one (it may go below zero). */
    public void rem(E element) {
        change(element, -1);
    }

    /** The count of {@code element}: zero if it was never added or removed, negative for an anti-element. */
    public double count(E element) {
        return counts.getOrDefault(WMap.key(element), 0L);
    }

    /** The elements whose count is positive, in their natural order. */
    @SuppressWarnings("unchecked")
    public WList<E> elements() {
        WList<E> elements = new WList<>();
        counts.forEach((element, count) -> {
            if (count > 0) {
                elements.add((E) element);
            }
        });
        return elements;
    }

    /** Adds every count of {@code delta} to this set's (how a transaction's adds and removes install). */
    public void addAll(WCSet<E> delta) {
        delta.counts.forEach(this::change);
    }

    /** Every element with a non-zero count, and its count. */
    @SuppressWarnings("unchecked")
    public Map<E, Long> counts() {
        return (Map<E, Long>) (Map<?, Long>) java.util.Collections.unmodifiableMap(counts);
    }

    /** A copy with the same counts. */
    public WCSet<E> copy() {
        WCSet<E> copy = new WCSet<>();
        copy.counts.putAll(counts);
        return copy;
    }

    /** True if no element has a non-zero count. */
    public boolean isEmpty() {
        return counts.isEmpty();
    }

    private void change(Object element, long by) {
        Object key = WMap.key(element);
        long count = counts.getOrDefault(key, 0L) + by;
        if (count == 0) {
            counts.remove(key);
        } else {
            counts.put(key, count);
        }
    }

    /** Counting sets are equal when every element has the same count in both. */
    @Override
    public boolean equals(Object other) {
        return other instanceof WCSet<?> set && counts.equals(set.counts);
    }

    @Override
    public int hashCode() {
        return Objects.hash(counts);
    }

    /** As Waldo prints it: {@code cset{'a': 2, 'b': -1}}, every non-zero count. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("cset{");
        boolean first = true;
        for (Map.Entry<Object, Long> entry : counts.entrySet()) {
            Object element = entry.getKey();
            text.append(first ? "" : ", ").append(element instanceof String s ? "'" + s + "'" : Values.toText(element))
                    .append(": ").append(entry.getValue());
            first = false;
        }
        return text.append('}').toString();
    }
}
