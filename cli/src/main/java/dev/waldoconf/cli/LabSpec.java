package dev.waldoconf.cli;

import dev.waldo.net.Security;
import dev.waldoconf.lab.DeviceProfile;

/**
 * What lab to start, as {@code lab up} was asked for it; the lab's record keeps it so later
 * invocations know how the lab runs.
 *
 * @param switches how many switches
 * @param containers whether each switch runs in its own container instead of in the lab process
 * @param security how the switches' services and the operator authenticate each other: the lab's
 *     own project CA (the default), trust on first use ({@code --tofu}) or TLS off ({@code --insecure})
 * @param profile how fast and how reliably the switches answer ({@code --profile}, {@code fast} by default)
 */
record LabSpec(int switches, boolean containers, Security security, DeviceProfile profile) {
    /** The largest lab {@code lab up} starts: the size of a large site, as issue 10 asks for. */
    static final int MAX_SWITCHES = 1000;

    /** A lab of switches with the {@code fast} profile. */
    LabSpec(int switches, boolean containers, Security security) {
        this(switches, containers, security, DeviceProfile.FAST);
    }

    /**
     * How long a lab may take to start: a minute, plus time for each switch's service to get its
     * certificate and bind (a 1,000-switch lab took about 100 s on a busy 2-core machine), and for
     * each container's Java to come up.
     */
    long startTimeoutMs() {
        return LabLauncher.START_TIMEOUT_MS + (containers ? 2_000L : 250L) * switches;
    }

    /** For messages: "2 switches in containers, services with TLS off (--insecure)". */
    String describe() {
        return switches + (switches == 1 ? " switch" : " switches") + (containers ? " in containers" : "")
                + switch (security) {
                    case INSECURE -> ", services with TLS off (--insecure)";
                    case SELF_SIGNED -> ", services trusting on first use (--tofu)";
                    case MUTUAL -> "";
                }
                + (profile.equals(DeviceProfile.FAST) ? "" : ", device profile " + profile.name()
                        + (profile.seed() == DeviceProfile.DEFAULT_SEED ? "" : " (seed " + profile.seed() + ")"));
    }
}
