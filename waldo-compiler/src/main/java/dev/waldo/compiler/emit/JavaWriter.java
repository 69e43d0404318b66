package dev.waldo.compiler.emit;

/**
 * Builds Java source text line by line with four-space indentation, so the
 * emitted code reads like hand-written code and golden files stay stable.
 */
final class JavaWriter {
    private final StringBuilder text = new StringBuilder();
    private int depth;

    /** Writes one line at the current indentation; {@code format} uses {@link String#format} rules. */
    JavaWriter line(String format, Object... args) {
        String content = args.length == 0 ? format : String.format(format, args);
        if (!content.isEmpty()) {
            text.append("    ".repeat(depth)).append(content);
        }
        text.append('\n');
        return this;
    }

    /** Writes an empty line. */
    JavaWriter blank() {
        text.append('\n');
        return this;
    }

    /** Writes {@code header + " {"} and indents what follows. */
    JavaWriter open(String format, Object... args) {
        line((args.length == 0 ? format : String.format(format, args)) + " {");
        depth++;
        return this;
    }

    /** Closes the innermost block. */
    JavaWriter close() {
        depth--;
        line("}");
        return this;
    }

    /** Closes the innermost block with {@code suffix} after the brace, as in {@code };}. */
    JavaWriter close(String suffix) {
        depth--;
        line("}" + suffix);
        return this;
    }

    /** Closes the innermost block and continues on the same line, as in {@code } else {}. */
    JavaWriter closeOpen(String format, Object... args) {
        depth--;
        line("} " + (args.length == 0 ? format : String.format(format, args)) + " {");
        depth++;
        return this;
    }

    /** Writes a Javadoc comment at the current indentation. */
    JavaWriter javadoc(String summary) {
        return line("/** %s */", summary.replace("*/", "*&#47;"));
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
