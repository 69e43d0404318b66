package dev.waldo.net;

import dev.waldo.runtime.lang.WStruct;

/**
 * Makes empty instances of the program's generated struct classes, so that
 * struct values arriving from a peer become the same Java types that local
 * code uses.
 */
@FunctionalInterface
public interface StructResolver {
    /** A resolver for programs that declare no structs: every struct is refused. */
    StructResolver NONE = name -> null;

    /**
     * A new instance of struct {@code name} whose fields the decoder then sets,
     * or null if this program has no such struct.
     */
    WStruct create(String name);
}
