package dev.waldoconf.cli;

import dev.waldo.net.CertificateAuthority;
import dev.waldoconf.service.Identities;
import dev.waldoconf.service.SiteAgent;
import dev.waldoconf.service.SwitchServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code waldoconf init}: creates the project CA if there is none, and issues this operator's
 * certificate, or with {@code --service} a switch service's, or with {@code --site} a site agent's.
 */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Creates the project CA (once) and issues certificates from it.",
            "Without --service: this operator's certificate, with the change role (apply, confirm, rollback,"
                    + " plan, status) or with --read-only the read role (plan, status). Issuing again rotates it.",
            "With --service NAME: the certificate of switch NAME's service, into the state directory"
                    + " 'waldoconf serve --switch NAME' uses; with --site SITE: the certificate of site SITE's agent,"
                    + " into the state directory 'waldoconf serve --site SITE' uses. Copy that folder to the machine"
                    + " that runs the service ('serve' also issues its own on first start when it can reach the CA"
                    + " folder).",
            "Keep the CA folder private: whoever holds ca.key can make operators."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:done", "2:bad usage",
            "5:the CA or a certificate could not be read or written"})
final class InitCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--ca-dir", paramLabel = "DIR", defaultValue = ".waldoconf/ca",
            description = "Where the project CA lives (default: ${DEFAULT-VALUE}).")
    Path caDir;

    @Option(names = "--operator", paramLabel = "NAME",
            description = "The operator's name, recorded with each change (default: your login name).")
    String operator;

    @Option(names = "--read-only", description = "Issue the read role (plan, status) instead of the change role.")
    boolean readOnly;

    @Option(names = "--operator-dir", paramLabel = "DIR", defaultValue = dev.waldoconf.WaldoConf.DEFAULT_OPERATOR_STATE_NAME,
            description = "Where the operator's key and certificate go (default: ${DEFAULT-VALUE}).")
    Path operatorDir;

    @ArgGroup(exclusive = true)
    Served served;

    /** A switch served alone, or a site agent. */
    static final class Served {
        @Option(names = "--service", required = true, paramLabel = "NAME",
                description = "Issue switch NAME's service certificate instead.")
        String service;

        @Option(names = "--site", required = true, paramLabel = "SITE",
                description = "Issue site SITE's agent certificate instead.")
        String site;
    }

    @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = ".waldoconf/services",
            description = "With --service or --site: the services' state directory, as 'serve --state-dir' (default:"
                    + " ${DEFAULT-VALUE}; the certificate goes into DIR/NAME/net, or DIR/.site-SITE for a site).")
    Path stateDir;

    @Override
    public Integer call() throws CommandFailure {
        PrintWriter out = spec.commandLine().getOut();
        try {
            return issue(out);
        } catch (IllegalArgumentException e) {
            throw new CommandFailure(ExitCodes.USAGE, e.getMessage());
        } catch (IllegalStateException | java.io.UncheckedIOException e) {
            throw new CommandFailure(ExitCodes.UNAVAILABLE, "cannot set up certificates in " + caDir + ": "
                    + e.getMessage());
        } finally {
            out.flush();
        }
    }

    /** Creates the CA if needed and issues the certificate asked for; the CA's failures are unchecked. */
    private int issue(PrintWriter out) {
        boolean created = !CertificateAuthority.existsIn(caDir);
        CertificateAuthority ca = Identities.projectCa(caDir);
        out.println((created ? "Created the project CA in " : "Using the project CA in ") + caDir + ".");
        if (served != null) {
            boolean site = served.site != null;
            String identity = site ? Identities.siteIdentity(served.site) : Identities.serviceIdentity(served.service);
            Path netDir = site ? SiteAgent.agentDir(stateDir, served.site)
                    : SwitchServer.netDir(stateDir.resolve(served.service));
            X509Certificate issued = ca.issueHost(identity, java.util.Set.of(Identities.SERVICE_ROLE), netDir);
            out.println("Issued " + identity + " (role " + Identities.SERVICE_ROLE + ") into " + netDir
                    + ", valid until " + issued.getNotAfter().toInstant() + ".");
            return ExitCodes.OK;
        }
        String name = operator != null ? operator : Identities.localOperatorName();
        boolean rotated = Identities.operatorIn(operatorDir).isPresent();
        X509Certificate issued = Identities.issueOperator(ca, name, readOnly, operatorDir);
        out.println((rotated ? "Rotated" : "Issued") + " " + Identities.operatorIdentity(name) + " (role "
                + (readOnly ? Identities.READ_ROLE : Identities.CHANGE_ROLE) + ") into " + operatorDir
                + ", valid until " + issued.getNotAfter().toInstant() + ".");
        return ExitCodes.OK;
    }
}
