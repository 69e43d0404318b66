package dev.waldo.compiler.diag;

/**
 * A region of one source file: where a token or syntax node starts (1-based line and column)
 * and the half-open character offset range {@code [start, end)} it covers.
 *
 * @param file  the source file's name as given to the compiler
 * @param line  1-based line of the first character
 * @param col   1-based column of the first character
 * @param start offset of the first character
 * @param end   offset just past the last character
 */
public record Span(String file, int line, int col, int start, int end) {

    /** Returns the span from the start of this one to the end of {@code last}. */
    public Span to(Span last) {
        return new Span(file, line, col, start, Math.max(end, last.end));
    }

    @Override
    public String toString() {
        return file + ":" + line + ":" + col;
    }
}
