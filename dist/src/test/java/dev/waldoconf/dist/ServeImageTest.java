package dev.waldoconf.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The serve image's build context (ComposeDeploymentIT builds and runs the image itself). */
class ServeImageTest {
    @TempDir
    Path dir;

    @Test
    void theDockerfileRunsWaldoconfAsANonRootUserWithItsStateOnAVolume() {
        String dockerfile = ServeImage.DOCKERFILE.formatted(ServeImage.USER, ServeImage.STATE_DIR,
                ServeImage.LIB_DIR);
        assertThat(dockerfile).startsWith("# waldoconf serve").contains("FROM scratch\n")
                .contains("USER 65532:65532\n").contains("COPY --chown=65532:65532 state/ /var/lib/waldoconf/\n")
                .contains("VOLUME [\"/var/lib/waldoconf\"]").contains("\"/opt/waldoconf/lib/*\"")
                .contains("\"dev.waldoconf.cli.Main\"").doesNotContain("%");
    }

    @Test
    void theRuntimeHasTheModulesTheCommandNeeds() {
        assertThat(List.of(ServeImage.modules().split(","))).contains("java.base", "java.naming",
                "java.management", "jdk.unsupported", "jdk.compiler");
    }

    @Test
    void aClassFolderIsRefusedBeforeAnythingIsBuilt() throws IOException {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        assertThatThrownBy(() -> ServeImage.prepare(List.of(classes), dir.resolve("ctx")))
                .isInstanceOf(IOException.class).hasMessageContaining(classes + " is not a jar")
                .hasMessageContaining("bin/waldoconf-image");
        assertThat(dir.resolve("ctx")).doesNotExist();
    }
}
