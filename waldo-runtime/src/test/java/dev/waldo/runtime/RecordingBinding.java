package dev.waldo.runtime;

import dev.waldo.runtime.lang.Values;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A binding that votes yes and records what it is told, as "prepare var before->after". */
class RecordingBinding implements Binding {
    private final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public Vote prepare(BoundTransaction transaction) {
        record("prepare", transaction);
        return Vote.yes();
    }

    @Override
    public void commit(BoundTransaction transaction) {
        record("commit", transaction);
    }

    @Override
    public void abort(BoundTransaction transaction) {
        record("abort", transaction);
    }

    List<String> events() {
        return List.copyOf(events);
    }

    private void record(String phase, BoundTransaction transaction) {
        for (BoundTransaction.Change change : transaction.changes()) {
            events.add(phase + " " + change.variable() + " " + Values.toText(change.before())
                    + "->" + Values.toText(change.after()));
        }
    }
}
