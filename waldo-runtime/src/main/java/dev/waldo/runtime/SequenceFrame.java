package dev.waldo.runtime;

import dev.waldo.runtime.lang.Values;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The data of one running sequence: its arguments, its data section and its
 * named result. It travels with control between the two partners; after the
 * first hop only the entries that changed travel.
 */
public final class SequenceFrame {
    private final String sequence;
    private final Map<String, Object> data = new LinkedHashMap<>();
    /** What the partner last saw of each entry (deep copies), to compute what changed since. */
    private final Map<String, Object> synced = new HashMap<>();
    private boolean returned;
    private Object returnedValue;
    /** Identifies the frame within its transaction once it has travelled; 0 before. */
    long id;

    /** Starts the frame of sequence {@code sequence}; generated code then sets every data entry. */
    public SequenceFrame(String sequence) {
        this.sequence = sequence;
    }

    /** The sequence's name. */
    public String sequence() {
        return sequence;
    }

    /** The current value of data entry {@code name}; lists, maps and structs may be mutated in place. */
    public Object get(String name) {
        if (!data.containsKey(name)) {
            throw new IllegalArgumentException("sequence " + sequence + " has no data entry '" + name + "'");
        }
        return data.get(name);
    }

    /** Replaces data entry {@code name} with an (already copied) value. */
    public void set(String name, Object value) {
        data.put(name, value);
    }

    /** True once a step executed {@code return}; the sequence then ends. */
    public boolean returned() {
        return returned;
    }

    /** Ends the sequence early with {@code result} (null: the named result, or Nothing). */
    public void markReturned(Object result) {
        returned = true;
        returnedValue = result;
    }

    /** The value given to {@code return e;}, or null when none was given. */
    public Object returnedValue() {
        return returnedValue;
    }

    /** Copies of the entries that differ from what the partner last saw (all of them before the first hop). */
    Map<String, Object> changesSinceSync() {
        Map<String, Object> changes = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : data.entrySet()) {
            String name = entry.getKey();
            if (!synced.containsKey(name) || !SameValue.of(synced.get(name), entry.getValue())) {
                changes.put(name, Values.copy(entry.getValue()));
            }
        }
        return changes;
    }

    /** Records that the partner now sees exactly this frame. */
    void markSynced() {
        synced.clear();
        for (Map.Entry<String, Object> entry : data.entrySet()) {
            synced.put(entry.getKey(), Values.copy(entry.getValue()));
        }
    }

    /** Takes the changes the partner made (values owned by this frame from now on); the partner sees them too. */
    void absorb(Map<String, Object> changes) {
        for (Map.Entry<String, Object> entry : changes.entrySet()) {
            data.put(entry.getKey(), entry.getValue());
            synced.put(entry.getKey(), Values.copy(entry.getValue()));
        }
    }
}
