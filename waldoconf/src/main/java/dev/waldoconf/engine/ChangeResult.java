package dev.waldoconf.engine;

import java.util.List;

/**
 * How a confirm or rollback ended.
 *
 * @param changeId the change it acted on
 * @param ok whether every switch of it confirmed or reverted
 * @param switches the switches of the change
 * @param message one line for the operator
 */
public record ChangeResult(String changeId, boolean ok, List<String> switches, String message) {
    /** Copies the list. */
    public ChangeResult {
        switches = List.copyOf(switches);
    }
}
