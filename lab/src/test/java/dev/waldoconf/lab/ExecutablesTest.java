package dev.waldoconf.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How tests find the programs they run: PATH first, then the sbin folders (where snmpd lives). */
class ExecutablesTest {
    @TempDir
    Path dir;

    private Path program(String folder, String name, String permissions) throws IOException {
        Path file = Files.createDirectories(dir.resolve(folder)).resolve(name);
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }

    @Test
    void aProgramOnPathComesBeforeOneInAnSbinFolder() throws IOException {
        Path onPath = program("bin", "snmpd", "rwxr-xr-x");
        program("sbin", "snmpd", "rwxr-xr-x");

        assertThat(Executables.find("snmpd", dir.resolve("bin").toString(), List.of(dir.resolve("sbin"))))
                .contains(onPath);
    }

    @Test
    void aProgramOffPathIsFoundInAnSbinFolder() throws IOException {
        Path inSbin = program("sbin", "snmpd", "rwxr-xr-x");
        Files.createDirectories(dir.resolve("bin"));

        assertThat(Executables.find("snmpd", dir.resolve("bin") + ":" + dir.resolve("empty"),
                List.of(dir.resolve("sbin")))).contains(inSbin);
    }

    @Test
    void aFileThatIsNotExecutableOrAFolderIsNotTheProgram() throws IOException {
        program("bin", "snmpd", "rw-r--r--");
        Files.createDirectories(dir.resolve("sbin").resolve("snmpd"));

        assertThat(Executables.find("snmpd", dir.resolve("bin").toString(), List.of(dir.resolve("sbin"))))
                .isEmpty();
    }

    @Test
    void anEmptyPathLeavesOnlyTheSbinFolders() throws IOException {
        Path inSbin = program("sbin", "snmpd", "rwxr-xr-x");

        assertThat(Executables.find("snmpd", "", List.of(dir.resolve("sbin")))).contains(inSbin);
        assertThat(Executables.find("snmpget", "", List.of(dir.resolve("sbin")))).isEmpty();
    }
}
