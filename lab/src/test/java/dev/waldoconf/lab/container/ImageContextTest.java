package dev.waldoconf.lab.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.SwitchMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageContextTest {
    @TempDir
    Path dir;

    @Test
    void theDockerfileRunsTheSwitchMainFromTheGivenClassPath() {
        assertThat(ImageContext.dockerfile("/opt/lab/cp/0.jar:/opt/lab/cp/1")).startsWith("# WaldoConf lab switch")
                .contains("FROM scratch")
                .contains("\"-cp\", \"/opt/lab/cp/0.jar:/opt/lab/cp/1\", \"" + SwitchMain.class.getName() + "\"]");
    }

    @Test
    void theSwitchClassPathHoldsTheSwitchAndSnmp4j() {
        List<Path> classPath = ImageContext.switchClassPath();
        assertThat(classPath).isNotEmpty().doesNotHaveDuplicates().allMatch(Files::exists);
        assertThat(classPath.toString()).contains("snmp4j");
    }

    @Test
    void theFingerprintFollowsTheContentOfTheClassPath() throws Exception {
        Path classes = Files.createDirectories(dir.resolve("classes/dev/x"));
        Files.writeString(classes.resolve("A.class"), "one");
        Path jar = Files.writeString(dir.resolve("lib.jar"), "jar bytes");
        List<Path> classPath = List.of(dir.resolve("classes"), jar);
        String first = ImageContext.fingerprint(classPath);

        assertThat(ImageContext.fingerprint(classPath)).as("stable").isEqualTo(first).matches("[0-9a-f]{16}");
        Files.writeString(classes.resolve("A.class"), "two");
        String changed = ImageContext.fingerprint(classPath);
        assertThat(changed).as("a changed class").isNotEqualTo(first);
        Files.writeString(classes.resolve("B.class"), "new");
        assertThat(ImageContext.fingerprint(classPath)).as("an added class").isNotEqualTo(changed);
    }
}
