package dev.waldo.runtime.lang;

import dev.waldo.runtime.EndpointRef;
import java.math.BigDecimal;
import java.util.Map;

/**
 * Value semantics and printing for Waldo values. Numbers are {@code Double},
 * Text is {@code String}, TrueFalse is {@code Boolean}, lists are {@link WList},
 * maps {@link WMap}, counting sets {@link WCSet}, structs {@link WStruct} and endpoints
 * {@link EndpointRef}.
 */
public final class Values {
    private Values() {
    }

    /**
     * A deep copy of {@code value}: lists, maps and structs are copied so that
     * no two variables share them; immutable values are returned as they are.
     */
    @SuppressWarnings("unchecked")
    public static <T> T copy(T value) {
        if (value instanceof WList<?> list) {
            WList<Object> copied = new WList<>();
            for (Object element : list) {
                copied.add(copy(element));
            }
            return (T) copied;
        }
        if (value instanceof WMap<?, ?> map) {
            WMap<Object, Object> copied = new WMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                copied.put(entry.getKey(), copy(entry.getValue()));
            }
            return (T) copied;
        }
        if (value instanceof WStruct struct) {
            return (T) struct.copy();
        }
        if (value instanceof WCSet<?> set) {
            return (T) set.copy();
        }
        return value;
    }

    /**
     * {@code number} as a Waldo Number: the {@code Double} of the same value. Host code may pass
     * any Java number where Waldo expects one (a map key, an {@code invoke} argument).
     *
     * @throws IllegalArgumentException if no {@code double} holds it exactly (a {@code long} above
     *     2<sup>53</sup>, {@code new BigDecimal("0.1")}): rounding could find another map key
     */
    public static Double number(Number number) {
        return switch (number) {
            case Double d -> d;
            // These widen to double exactly (Float's NaN and infinities included).
            case Integer i -> i.doubleValue();
            case Float f -> (double) f.floatValue();
            case Short s -> s.doubleValue();
            case Byte b -> b.doubleValue();
            default -> exactDouble(number);
        };
    }

    /** Long, BigDecimal, BigInteger, AtomicLong...: their decimal text tells whether the double is exact. */
    private static Double exactDouble(Number number) {
        double value = number.doubleValue();
        try {
            if (Double.isFinite(value) && new BigDecimal(number.toString()).compareTo(new BigDecimal(value)) == 0) {
                return value;
            }
        } catch (NumberFormatException notDecimal) {
            // Falls through to the refusal: a Number whose text is not a decimal has no exact value we can check.
        }
        throw new IllegalArgumentException(number + " (" + number.getClass().getSimpleName()
                + ") has no exact Number value: Waldo Numbers are doubles, and rounding would change it");
    }

    /** Waldo's {@code toText}: how {@code print} shows a value. */
    public static String toText(Object value) {
        StringBuilder text = new StringBuilder();
        append(text, value, false);
        return text.toString();
    }

    /**
     * Waldo's {@code ==}: structural equality of values. Numbers compare as IEEE doubles at every
     * depth ({@code [0] == [-0]}, {@code [NaN] != [NaN]}), as they do on their own, and not as Java's
     * {@code Double.equals} would; maps compare whatever their order, structs field by field.
     */
    public static boolean equal(Object left, Object right) {
        return switch (left) {
            case null -> right == null;
            case Double number when right instanceof Double other -> number.doubleValue() == other.doubleValue();
            case WList<?> list when right instanceof WList<?> other -> equalLists(list, other);
            case WMap<?, ?> map when right instanceof WMap<?, ?> other -> equalMaps(map, other);
            case WStruct struct when right instanceof WStruct other -> equalStructs(struct, other);
            default -> left.equals(right);
        };
    }

    private static boolean equalLists(WList<?> left, WList<?> right) {
        if (left.size() != right.size()) {
            return false;
        }
        for (int i = 0; i < left.size(); i++) {
            if (!equal(left.get(i), right.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean equalMaps(WMap<?, ?> left, WMap<?, ?> right) {
        if (left.size() != right.size()) {
            return false;
        }
        for (Map.Entry<?, ?> entry : left.entrySet()) {
            if (!right.containsKey(entry.getKey()) || !equal(entry.getValue(), right.get(entry.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean equalStructs(WStruct left, WStruct right) {
        if (!left.structName().equals(right.structName())) {
            return false;
        }
        for (String field : left.fieldNames()) {
            if (!equal(left.field(field), right.field(field))) {
                return false;
            }
        }
        return true;
    }

    /** Orders two Text values, for {@code < <= > >=} on Text. */
    public static int compare(String left, String right) {
        return left.compareTo(right);
    }

    /** A number as Waldo prints it: integral values without ".0". */
    public static String formatNumber(double number) {
        // Integral values print as integers (LANGUAGE.md §3). Below 1e21 that is exact and
        // readable; beyond, the digits would only spell out binary rounding, so keep the exponent.
        if (number == Math.rint(number) && Math.abs(number) < 1e21) {
            return new java.math.BigDecimal(number).toPlainString();
        }
        return Double.toString(number);
    }


    private static void append(StringBuilder text, Object value, boolean quoteText) {
        switch (value) {
            case null -> text.append("Nothing");
            case Double number -> text.append(formatNumber(number));
            case Boolean truth -> text.append(truth ? "True" : "False");
            case String string -> text.append(quoteText ? "'" + string + "'" : string);
            case WList<?> list -> appendList(text, list);
            case WMap<?, ?> map -> appendMap(text, map);
            case WStruct struct -> appendStruct(text, struct);
            case Throwable error -> text.append(error.getClass().getSimpleName()).append(": ")
                    .append(error.getMessage());
            default -> text.append(value);
        }
    }

    private static void appendList(StringBuilder text, WList<?> list) {
        text.append('[');
        for (int i = 0; i < list.size(); i++) {
            if (i > 0) {
                text.append(", ");
            }
            append(text, list.get(i), true);
        }
        text.append(']');
    }

    private static void appendMap(StringBuilder text, WMap<?, ?> map) {
        text.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!first) {
                text.append(", ");
            }
            first = false;
            append(text, entry.getKey(), true);
            text.append(": ");
            append(text, entry.getValue(), true);
        }
        text.append('}');
    }

    private static void appendStruct(StringBuilder text, WStruct struct) {
        text.append(struct.structName()).append('{');
        boolean first = true;
        for (String field : struct.fieldNames()) {
            if (!first) {
                text.append(", ");
            }
            first = false;
            text.append(field).append(": ");
            append(text, struct.field(field), true);
        }
        text.append('}');
    }
}
