package dev.waldo.compiler;

import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.emit.JavaCompilation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code waldoc}: compiles Waldo programs to Java sources or to a jar.
 * Exit codes: 0 compiled, 1 the program has errors, 2 bad command line,
 * 3 an internal compiler error (a bug to report).
 */
@Command(name = "waldoc", mixinStandardHelpOptions = true, version = "waldoc 0.1.0",
        description = "Compiles Waldo (.wld) programs to Java.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:compiled", "1:the program has errors (printed as file:line:col: error: ...)",
                "2:bad command line", "3:internal compiler error (please report it)"})
public final class Waldoc implements Callable<Integer> {
    /** Exit code when the Waldo program has errors. */
    public static final int PROGRAM_ERRORS = 1;
    /** Exit code for a compiler bug. */
    public static final int INTERNAL_ERROR = 3;

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE.wld", description = "Waldo source files, compiled as one program.")
    private List<Path> files;

    @Option(names = {"-d", "--output-dir"}, paramLabel = "DIR", description = "Write the Java sources under DIR.")
    private Path outputDir;

    @Option(names = "--jar", paramLabel = "OUT.jar", description = "Compile the Java and write the classes to a jar.")
    private Path jar;

    @Option(names = "--package", paramLabel = "NAME",
            description = "Java package of the generated classes (default: waldo. and the first file's name,"
                    + " e.g. waldo.greeter for greeter.wld).")
    private String javaPackage;

    /** Runs waldoc with {@code args} and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** A command line for waldoc, usable as a subcommand of another tool. */
    public static CommandLine newCommandLine() {
        return new CommandLine(new Waldoc());
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        if (outputDir == null && jar == null) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "say where the output goes: -d DIR for Java sources, --jar OUT.jar for a jar, or both");
        }
        if (javaPackage == null) {
            javaPackage = WaldoCompiler.defaultPackage(files.get(0).toString());
        }
        if (!javaPackage.matches("([A-Za-z_][A-Za-z0-9_]*)(\\.[A-Za-z_][A-Za-z0-9_]*)*")) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--package '" + javaPackage + "' is not a Java package name (e.g. com.example.net)");
        }
        try {
            return compile(out, err);
        } catch (NoSuchFileException e) {
            err.println("waldoc: error: no such file: " + e.getFile());
            return PROGRAM_ERRORS;
        } catch (IOException e) {
            err.println("waldoc: error: " + e.getMessage());
            return PROGRAM_ERRORS;
        } catch (RuntimeException | Error e) {
            err.println("waldoc: internal compiler error: " + e);
            err.println("This is a bug in waldoc, not in your program. Please report it with the input files.");
            if (System.getenv("WALDOC_DEBUG") != null) {
                e.printStackTrace(err);
            }
            return INTERNAL_ERROR;
        }
    }

    private int compile(PrintWriter out, PrintWriter err) throws IOException {
        List<SourceFile> sources = WaldoCompiler.read(files);
        WaldoCompiler.Result result = WaldoCompiler.compile(sources, javaPackage);
        if (!result.ok()) {
            err.print(result.rendered());
            err.printf("%d error%s%n", result.diagnostics().size(), result.diagnostics().size() == 1 ? "" : "s");
            return PROGRAM_ERRORS;
        }
        // javac checks the emitted Java for -d too: Java that javac rejects is a bug of waldoc's
        // (exit 3), to be reported here rather than found later by whoever compiles the sources.
        JavaCompilation.Classes classes = result.classes();
        if (outputDir != null) {
            writeSources(result.javaSources());
            out.printf("wrote %d Java file(s) under %s%n", result.javaSources().size(), outputDir);
        }
        if (jar != null) {
            classes.writeJar(jar);
            out.printf("wrote %s (%d classes)%n", jar, classes.bytecode().size());
        }
        return 0;
    }

    private void writeSources(Map<String, String> sources) throws IOException {
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path target = outputDir.resolve(source.getKey());
            Files.createDirectories(target.getParent());
            Files.writeString(target, source.getValue(), StandardCharsets.UTF_8);
        }
    }
}
