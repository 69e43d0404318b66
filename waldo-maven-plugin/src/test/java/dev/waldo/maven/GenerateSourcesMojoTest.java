package dev.waldo.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerateSourcesMojoTest {
    private static final String GREETER = """
            Endpoint Greeter {
                Public Function greet(Text name) returns Text {
                    return 'hello ' + name;
                }
            }
            """;

    @TempDir
    Path base;

    private final List<String> errors = new ArrayList<>();
    private GenerateSourcesMojo mojo;

    @BeforeEach
    void newMojo() {
        Model model = new Model();
        model.setBuild(new Build());
        MavenProject project = new MavenProject(model);
        project.setFile(base.resolve("pom.xml").toFile());
        mojo = new GenerateSourcesMojo();
        mojo.project = project;
        mojo.sourceDirectory = base.resolve("src/main/waldo").toFile();
        mojo.outputDirectory = base.resolve("target/generated-sources/waldo").toFile();
        mojo.stampDirectory = base.resolve("target/waldo-stamps").toFile();
        mojo.javaPackage = "com.example.greet";
        mojo.setLog(new SystemStreamLog() {
            @Override
            public void error(CharSequence content) {
                errors.add(content.toString());
            }
        });
    }

    @Test
    void compilesEveryWldUnderTheSourceDirectoryAndAddsTheOutputToTheSources() throws Exception {
        write("src/main/waldo/greeter.wld", GREETER);

        mojo.execute();

        assertThat(generated("com/example/greet/Greeter.java")).exists();
        assertThat(mojo.project.getCompileSourceRoots()).contains(mojo.outputDirectory.getAbsolutePath());
    }

    @Test
    void withoutAJavaPackageTheProgramIsNamedAfterItsFirstFile() throws Exception {
        write("src/main/waldo/b_second.wld", "Endpoint Other { }");
        write("src/main/waldo/a_greeter.wld", GREETER);
        mojo.javaPackage = null;

        mojo.execute();

        assertThat(generated("waldo/a_greeter/Greeter.java")).exists();
        assertThat(generated("waldo/a_greeter/Other.java")).exists();
    }

    @Test
    void anUnchangedProgramIsNotCompiledAgainAndAChangedOneIs() throws Exception {
        Path source = write("src/main/waldo/greeter.wld", GREETER);
        WaldoProgram program = mojo.programsToCompile().get(0);
        assertThat(mojo.generate(program)).isTrue();
        Path greeter = generated("com/example/greet/Greeter.java");
        Files.setLastModifiedTime(greeter, FileTime.fromMillis(0));

        assertThat(mojo.generate(program)).as("second run with nothing changed").isFalse();
        assertThat(Files.getLastModifiedTime(greeter).toMillis()).isZero();

        Files.writeString(source, GREETER.replace("hello", "hi"));
        assertThat(mojo.generate(program)).as("run after the source changed").isTrue();
        assertThat(Files.readString(greeter)).contains("hi ");
    }

    @Test
    void aDeletedOutputIsWrittenAgain() throws Exception {
        write("src/main/waldo/greeter.wld", GREETER);
        WaldoProgram program = mojo.programsToCompile().get(0);
        mojo.generate(program);
        Files.delete(generated("com/example/greet/Greeter.java"));

        assertThat(mojo.generate(program)).isTrue();
        assertThat(generated("com/example/greet/Greeter.java")).exists();
    }

    @Test
    void aTypeRemovedFromTheSourceLeavesNoStaleJavaFile() throws Exception {
        Path source = write("src/main/waldo/greeter.wld", GREETER + "Endpoint Other { }\n");
        WaldoProgram program = mojo.programsToCompile().get(0);
        mojo.generate(program);
        assertThat(generated("com/example/greet/Other.java")).exists();

        Files.writeString(source, GREETER);
        mojo.generate(program);

        assertThat(generated("com/example/greet/Other.java")).doesNotExist();
    }

    @Test
    void errorsAreReportedInMavensFileLineColumnFormatAndFailTheBuild() throws IOException {
        Path source = write("src/main/waldo/broken.wld", """
                Endpoint Broken {
                    Public f() {
                        x = 1;
                    }
                }
                """);

        assertThatThrownBy(mojo::execute).isInstanceOf(MojoFailureException.class).hasMessageContaining("1 error(s)");

        assertThat(errors.get(0)).startsWith(source.toAbsolutePath() + ":[3,9] ").contains("'x'");
        assertThat(generated("com/example/greet/Broken.java")).doesNotExist();
    }

    @Test
    void configuredProgramsGoIntoTheirOwnPackages() throws Exception {
        write("services/a.wld", GREETER);
        write("services/b.wld", "Endpoint Second { }\n");
        mojo.programs = List.of(new WaldoProgram("com.example.a", List.of(new File("services/a.wld"))),
                new WaldoProgram("com.example.b", List.of(new File("services/b.wld"))));

        mojo.execute();

        assertThat(generated("com/example/a/Greeter.java")).exists();
        assertThat(generated("com/example/b/Second.java")).exists();
    }

    @Test
    void aMissingProgramFileIsNamed() {
        mojo.programs = List.of(new WaldoProgram("com.example.a", List.of(new File("services/missing.wld"))));

        assertThatThrownBy(mojo::execute).isInstanceOf(MojoFailureException.class)
                .hasMessageContaining("no such .wld file").hasMessageContaining("missing.wld");
    }

    @Test
    void aProjectWithoutWaldoSourcesIsLeftAlone() throws Exception {
        mojo.execute();

        assertThat(mojo.outputDirectory).doesNotExist();
        assertThat(mojo.project.getCompileSourceRoots()).doesNotContain(mojo.outputDirectory.getAbsolutePath());
    }

    private Path write(String relative, String text) throws IOException {
        Path file = base.resolve(relative);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    private Path generated(String relative) {
        return mojo.outputDirectory.toPath().resolve(relative);
    }
}
