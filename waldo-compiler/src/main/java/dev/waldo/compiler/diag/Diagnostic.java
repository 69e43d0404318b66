package dev.waldo.compiler.diag;

/**
 * One error found in the user's program.
 *
 * @param span    where the error is
 * @param message what is wrong, phrased so the user can act on it
 */
public record Diagnostic(Span span, String message) {

    /** Returns the one-line form {@code file:line:col: error: message}. */
    public String headline() {
        return span.file() + ":" + span.line() + ":" + span.col() + ": error: " + message;
    }

    /**
     * Returns the headline followed by the offending source line and a caret under the
     * column, the way compilers print errors for humans.
     */
    public String format(SourceFile source) {
        String line = source.lineText(span.line());
        StringBuilder caret = new StringBuilder();
        // Copy tabs from the source line so the caret lines up however tabs are shown.
        for (int i = 0; i < span.col() - 1 && i < line.length(); i++) {
            caret.append(line.charAt(i) == '\t' ? '\t' : ' ');
        }
        caret.append('^');
        return headline() + "\n" + line + "\n" + caret;
    }
}
