package dev.waldo.runtime;

/**
 * The data of one running sequence: its arguments, its data section and its
 * named result. It travels with control between the two partners; after the
 * first hop only the entries that changed travel.
 */
public final class SequenceFrame {
    /** Starts the frame of sequence {@code sequence}; generated code then sets every data entry. */
    public SequenceFrame(String sequence) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** The sequence's name. */
    public String sequence() {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** The current value of data entry {@code name}; lists, maps and structs may be mutated in place. */
    public Object get(String name) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Replaces data entry {@code name} with an (already copied) value. */
    public void set(String name, Object value) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** True once a step executed {@code return}; the sequence then ends. */
    public boolean returned() {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** Ends the sequence early with {@code result} (null: the named result, or Nothing). */
    public void markReturned(Object result) {
        throw new UnsupportedOperationException("TODO runtime");
    }

    /** The value given to {@code return e;}, or null when none was given. */
    public Object returnedValue() {
        throw new UnsupportedOperationException("TODO runtime");
    }
}
