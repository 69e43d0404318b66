package dev.waldoconf.config;

/**
 * One thing wrong with a configuration file, printed as
 * {@code configs/vlan.yaml:12:7: vlans[1].untagged: '3-x' is not a port or a port range like 1-4}.
 *
 * @param location where in which file
 * @param field the field path ({@code vlans[1].untagged}); empty for the whole document
 * @param message what is wrong and, where it helps, what to write instead
 */
public record ConfigProblem(SourceLocation location, String field, String message) {
    @Override
    public String toString() {
        return location + ": " + (field.isEmpty() ? "" : field + ": ") + message;
    }
}
