package dev.waldo.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The {@code waldoc} command as a user runs it: exit codes, output files and error format. */
class WaldocCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine command = Waldoc.newCommandLine();
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        return command.execute(args);
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    @Test
    void writesJavaSourcesAndAJar() throws IOException {
        Path source = write("counter.wld", """
                Endpoint Counter {
                    Number count;
                    Public Function bump() returns Number { count += 1; return count; }
                }
                """);
        Path jar = dir.resolve("counter.jar");

        int exit = run(source.toString(), "-d", dir.resolve("java").toString(), "--jar", jar.toString(),
                "--package", "com.example.net");

        assertThat(exit).as(err.toString()).isZero();
        assertThat(dir.resolve("java/com/example/net/Counter.java")).exists();
        try (JarFile classes = new JarFile(jar.toFile())) {
            assertThat(classes.getEntry("com/example/net/Counter.class")).isNotNull();
        }
    }

    /** Issue 13: javac rejected the Java of constant-false loops; --jar exited 3 while -d said all was well. */
    @Test
    void constantFalseLoopsCompileWithBothOutputs() throws IOException {
        Path source = write("loops.wld", """
                Endpoint E {
                    Public f() { while (False) { } while (1 > 2) { } while (not True) { } 1 / 0; }
                }
                """);

        int exit = run(source.toString(), "-d", dir.resolve("java").toString(), "--jar", dir.resolve("e.jar").toString());

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString()).contains("wrote 2 Java file(s)").contains("e.jar");
    }

    @Test
    void withoutAPackageTheClassesGoIntoOneNamedAfterTheFile() throws IOException {
        Path source = write("My-Counter.wld", "Endpoint Counter { }");

        int exit = run(source.toString(), "-d", dir.resolve("java").toString());

        assertThat(exit).as(err.toString()).isZero();
        assertThat(dir.resolve("java/waldo/my_counter/Counter.java")).exists();
    }

    @Test
    void reportsEveryErrorWithFileLineColumnAndCaretAndExitsOne() throws IOException {
        Path source = write("bad.wld", """
                Endpoint E {
                    Public f() {
                        x = 1;
                        Number n = 'text';
                    }
                }
                """);

        int exit = run(source.toString(), "-d", dir.toString());

        assertThat(exit).isEqualTo(Waldoc.PROGRAM_ERRORS);
        assertThat(err.toString())
                .contains(source + ":3:9: error: ")
                .contains(source + ":4:20: error: ")
                .contains("        x = 1;\n        ^")
                .contains("2 errors")
                .doesNotContain("Exception")
                .doesNotContain("\tat ");
    }

    @Test
    void aMissingFileIsAnErrorNotAStackTrace() {
        int exit = run(dir.resolve("nope.wld").toString(), "-d", dir.toString());

        assertThat(exit).isEqualTo(Waldoc.PROGRAM_ERRORS);
        assertThat(err.toString()).contains("no such file").doesNotContain("\tat ");
    }

    @Test
    void withoutAnOutputItSaysWhatToGive() throws IOException {
        int exit = run(write("ok.wld", "Endpoint E { }").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("-d DIR").contains("--jar OUT.jar");
    }

    @Test
    void rejectsAPackageThatIsNotAJavaName() throws IOException {
        int exit = run(write("ok.wld", "Endpoint E { }").toString(), "-d", dir.toString(), "--package", "1bad");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("not a Java package name");
    }
}
