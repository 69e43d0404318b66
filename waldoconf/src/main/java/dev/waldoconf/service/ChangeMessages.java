package dev.waldoconf.service;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The operator's messages about a change that did not end cleanly: which switches may hold
 * what, and what to do next. They name switches exactly, never by a part of their name.
 */
final class ChangeMessages {
    /** What separates names in runtime and device messages: a switch name has none of these. */
    private static final Pattern SEPARATORS = Pattern.compile("[\\s'\"(),;\\[\\]]+");

    private ChangeMessages() {
    }

    /**
     * The switch among {@code names} that {@code reason} names first: as a word of its own
     * ({@code lab-1:} or {@code 'lab-1'}) or as its service's host id ({@code switch-lab-1}), never
     * as part of a longer name ({@code lab-1} is not in {@code switch-lab-12}).
     */
    static Optional<String> switchNamedIn(String reason, List<String> names) {
        if (reason == null) {
            return Optional.empty();
        }
        for (String word : SEPARATORS.split(reason)) {
            String token = word.replaceAll("[:.]+$", "");
            for (String name : names) {
                if (token.equals(name) || token.equals(Identities.serviceIdentity(name))) {
                    return Optional.of(name);
                }
            }
        }
        return Optional.empty();
    }

    /** A plain apply whose staging committed and whose confirm failed: the change is a trial now. */
    static String unconfirmed(ChangeRunner.UnconfirmedException e) {
        return "change " + e.change() + " was made on " + String.join(", ", e.switches()) + ", but the step that"
                + " keeps it failed (" + e.getMessage() + "). Those switches hold it as a trial that each of them"
                + " reverts by itself at " + e.deadline() + ": run 'waldoconf confirm " + e.change() + "' to keep"
                + " it or 'waldoconf rollback " + e.change() + "' to undo it now; 'waldoconf status' shows it.";
    }

    /**
     * An apply whose transaction raised an error of a service program's own logic (an
     * ApplicationException: a missing map key, an index out of range) that nothing caught: the
     * runtime backed it out everywhere, so nothing changed.
     */
    static String failedInServiceProgram(String change, String reason) {
        return "change " + change + " failed in a switch's service program: " + reason + ". It was backed out"
                + " everywhere: no switch was changed. This is a fault in the service program (its .wld), not in"
                + " the plan: report it with the service's log ('waldoconf serve' writes it).";
    }

    /**
     * An apply that lost a switch or its service before it committed.
     *
     * @param reason the runtime's reason; when it names one of {@code staged} (by name or host
     *     id), only that switch may hold the change
     * @param staged the switches the change would have changed (empty if it failed before resolving)
     * @param revertBy when a switch that is left holding the staged change reverts it by itself
     */
    static String interrupted(String change, String reason, List<String> staged, boolean trial, Instant revertBy) {
        if (staged.isEmpty()) {
            return "change " + change + " did not start: " + reason + "; no switch was changed";
        }
        List<String> mayHold = switchNamedIn(reason, staged).map(List::of).orElse(staged);
        return "change " + change + " did not commit: " + reason + ". Switches that may hold it: "
                + String.join(", ", mayHold) + " (lost during the commit): each holds it"
                + (trial ? " as its trial" : " as an unconfirmed trial") + " until it learns the outcome from the"
                + " others, and reverts it by itself at " + revertBy + " at the latest. Every other switch holds"
                + " its old state. Check with 'waldoconf status'.";
    }
}
