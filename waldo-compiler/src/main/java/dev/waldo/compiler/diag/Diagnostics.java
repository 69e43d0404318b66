package dev.waldo.compiler.diag;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Collects the errors of one compilation, in the order they were found. */
public final class Diagnostics {
    private final List<Diagnostic> errors = new ArrayList<>();

    /** Records an error at {@code span}. */
    public void error(Span span, String message) {
        errors.add(new Diagnostic(span, message));
    }

    /** Returns whether any error was recorded. */
    public boolean hasErrors() {
        return !errors.isEmpty();
    }

    /** Returns how many errors were recorded so far. */
    public int count() {
        return errors.size();
    }

    /** Returns the errors recorded so far, oldest first. */
    public List<Diagnostic> all() {
        return Collections.unmodifiableList(errors);
    }
}
