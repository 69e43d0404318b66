package dev.waldo.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

/**
 * One Waldo program in a {@code <programs>} list: source files compiled together into one Java
 * package. Maven fills it from the plugin's configuration:
 * <pre>{@code
 * <program>
 *   <javaPackage>com.example.switches</javaPackage>
 *   <files><file>services/switch.wld</file><file>services/desk.wld</file></files>
 * </program>
 * }</pre>
 * Relative file names are taken from the project's base directory.
 */
public class WaldoProgram {
    /** The Java package the program's classes go into. */
    private String javaPackage;
    /** The program's {@code .wld} files. */
    private List<File> files = new ArrayList<>();

    /** For Maven, which fills the fields from the configuration. */
    public WaldoProgram() {
    }

    /** A program of {@code files} compiled into {@code javaPackage}. */
    public WaldoProgram(String javaPackage, List<File> files) {
        this.javaPackage = javaPackage;
        this.files = new ArrayList<>(files);
    }

    /** The Java package the program's classes go into. */
    public String getJavaPackage() {
        return javaPackage;
    }

    /** The program's {@code .wld} files, as configured. */
    public List<File> getFiles() {
        return files;
    }
}
