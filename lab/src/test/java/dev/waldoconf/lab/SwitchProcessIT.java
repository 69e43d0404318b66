package dev.waldoconf.lab;

import static dev.waldoconf.lab.Q.CREATE_AND_GO;
import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.control.ControlClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shaded jar run as a process, the way scripts and the CLI start a switch. */
class SwitchProcessIT {
    private static final int WAIT_S = 30;

    @TempDir
    Path dir;

    private record Running(Process process, ListeningLine addresses) { }

    private Running start(String name) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String jar = System.getProperty("lab.shadedJar");
        Process process = new ProcessBuilder(List.of(java, "-jar", jar, "--name", name, "--port", "0",
                "--control-port", "0", "--state-file", dir.resolve(name + ".state").toString()))
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String first = out.readLine();
        return new Running(process, ListeningLine.find(String.valueOf(first)));
    }

    private static int stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(WAIT_S, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        return process.exitValue();
    }

    @Test
    void configurationSurvivesARestartOfTheProcess() throws Exception {
        Running first = start("proc1");
        try (LabClient client = LabClient.v2c(first.addresses().snmp(), "private", 3000)) {
            assertThat(client.set(Q.rowStatus(10, CREATE_AND_GO), Q.name(10, "persisted"), Q.egress(10, 4),
                    Q.untagged(10, 4), Q.pvid(4, 10)).isOk()).isTrue();
        } finally {
            stop(first.process());
        }
        Running second = start("proc1");
        try (LabClient client = LabClient.v2c(second.addresses().snmp(), "private", 3000)) {
            assertThat(client.get(Q.nameOid(10), Q.pvidOid(4)).bindings())
                    .extracting(vb -> vb.getVariable().toString()).containsExactly("persisted", "10");
        } finally {
            stop(second.process());
        }
    }

    @Test
    void theExitAfterFaultEndsTheProcessWithItsOwnStatus() throws Exception {
        Running running = start("proc2");
        try (ControlClient control = ControlClient.connect(running.addresses().control());
             LabClient client = LabClient.v2c(running.addresses().snmp(), "private", 3000)) {
            control.command("exit-after 1");
            assertThat(client.set(Q.rowStatus(20, CREATE_AND_GO)).isOk()).isTrue();
            assertThat(running.process().waitFor(WAIT_S, TimeUnit.SECONDS)).isTrue();
            assertThat(running.process().exitValue()).isEqualTo(SwitchMain.EXIT_FAULT);
        } finally {
            running.process().destroyForcibly();
        }
        Running restarted = start("proc2");
        try (LabClient client = LabClient.v2c(restarted.addresses().snmp(), "private", 3000)) {
            assertThat(client.get(Q.rowStatusOid(20)).bindings().get(0).getVariable().toInt()).isEqualTo(Q.ACTIVE);
        } finally {
            stop(restarted.process());
        }
    }
}
