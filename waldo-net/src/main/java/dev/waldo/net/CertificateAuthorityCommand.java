package dev.waldo.net;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

/**
 * The command that creates a project CA and issues host certificates for
 * mutual TLS:
 *
 * <pre>
 * waldo-ca init  &lt;ca-dir&gt; [name]               create ca.key and ca.crt
 * waldo-ca issue &lt;ca-dir&gt; &lt;host-id&gt; &lt;state-dir&gt; [role...]  write host.key, host.crt, ca.crt
 * </pre>
 */
public final class CertificateAuthorityCommand {
    private CertificateAuthorityCommand() {
    }

    /** Runs the command; exits with 0 on success, 1 on a failure, 2 on a usage error. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command with the given output streams and returns its exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            if (args.length >= 2 && args.length <= 3 && args[0].equals("init")) {
                String name = args.length == 3 ? args[2] : "Waldo CA";
                var ca = CertificateAuthority.create(Path.of(args[1]), name);
                out.println("created CA '" + name + "' in " + args[1] + " (SHA-256 "
                        + Certificates.fingerprint(ca.certificate()) + ")");
                return 0;
            }
            if (args.length >= 4 && args[0].equals("issue")) {
                Set<String> roles = Set.of(Arrays.copyOfRange(args, 4, args.length));
                var issued = CertificateAuthority.load(Path.of(args[1])).issueHost(args[2], roles, Path.of(args[3]));
                out.println("issued certificate for host " + args[2] + (roles.isEmpty() ? "" : " with roles "
                        + new TreeSet<>(roles)) + " into " + args[3] + " (SHA-256 " + Certificates.fingerprint(issued)
                        + ")");
                return 0;
            }
        } catch (RuntimeException e) {
            err.println("waldo-ca: " + e.getMessage());
            return 1;
        }
        err.println("usage: waldo-ca init <ca-dir> [name]");
        err.println("       waldo-ca issue <ca-dir> <host-id> <state-dir> [role...]");
        return 2;
    }
}
