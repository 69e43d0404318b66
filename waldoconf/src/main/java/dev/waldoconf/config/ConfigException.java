package dev.waldoconf.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A configuration file is unreadable or invalid. It carries every problem found, each naming
 * file, line, column and field, so the operator can fix them all in one pass.
 */
public class ConfigException extends Exception {
    private final List<ConfigProblem> problems;

    /** An exception for one or more problems (at least one). */
    public ConfigException(List<ConfigProblem> problems) {
        super(problems.stream().map(ConfigProblem::toString).collect(Collectors.joining("\n")));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    /** An exception for a single problem. */
    public ConfigException(ConfigProblem problem) {
        this(List.of(problem));
    }

    /** The problems, in file order as far as they were found in it. */
    public List<ConfigProblem> problems() {
        return problems;
    }
}
