package dev.waldo.runtime.lang;

import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.WaldoObject;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;

/**
 * A Waldo type at run time, for checking values that host code passes without Java's type checks
 * ({@link WaldoObject#invoke}). {@link #accept} checks a value against it deeply and gives the
 * value as Waldo holds it: any Java number becomes a {@code Double}, any {@code List} or
 * {@code Map} a {@link WList} or {@link WMap} of accepted elements, a struct a copy, an endpoint
 * object its {@link EndpointRef}.
 */
public final class ValueType {
    private enum Kind { NUMBER, TEXT, TRUE_FALSE, ENDPOINT, LIST, MAP, STRUCT }

    /** Waldo's {@code Number}: any Java number a double holds exactly. */
    public static final ValueType NUMBER = new ValueType(Kind.NUMBER, null, null, null);
    /** Waldo's {@code Text}: a {@code String}. */
    public static final ValueType TEXT = new ValueType(Kind.TEXT, null, null, null);
    /** Waldo's {@code TrueFalse}: a {@code Boolean}. */
    public static final ValueType TRUE_FALSE = new ValueType(Kind.TRUE_FALSE, null, null, null);
    /** Waldo's {@code Endpoint}: an {@link EndpointRef}, a generated object (its ref), or null. */
    public static final ValueType ENDPOINT = new ValueType(Kind.ENDPOINT, null, null, null);

    private final Kind kind;
    private final ValueType first;
    private final ValueType second;
    private final Class<? extends WStruct> struct;

    private ValueType(Kind kind, ValueType first, ValueType second, Class<? extends WStruct> struct) {
        this.kind = kind;
        this.first = first;
        this.second = second;
        this.struct = struct;
    }

    /** Waldo's {@code List(element: T)}. */
    public static ValueType list(ValueType element) {
        return new ValueType(Kind.LIST, Objects.requireNonNull(element), null, null);
    }

    /** Waldo's {@code Map(from: K, to: V)}. */
    public static ValueType map(ValueType key, ValueType value) {
        return new ValueType(Kind.MAP, Objects.requireNonNull(key), Objects.requireNonNull(value), null);
    }

    /** A Waldo {@code Struct}, by its generated class. */
    public static ValueType struct(Class<? extends WStruct> type) {
        return new ValueType(Kind.STRUCT, null, null, Objects.requireNonNull(type));
    }

    /**
     * {@code value} as Waldo holds a value of this type: checked all the way down, converted and
     * copied (so the caller's containers stay its own).
     *
     * @throws IllegalArgumentException naming what does not fit and where (e.g. "element [2]")
     */
    public Object accept(Object value) {
        try {
            return convert(value);
        } catch (Mismatch mismatch) {
            throw new IllegalArgumentException("should be " + this + (mismatch.path.isEmpty() ? ", got " + mismatch.got
                    : ", but " + mismatch.path + " is " + mismatch.got + " (should be " + mismatch.expected + ")"));
        }
    }

    private Object convert(Object value) {
        if (value == null && kind != Kind.ENDPOINT) {
            throw new Mismatch("", "null", this);
        }
        return switch (kind) {
            case NUMBER -> number(value);
            case TEXT -> require(value, String.class);
            case TRUE_FALSE -> require(value, Boolean.class);
            case ENDPOINT -> value instanceof WaldoObject object ? object.ref()
                    : value == null ? null : require(value, EndpointRef.class);
            case LIST -> list(value);
            case MAP -> map(value);
            case STRUCT -> require(value, struct).copy();
        };
    }

    private Double number(Object value) {
        if (!(value instanceof Number number)) {
            throw new Mismatch(value, this);
        }
        try {
            return Values.number(number);
        } catch (IllegalArgumentException inexact) {
            throw new Mismatch("", inexact.getMessage(), this);
        }
    }

    private WList<Object> list(Object value) {
        if (!(value instanceof Collection<?> elements)) {
            throw new Mismatch(value, this);
        }
        WList<Object> accepted = new WList<>();
        int index = 0;
        for (Object element : elements) {
            accepted.add(within("[" + index++ + "]", first, element));
        }
        return accepted;
    }

    private WMap<Object, Object> map(Object value) {
        if (!(value instanceof Map<?, ?> entries)) {
            throw new Mismatch(value, this);
        }
        WMap<Object, Object> accepted = new WMap<>();
        for (Map.Entry<?, ?> entry : entries.entrySet()) {
            Object key = within("key " + Values.toText(entry.getKey()), first, entry.getKey());
            accepted.put(key, within("[" + Values.toText(entry.getKey()) + "]", second, entry.getValue()));
        }
        return accepted;
    }

    /** A part of a container, converted; a mismatch inside says which part ({@code [2]}, {@code key x}). */
    private static Object within(String part, ValueType type, Object value) {
        try {
            return type.convert(value);
        } catch (Mismatch inner) {
            throw new Mismatch(part + inner.path, inner.got, inner.expected);
        }
    }

    private <T> T require(Object value, Class<T> type) {
        if (!type.isInstance(value)) {
            throw new Mismatch(value, this);
        }
        return type.cast(value);
    }

    /** The type as Waldo source spells it: {@code Map(from: Text, to: List(element: Number))}. */
    @Override
    public String toString() {
        return switch (kind) {
            case NUMBER -> "Number";
            case TEXT -> "Text";
            case TRUE_FALSE -> "TrueFalse";
            case ENDPOINT -> "Endpoint";
            case LIST -> "List(element: " + first + ")";
            case MAP -> "Map(from: " + first + ", to: " + second + ")";
            case STRUCT -> struct.getSimpleName();
        };
    }

    /**
     * What did not fit, unwound to {@link #accept}: where inside the value ({@code [0][1]}, empty
     * for the value itself), what was there, and the type expected there.
     */
    private static final class Mismatch extends RuntimeException {
        final String path;
        final String got;
        final transient ValueType expected;

        Mismatch(String path, String got, ValueType expected) {
            super(null, null, false, false);
            this.path = path;
            this.got = got;
            this.expected = expected;
        }

        Mismatch(Object value, ValueType expected) {
            this("", value.getClass().getSimpleName() + " " + Values.toText(value), expected);
        }
    }
}
