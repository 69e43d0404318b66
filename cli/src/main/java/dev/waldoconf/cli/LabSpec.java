package dev.waldoconf.cli;

/**
 * What lab to start, as {@code lab up} was asked for it; the lab's record keeps it so later
 * invocations know how the lab runs.
 *
 * @param switches how many switches
 * @param containers whether each switch runs in its own container instead of in the lab process
 * @param insecure whether the switches' services run with TLS off ({@code --insecure})
 */
record LabSpec(int switches, boolean containers, boolean insecure) {
    /** How long a lab may take to start: a minute, plus time for each container's Java to come up. */
    long startTimeoutMs() {
        return LabLauncher.START_TIMEOUT_MS + (containers ? 2_000L * switches : 0);
    }

    /** For messages: "2 switches in containers, services with TLS off". */
    String describe() {
        return switches + (switches == 1 ? " switch" : " switches") + (containers ? " in containers" : "")
                + (insecure ? ", services with TLS off (--insecure)" : "");
    }
}
