package dev.waldoconf.cli;

import dev.waldoconf.WaldoConf;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each lab has its own project CA, which issues its services' certificates and its operator's. Two
 * labs have services of the same names under different CAs, so the operator keeps its certificate
 * per lab, in the lab's directory, and a change on one lab never trips over the other's.
 */
@Timeout(180)
class LabOperatorStateTest {
    private static final String PLAN = Path.of("..", "configs", "vlan.yaml").toString();

    @TempDir
    Path dir;

    @Test
    void aSecondLabWithTheSameSwitchNamesTakesChangesToo() {
        CliContext context = context();
        for (String lab : new String[] {"first", "second"}) {
            Path labDir = dir.resolve(lab);
            try {
                CliHarness.Result up = CliHarness.run(context, "lab", "up", "--switches", "1", "--dir",
                        labDir.toString());
                assertThat(up.exitCode()).as(up.err()).isZero();
                CliHarness.Result apply = CliHarness.run(context, "apply", PLAN, "--lab-dir", labDir.toString(),
                        "--yes");
                assertThat(apply.exitCode()).as(lab + " lab: " + apply.out() + apply.err()).isZero();
                assertThat(labDir.resolve("operator").resolve("host.crt")).as("the lab's own operator").exists();
                CliHarness.Result log = CliHarness.run(context, "log", "--lab-dir", labDir.toString());
                assertThat(log.out()).as("recorded with the operator's name")
                        .contains("lab-1  operator-" + dev.waldoconf.service.Identities.localOperatorName()
                                + "  committed");
            } finally {
                CliHarness.run(context, "lab", "down", "--dir", labDir.toString());
            }
        }
    }

    /** The real engine (its default operator state in the test folder), SNMP devices, the real lab launcher. */
    private CliContext context() {
        Map<String, String> environment = Map.of();
        return new CliContext(options -> WaldoConf.open(options.operatorState().isPresent() ? options
                : options.withOperatorState(dir.resolve("operator")), environment), environment, Terminal.system(),
                LabLauncher.process());
    }
}
