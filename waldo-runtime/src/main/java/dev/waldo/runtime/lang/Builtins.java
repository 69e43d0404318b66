package dev.waldo.runtime.lang;

import dev.waldo.runtime.ApplicationException;
import java.util.Map;

/**
 * Waldo's built-in functions and the operations that can fail at run time.
 * Each failure raises {@link ApplicationException} with a message that says
 * what was wrong, as LANGUAGE.md §4 requires.
 */
public final class Builtins {
    private Builtins() {
    }

    /** {@code len(x)} of a Text, List or Map. */
    public static double len(Object value) {
        return switch (value) {
            case String text -> text.length();
            case WList<?> list -> list.size();
            case WMap<?, ?> map -> map.size();
            default -> throw new ApplicationException("len() needs Text, List or Map, got " + Values.toText(value));
        };
    }

    /** {@code range(a)}: 0, 1, ..., a-1. */
    public static WList<Double> range(double end) {
        return range(0, end, 1);
    }

    /** {@code range(a, b)}: a, a+1, ..., b-1. */
    public static WList<Double> range(double start, double end) {
        return range(start, end, 1);
    }

    /** {@code range(a, b, step)}; a zero step raises ApplicationException. */
    public static WList<Double> range(double start, double end, double step) {
        if (step == 0) {
            throw new ApplicationException("range() step must not be 0");
        }
        WList<Double> numbers = new WList<>();
        for (double n = start; step > 0 ? n < end : n > end; n += step) {
            numbers.add(n);
        }
        return numbers;
    }

    /** {@code keys(m)}: the map's keys in insertion order. */
    public static <K> WList<K> keys(Map<K, ?> map) {
        return new WList<>(map.keySet());
    }

    /** {@code list[i]}, with a bounds check. */
    public static <T> T index(WList<T> list, double index) {
        return list.get(position(index, list.size(), "list"));
    }

    /** {@code text[i]}: the one-character Text at i. */
    public static String index(String text, double index) {
        int at = position(index, text.length(), "text");
        return text.substring(at, at + 1);
    }

    /** {@code map[k]}; a missing key raises ApplicationException. */
    public static <K, V> V index(WMap<K, V> map, K key) {
        V value = map.get(key);
        if (value == null && !map.containsKey(key)) {
            throw new ApplicationException("missing map key " + Values.toText(key));
        }
        return value;
    }

    /** {@code list[i] = v}, with a bounds check. */
    public static <T> void setIndex(WList<T> list, double index, T value) {
        list.set(position(index, list.size(), "list"), value);
    }

    /** {@code list.insert(i, x)}: i may equal the length (append). */
    public static <T> void insert(WList<T> list, double index, T value) {
        if (!isWholeFromZeroTo(index, list.size())) {
            throw new ApplicationException("list insert position " + Values.formatNumber(index)
                    + " out of range (size " + list.size() + ", so a whole number from 0 to " + list.size() + ")");
        }
        list.add((int) index, value);
    }

    /** {@code list.remove(i)}, with a bounds check. */
    public static <T> void remove(WList<T> list, double index) {
        list.remove(position(index, list.size(), "list"));
    }

    /** {@code a / b}; division by zero raises ApplicationException. */
    public static double divide(double dividend, double divisor) {
        if (divisor == 0) {
            throw new ApplicationException("division by zero");
        }
        return dividend / divisor;
    }

    /** {@code a % b}; a zero divisor raises ApplicationException. */
    public static double remainder(double dividend, double divisor) {
        if (divisor == 0) {
            throw new ApplicationException("remainder by zero");
        }
        return dividend % divisor;
    }

    /**
     * {@code x in c}: substring of Text, element of List (by Waldo's {@code ==}, so {@code -0 in [0]}),
     * key of Map. The element comes first, as
     * in the source, so that Java evaluates the operands left to right, as Waldo does.
     */
    public static boolean in(Object element, Object container) {
        return switch (container) {
            case String text when element instanceof String part -> text.contains(part);
            case WList<?> list -> list.stream().anyMatch(item -> Values.equal(item, element));
            case WMap<?, ?> map -> map.containsKey(element);
            default -> throw new ApplicationException("'in' needs Text, List or Map on its right, got "
                    + Values.toText(container));
        };
    }

    private static int position(double index, int size, String what) {
        if (!isWholeFromZeroTo(index, size - 1)) {
            throw new ApplicationException(what + " index " + Values.formatNumber(index)
                    + " out of range (size " + size + ")");
        }
        return (int) index;
    }

    // A list or text position: a whole number from 0 to last (an index; an insert may also name the end).
    private static boolean isWholeFromZeroTo(double index, int last) {
        return index == Math.rint(index) && index >= 0 && index <= last;
    }
}
