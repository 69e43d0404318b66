package dev.waldoconf.dist;

import dev.waldo.compiler.Waldoc;
import dev.waldoconf.cli.CliContext;
import dev.waldoconf.cli.WaldoconfCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Writes the release's shell completion and man page sources from the commands' picocli models, so
 * they always describe the options the release really has. Run by the build (exec-maven-plugin,
 * {@code prepare-package}); the man pages are AsciiDoc that the build then converts to roff.
 */
public final class ReleaseDocs {
    private ReleaseDocs() {
    }

    /**
     * {@code ReleaseDocs COMPLETION_DIR MAN_SOURCE_DIR}: writes {@code COMPLETION_DIR/waldoconf} and
     * {@code COMPLETION_DIR/waldoc} (bash, also usable by zsh with bashcompinit) and one
     * {@code .adoc} man page per command and subcommand into {@code MAN_SOURCE_DIR}.
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: ReleaseDocs COMPLETION_DIR MAN_SOURCE_DIR");
        }
        Path completionDir = Files.createDirectories(Path.of(args[0]));
        Path manDir = Files.createDirectories(Path.of(args[1]));
        CommandLine waldoconf = WaldoconfCommand.newCommandLine(CliContext.system());
        CommandLine waldoc = Waldoc.newCommandLine();
        writeCompletion(completionDir, "waldoconf", waldoconf);
        writeCompletion(completionDir, "waldoc", waldoc);
        int status = ManPageGenerator.generateManPage(manDir.toFile(), null, new boolean[0], true,
                waldoconf.getCommandSpec(), waldoc.getCommandSpec());
        if (status != 0) {
            throw new IOException("picocli's ManPageGenerator failed with status " + status + " writing " + manDir);
        }
    }

    private static void writeCompletion(Path dir, String command, CommandLine commandLine) throws IOException {
        Files.writeString(dir.resolve(command), AutoComplete.bash(command, commandLine), StandardCharsets.UTF_8);
    }
}
