package dev.waldoconf.service;

import dev.waldo.net.CertificateAuthority;
import dev.waldo.net.HostAuthority;
import dev.waldo.net.NetConfig;
import dev.waldo.net.PeerIdentity;
import dev.waldo.net.Security;
import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.SwitchEntry;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.Set;

/**
 * Who is who between WaldoConf operators and services, and the certificates that prove it.
 *
 * <p>By default ({@link Security#MUTUAL}) a small project CA signs every certificate. Every switch's
 * service is a Waldo host named {@code switch-NAME}. A switch served alone ({@code serve --switch})
 * is its own node, whose certificate names it ({@code switch-NAME}); the switches of a site share
 * their site agent's node ({@code serve --site}), whose certificate names the site ({@code
 * site-NAME}). Both carry the role {@value #SERVICE_ROLE}. An operator's certificate names the
 * operator ({@code operator-NAME}) and carries {@value #CHANGE_ROLE} (plan, status, apply, confirm,
 * rollback) or {@value #READ_ROLE} (plan and status only). A service accepts only peers whose
 * certificate the CA signed and that carry one of these roles; it refuses a change started by an
 * operator without {@value #CHANGE_ROLE} ({@link ChangeGuard}). An operator accepts only services,
 * and checks that the node it reached at each address is the one the inventory names there (the
 * switch's own, or its site's agent), so a swapped address fails before anything is sent; a site
 * agent is trusted for the switches the inventory puts in its site ({@link #hostAuthority}), and for
 * no other.
 *
 * <p>Under trust on first use ({@link Security#SELF_SIGNED}, {@code --tofu}) there is no CA and no
 * role: names are what hosts announce, pinned on first contact. Without TLS ({@code --insecure})
 * nothing is checked at all.
 */
public final class Identities {
    /** The role of a switch's service. */
    public static final String SERVICE_ROLE = "service";
    /** The role of an operator who may change switches. */
    public static final String CHANGE_ROLE = "operator-change";
    /** The role of an operator who may only read (plan, status). */
    public static final String READ_ROLE = "operator-read";
    /** The name of the project CA that {@link #projectCa} creates. */
    static final String CA_NAME = "WaldoConf project CA";

    /** Operator sessions opened by this process, numbering their runs. */
    private static final java.util.concurrent.atomic.AtomicLong SESSIONS = new java.util.concurrent.atomic.AtomicLong();

    private Identities() {
    }

    /** The identity of switch {@code switchName}'s service: {@code switch-NAME}. */
    public static String serviceIdentity(String switchName) {
        return "switch-" + switchName;
    }

    /** The identity of site {@code site}'s agent: {@code site-NAME}. */
    public static String siteIdentity(String site) {
        return "site-" + site;
    }

    /**
     * The identity of the node that serves switch {@code entry}: its site's agent ({@code
     * site-NAME}), or for a switch without a site its own service ({@code switch-NAME}).
     */
    public static String nodeIdentity(SwitchEntry entry) {
        return entry.site().map(Identities::siteIdentity).orElseGet(() -> serviceIdentity(entry.name()));
    }

    /**
     * The hosts a site agent speaks for, as {@code inventory} says: the switches of its site. A
     * service whose node has this authority accepts links from the hosts of another site's switches
     * through their agent (a switch in doubt asking the others), and from no one else's.
     */
    public static HostAuthority hostAuthority(Inventory inventory) {
        Map<String, String> agentOf = new HashMap<>();
        for (SwitchEntry entry : inventory.switches()) {
            entry.site().ifPresent(site -> agentOf.put(serviceIdentity(entry.name()), siteIdentity(site)));
        }
        return (node, host) -> node.name().equals(agentOf.get(host));
    }

    /**
     * How site {@code site}'s agent talks to operators and other services: its identity ({@code
     * site-NAME}), its TLS state in {@code netDir}, under mutual TLS only operators (either role) and
     * other services, and trust in the other sites' agents for their switches.
     */
    public static NetConfig agentNet(String site, Path netDir, Security security, Inventory inventory) {
        return NetConfig.defaults(siteIdentity(site), netDir).withSecurity(security)
                .withAcceptedRoles(Set.of(CHANGE_ROLE, READ_ROLE, SERVICE_ROLE))
                .withHostAuthority(hostAuthority(inventory));
    }

    /** The identity of operator {@code operator}: {@code operator-NAME}. */
    public static String operatorIdentity(String operator) {
        return "operator-" + operator;
    }

    /**
     * How switch {@code switchName}'s service talks to operators: its identity, its TLS state in
     * {@code netDir}, and, under mutual TLS, only operators (either role) and other services.
     */
    public static NetConfig serviceNet(String switchName, Path netDir, Security security) {
        return NetConfig.defaults(serviceIdentity(switchName), netDir).withSecurity(security)
                .withAcceptedRoles(Set.of(CHANGE_ROLE, READ_ROLE, SERVICE_ROLE));
    }

    /**
     * Makes sure a service's node running as {@code net} (a switch's own, or a site agent's) has its
     * certificate: under mutual TLS, when
     * {@code net}'s state directory holds none, issues one from the project CA in {@code caDir},
     * creating that CA first if there is none (the first {@code serve} on a machine).
     *
     * @return what was done, for the operator to read, or "" when nothing was needed
     */
    public static String ensureServiceCertificate(NetConfig net, Path caDir) {
        if (net.security() != Security.MUTUAL || CertificateAuthority.issuedIn(net.stateDir()).isPresent()) {
            return "";
        }
        boolean created = !CertificateAuthority.existsIn(caDir);
        projectCa(caDir).issueHost(net.hostId(), Set.of(SERVICE_ROLE), net.stateDir());
        return (created ? "created the project CA in " + caDir + "; " : "") + "issued a certificate for "
                + net.hostId() + " into " + net.stateDir() + " from the project CA in " + caDir;
    }

    /**
     * How this operator's host talks to services, with its TLS state in {@code operatorState}: under
     * mutual TLS it runs as the operator its certificate names (one run of that identity per session,
     * see {@link PeerIdentity}) and accepts only services; otherwise it runs as the local user.
     *
     * @throws IllegalStateException under mutual TLS when {@code operatorState} holds no certificate; the
     *     message says how to get one
     */
    public static NetConfig operatorNet(Path operatorState, Security security) {
        // One run per session, not per process: a service keeps one connection per host id, so two
        // sessions of one process (concurrent applies through one engine) must not share theirs.
        return operatorNet(operatorState, security, ProcessHandle.current().pid() + "." + SESSIONS.incrementAndGet());
    }

    /**
     * As {@link #operatorNet(Path, Security)}, as run {@code run} of the operator's identity: the
     * product's sessions run as their {@link CoordinatorSlot}'s run, so that the next session in a
     * slot is the same host as a session that died there and answers for its transactions.
     *
     * @throws IllegalStateException under mutual TLS when {@code operatorState} holds no certificate
     */
    public static NetConfig operatorNet(Path operatorState, Security security, String run) {
        if (security != Security.MUTUAL) {
            return NetConfig.defaults(PeerIdentity.hostIdOf(operatorIdentity(localOperatorName()), run),
                    operatorState).withSecurity(security);
        }
        PeerIdentity operator = operatorIn(operatorState).orElseThrow(() -> new IllegalStateException(
                "no operator certificate in " + operatorState + "; create the project CA and yours with"
                        + " 'waldoconf init' (or get one from whoever keeps the CA), or run with --tofu to trust"
                        + " services on first use instead"));
        return NetConfig.defaults(PeerIdentity.hostIdOf(operator.name(), run), operatorState)
                .withSecurity(security).withAcceptedRoles(Set.of(SERVICE_ROLE));
    }

    /** The operator whose certificate is in {@code operatorState}, if any. */
    public static Optional<PeerIdentity> operatorIn(Path operatorState) {
        return CertificateAuthority.issuedIn(operatorState);
    }

    /** The project CA in {@code caDir}, created there first if there is none. */
    public static CertificateAuthority projectCa(Path caDir) {
        return CertificateAuthority.existsIn(caDir) ? CertificateAuthority.load(caDir)
                : CertificateAuthority.create(caDir, CA_NAME);
    }

    /**
     * Issues operator {@code operator} a certificate from {@code ca} into {@code operatorState}, with
     * the change role or, if {@code readOnly}, the read role. Issuing again rotates it.
     */
    public static X509Certificate issueOperator(CertificateAuthority ca, String operator, boolean readOnly,
            Path operatorState) {
        return ca.issueHost(operatorIdentity(operator), Set.of(readOnly ? READ_ROLE : CHANGE_ROLE), operatorState);
    }

    /**
     * The local user's name as an operator name: the login name with anything but letters, digits,
     * '.', '_' and '-' turned into '-', or "operator" when there is none.
     */
    public static String localOperatorName() {
        String user = System.getProperty("user.name", "");
        String name = user.replaceAll("[^A-Za-z0-9._-]", "-");
        return name.isEmpty() ? "operator" : name;
    }
}
