package dev.waldo.maven;

import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.diag.Diagnostic;
import dev.waldo.compiler.diag.SourceFile;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Compiles Waldo programs ({@code .wld}) to Java sources and adds them to the build's sources.
 *
 * <p>Without {@code <programs>}, every {@code .wld} file under {@code sourceDirectory} (default
 * {@code src/main/waldo}) is one program, compiled into {@code javaPackage} (by default one named
 * after its first file). With
 * {@code <programs>}, each listed program is compiled on its own into its own package.
 *
 * <p>A program whose sources, package and compiler are unchanged since its last successful
 * compilation, and whose outputs are all still there, is skipped. Errors are reported one per line
 * as {@code /path/file.wld:[line,col] message}, the form Maven's own compiler uses, so IDEs link
 * them to the source; any error fails the build.
 */
@Mojo(name = "generate-sources", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public class GenerateSourcesMojo extends AbstractMojo {
    /** Where the default program's {@code .wld} files are (used when no {@code <programs>} are given). */
    @Parameter(property = "waldo.sourceDirectory", defaultValue = "${project.basedir}/src/main/waldo")
    File sourceDirectory;

    /**
     * The Java package of the default program; unset, {@code waldo.} and the name of its first
     * {@code .wld} file in path order ({@link WaldoCompiler#defaultPackage}).
     */
    @Parameter(property = "waldo.javaPackage")
    String javaPackage;

    /** Programs to compile, each into its own package; replaces the default program when given. */
    @Parameter
    List<WaldoProgram> programs;

    /** Where the Java sources go; added to the project's compile sources. */
    @Parameter(defaultValue = "${project.build.directory}/generated-sources/waldo")
    File outputDirectory;

    /** Where the plugin remembers what each program was last compiled from. */
    @Parameter(defaultValue = "${project.build.directory}/waldo-stamps", readonly = true)
    File stampDirectory;

    /** Skips the goal. */
    @Parameter(property = "waldo.skip", defaultValue = "false")
    boolean skip;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("Waldo: skipped (waldo.skip)");
            return;
        }
        List<WaldoProgram> toCompile = programsToCompile();
        if (toCompile.isEmpty()) {
            getLog().info("Waldo: no .wld files in " + sourceDirectory);
            return;
        }
        for (WaldoProgram program : toCompile) {
            generate(program);
        }
        project.addCompileSourceRoot(outputDirectory.getAbsolutePath());
    }

    /** The configured programs, or the default one made of every {@code .wld} under the source directory. */
    List<WaldoProgram> programsToCompile() throws MojoExecutionException {
        if (programs != null && !programs.isEmpty()) {
            return programs;
        }
        Path directory = sourceDirectory.toPath();
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> found = Files.walk(directory)) {
            List<File> files = found.filter(path -> path.toString().endsWith(".wld")).sorted().map(Path::toFile).toList();
            if (files.isEmpty()) {
                return List.of();
            }
            String pkg = javaPackage != null ? javaPackage : WaldoCompiler.defaultPackage(files.get(0).getName());
            return List.of(new WaldoProgram(pkg, files));
        } catch (IOException e) {
            throw new MojoExecutionException("cannot list the .wld files in " + directory + ": " + e.getMessage(), e);
        }
    }

    /**
     * Compiles {@code program} unless it is up to date.
     *
     * @return true if it was compiled, false if it was up to date
     */
    boolean generate(WaldoProgram program) throws MojoExecutionException, MojoFailureException {
        String pkg = program.getJavaPackage();
        if (pkg == null || pkg.isBlank()) {
            throw new MojoFailureException("a <program> has no <javaPackage>; name the Java package its classes go into");
        }
        List<Path> sources = sourcesOf(program);
        Path output = outputDirectory.toPath();
        Path stampFile = stampDirectory.toPath().resolve(pkg + ".stamp");
        try {
            String digest = BuildStamp.digestOf(pkg, sources);
            BuildStamp last = BuildStamp.read(stampFile);
            if (last != null && last.digest().equals(digest) && last.outputsPresent(output)) {
                getLog().info("Waldo: " + pkg + " is up to date (" + sources.size() + " file(s))");
                return false;
            }
            Map<String, String> javaSources = compile(pkg, sources);
            if (last != null) {
                deleteOutputs(output, last.outputs());
            }
            writeOutputs(output, javaSources);
            new BuildStamp(digest, List.copyOf(javaSources.keySet())).write(stampFile);
            getLog().info("Waldo: compiled " + sources.size() + " file(s) into " + pkg + " (" + javaSources.size()
                    + " Java file(s) in " + output + ")");
            return true;
        } catch (IOException e) {
            throw new MojoExecutionException("Waldo: I/O error while compiling " + pkg + ": " + e.getMessage(), e);
        }
    }

    private List<Path> sourcesOf(WaldoProgram program) throws MojoFailureException {
        if (program.getFiles() == null || program.getFiles().isEmpty()) {
            throw new MojoFailureException("program " + program.getJavaPackage() + " lists no <files>; add its .wld files");
        }
        List<Path> sources = new ArrayList<>();
        for (File file : program.getFiles()) {
            Path path = file.isAbsolute() ? file.toPath() : project.getBasedir().toPath().resolve(file.toPath());
            if (!Files.isRegularFile(path)) {
                throw new MojoFailureException("program " + program.getJavaPackage() + ": no such .wld file: " + path);
            }
            sources.add(path.toAbsolutePath().normalize());
        }
        return sources;
    }

    /** Runs the compiler; on errors logs each one in Maven's format and fails the build. */
    private Map<String, String> compile(String pkg, List<Path> sources) throws IOException, MojoFailureException {
        List<SourceFile> files = WaldoCompiler.read(sources);
        WaldoCompiler.Result result = WaldoCompiler.compile(files, pkg);
        if (result.ok()) {
            return result.javaSources();
        }
        for (Diagnostic diagnostic : result.diagnostics()) {
            getLog().error(mavenFormat(diagnostic));
        }
        getLog().error("Waldo, as the compiler prints it:\n" + result.rendered());
        throw new MojoFailureException("Waldo: " + result.diagnostics().size() + " error(s) in program " + pkg
                + "; each is listed above as file:[line,col]");
    }

    /** {@code /path/file.wld:[line,col] message}: what Maven's compiler prints, which IDEs link. */
    static String mavenFormat(Diagnostic diagnostic) {
        return diagnostic.span().file() + ":[" + diagnostic.span().line() + "," + diagnostic.span().col() + "] "
                + diagnostic.message();
    }

    private static void deleteOutputs(Path output, List<String> files) throws IOException {
        for (String file : files) {
            Files.deleteIfExists(output.resolve(file));
        }
    }

    private static void writeOutputs(Path output, Map<String, String> javaSources) throws IOException {
        for (Map.Entry<String, String> source : javaSources.entrySet()) {
            Path target = output.resolve(source.getKey());
            Files.createDirectories(target.getParent());
            Files.writeString(target, source.getValue(), StandardCharsets.UTF_8);
        }
    }
}
