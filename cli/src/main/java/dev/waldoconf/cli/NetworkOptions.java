package dev.waldoconf.cli;

import dev.waldo.net.Security;
import dev.waldoconf.engine.EngineOptions;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * The options shared by every command that runs or reaches a Waldo network host: how the operator
 * and the switches' services authenticate each other. By default both present certificates from
 * the project CA ({@code waldoconf init}; the local lab makes its own), services accept only
 * operators, and operators check that each service is the switch the inventory names there.
 */
final class NetworkOptions {
    @ArgGroup(exclusive = true)
    Weaker weaker = new Weaker();

    /** The two ways to give up part of that, at most one of them. */
    static final class Weaker {
        @Option(names = "--tofu",
                description = {"Trust services and operators on first use instead of the project CA: each end makes"
                        + " a self-signed certificate and pins the other's by name on first contact, as SSH does."
                        + " There are no roles: anyone who reaches a service first may change its switch. Both ends"
                        + " must agree."})
        boolean tofu;

        @Option(names = "--insecure",
                description = {"Turn TLS off between the operator and the switches' services: for benchmarks and"
                        + " debugging ONLY (traffic is readable and unauthenticated). Both ends must agree: pass it to"
                        + " 'serve' or 'lab up' and to every command that reaches those services, or to none."})
        boolean insecure;
    }

    /** How the two ends authenticate each other, as the options ask. */
    Security security() {
        return weaker.insecure ? Security.INSECURE : weaker.tofu ? Security.SELF_SIGNED : Security.MUTUAL;
    }

    /** The change engine's options these settings ask for. */
    EngineOptions engineOptions() {
        return new EngineOptions(security());
    }

    /** The option that asks for {@code security}, for messages: "--insecure", "--tofu" or "" (the default). */
    static String option(Security security) {
        return switch (security) {
            case INSECURE -> "--insecure";
            case SELF_SIGNED -> "--tofu";
            case MUTUAL -> "";
        };
    }

    /**
     * A hint for a failed connection that looks like the two ends disagree about TLS or do not
     * accept each other's certificates, or "" when it does not. A TLS client reading a plain peer's
     * first bytes fails with "not an SSL/TLS record"; a TLS server just closes a plain client's
     * connection, and a service closes one whose certificate it does not accept.
     */
    String mismatchHint(String failure) {
        if (failure == null) {
            return "";
        }
        Security security = security();
        if (security != Security.INSECURE && failure.contains("not an SSL/TLS record")) {
            return "; the service does not speak TLS: it was started with --insecure, so pass --insecure here"
                    + " too (benchmarks and debugging only), or restart it without";
        }
        if (security == Security.INSECURE && failure.contains("closed by peer")) {
            return "; this command has TLS off (--insecure) and the service closed the connection, as a service"
                    + " with TLS on does: drop --insecure, unless the service was started with it";
        }
        if (failure.contains("TLS failure") || failure.contains("closed by peer")) {
            return security == Security.MUTUAL
                    ? "; the service did not accept this operator's certificate, or this operator not the service's:"
                            + " both must come from the same project CA ('waldoconf init'; the local lab makes its"
                            + " own), unless the service runs with --tofu (then pass --tofu here too); the service's"
                            + " log says which"
                    : "; this command trusts on first use (--tofu): the service must run with --tofu too, and its"
                            + " certificate must be the one pinned in the operator's known-peers";
        }
        return "";
    }
}
