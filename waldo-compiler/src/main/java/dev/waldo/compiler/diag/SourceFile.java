package dev.waldo.compiler.diag;

/**
 * One {@code .wld} source file given to the compiler.
 *
 * @param name the name used in diagnostics, usually the path as the user typed it
 * @param text the whole file's contents
 */
public record SourceFile(String name, String text) {

    /** Returns the text of the 1-based line {@code line}, without its line terminator. */
    public String lineText(int line) {
        int start = 0;
        for (int current = 1; current < line; current++) {
            int newline = text.indexOf('\n', start);
            if (newline < 0) {
                return "";
            }
            start = newline + 1;
        }
        int end = text.indexOf('\n', start);
        String result = end < 0 ? text.substring(start) : text.substring(start, end);
        return result.endsWith("\r") ? result.substring(0, result.length() - 1) : result;
    }
}
