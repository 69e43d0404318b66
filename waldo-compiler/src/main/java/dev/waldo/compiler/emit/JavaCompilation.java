package dev.waldo.compiler.emit;

import dev.waldo.runtime.WaldoObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles emitted Java sources in memory against the Waldo runtime, so that
 * {@code waldoc --jar} and the corpus tests need no javac process and no
 * files on disk. Failure here means the emitter produced bad Java: that is a
 * compiler bug, reported as such.
 */
public final class JavaCompilation {
    private JavaCompilation() {
    }

    /** Compiled classes by binary name, in name order. */
    public record Classes(Map<String, byte[]> bytecode) {
        /** A class loader that defines these classes, with the runtime visible through {@code parent}. */
        public ClassLoader loader(ClassLoader parent) {
            return new ClassLoader(parent) {
                @Override
                protected Class<?> findClass(String name) throws ClassNotFoundException {
                    byte[] bytes = bytecode.get(name);
                    if (bytes == null) {
                        throw new ClassNotFoundException(name);
                    }
                    return defineClass(name, bytes, 0, bytes.length);
                }
            };
        }

        /** Writes the classes as a jar, with the runtime named in the manifest's Class-Path when known. */
        public void writeJar(Path jar) throws IOException {
            Manifest manifest = new Manifest();
            manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes().putValue("Created-By", "waldoc");
            try (OutputStream file = Files.newOutputStream(jar);
                    JarOutputStream out = new JarOutputStream(file, manifest)) {
                for (Map.Entry<String, byte[]> entry : bytecode.entrySet()) {
                    out.putNextEntry(new JarEntry(entry.getKey().replace('.', '/') + ".class"));
                    out.write(entry.getValue());
                    out.closeEntry();
                }
            }
        }
    }

    /** Thrown when javac rejects emitted code: a bug in the emitter, never in the user's program. */
    public static final class EmitterBugException extends RuntimeException {
        EmitterBugException(String message) {
            super(message);
        }
    }

    /**
     * Compiles {@code sources} (file name relative to the source root, e.g.
     * {@code waldo/greeter/Client.java}, to its text) with {@code --release 21}.
     *
     * @throws EmitterBugException if javac reports errors
     * @throws IllegalStateException if this JVM has no Java compiler (a JRE, not a JDK)
     */
    public static Classes compile(Map<String, String> sources) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no Java compiler in this JVM: run waldoc with a JDK 21 or newer");
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager standard = javac.getStandardFileManager(diagnostics, null, null);
        MemoryFileManager files = new MemoryFileManager(standard);
        List<JavaFileObject> units = new ArrayList<>();
        sources.forEach((name, text) -> units.add(new SourceText(name, text)));
        List<String> options = List.of("--release", "21", "-proc:none", "-nowarn",
                "-classpath", runtimeClassPath());
        StringWriter output = new StringWriter();
        boolean ok = javac.getTask(output, files, diagnostics, options, null, units).call();
        if (!ok) {
            StringBuilder report = new StringBuilder("javac rejected the emitted Java (a waldoc bug):\n");
            diagnostics.getDiagnostics().forEach(d -> report.append(d).append('\n'));
            throw new EmitterBugException(report.toString());
        }
        return new Classes(files.compiled());
    }

    /** Where the runtime's classes are: a jar (shaded waldoc) or a classes folder (tests). */
    static String runtimeClassPath() {
        try {
            URI location = WaldoObject.class.getProtectionDomain().getCodeSource().getLocation().toURI();
            return Path.of(location).toString();
        } catch (URISyntaxException | RuntimeException e) {
            return System.getProperty("java.class.path");
        }
    }

    private static final class SourceText extends SimpleJavaFileObject {
        private final String text;

        SourceText(String name, String text) {
            super(URI.create("string:///" + name), Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }

    private static final class ClassBytes extends SimpleJavaFileObject {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        ClassBytes(String binaryName) {
            super(URI.create("bytes:///" + binaryName.replace('.', '/') + ".class"), Kind.CLASS);
        }

        @Override
        public OutputStream openOutputStream() {
            return bytes;
        }
    }

    private static final class MemoryFileManager extends ForwardingJavaFileManager<JavaFileManager> {
        private final Map<String, ClassBytes> outputs = new TreeMap<>();

        MemoryFileManager(JavaFileManager delegate) {
            super(delegate);
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className,
                JavaFileObject.Kind kind, FileObject sibling) {
            ClassBytes output = new ClassBytes(className);
            outputs.put(className, output);
            return output;
        }

        Map<String, byte[]> compiled() {
            Map<String, byte[]> result = new TreeMap<>();
            outputs.forEach((name, output) -> result.put(name, output.bytes.toByteArray()));
            return result;
        }
    }
}
