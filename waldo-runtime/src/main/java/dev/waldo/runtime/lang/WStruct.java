package dev.waldo.runtime.lang;

/**
 * A value of a Waldo {@code Struct}. Generated struct classes implement it with
 * field-wise {@code equals}, {@code hashCode} and a deep {@link #copy}.
 */
public interface WStruct {
    /** A deep copy: changing it never changes this struct. */
    WStruct copy();

    /** The struct's name in the Waldo source. */
    String structName();

    /** Field names in declaration order, for printing and serialization. */
    java.util.List<String> fieldNames();

    /** A field's value by name. */
    Object field(String name);

    /** Replaces a field's value by name (used by deserialization). */
    void setField(String name, Object value);
}
