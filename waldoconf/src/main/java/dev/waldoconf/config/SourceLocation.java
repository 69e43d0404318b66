package dev.waldoconf.config;

/**
 * A place in a configuration file, as messages print it: {@code configs/vlan.yaml:12:7}.
 *
 * @param file the file as the operator named it (relative paths stay relative)
 * @param line 1-based line
 * @param column 1-based column
 */
public record SourceLocation(String file, int line, int column) {
    /** The start of {@code file}, for problems that belong to the whole file. */
    public static SourceLocation startOf(String file) {
        return new SourceLocation(file, 1, 1);
    }

    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
