package dev.waldoconf.cli;

import java.io.Console;
import java.lang.reflect.Method;

/** The operator's terminal, if there is one: {@code apply} asks it for confirmation. */
public interface Terminal {
    /** Whether a person can answer a question (stdin and stdout are a terminal). */
    boolean isInteractive();

    /**
     * Whether standard output is a terminal (whatever standard input is), so that progress may be
     * redrawn in place: {@code yes | waldoconf apply ...} still shows a bar, {@code ... > log} does not.
     */
    boolean outputIsTerminal();

    /**
     * Prints {@code prompt} and reads one line: from the terminal, or else from standard input
     * (a pipe such as {@code yes | waldoconf apply ...}); null at end of input.
     */
    String readLine(String prompt);

    /** The process's terminal. */
    static Terminal system() {
        return new Terminal() {
            @Override
            public boolean isInteractive() {
                Console console = System.console();
                return console != null && isTerminal(console);
            }

            @Override
            public boolean outputIsTerminal() {
                return standardOutputIsTerminal().orElseGet(this::isInteractive);
            }

            @Override
            public String readLine(String prompt) {
                if (isInteractive()) {
                    return System.console().readLine("%s", prompt);
                }
                System.out.print(prompt);
                System.out.flush();
                return PipedInput.LINES.readLine();
            }
        };
    }

    /** Standard input read as lines when it is not a terminal (a pipe or a file), opened once. */
    final class PipedInput {
        static final PipedInput LINES = new PipedInput();
        private final java.io.BufferedReader reader = new java.io.BufferedReader(
                new java.io.InputStreamReader(System.in, java.nio.charset.Charset.defaultCharset()));

        private PipedInput() {
        }

        /** The next line, or null at the end of input or when it cannot be read. */
        synchronized String readLine() {
            try {
                String line = reader.readLine();
                if (line != null) {
                    System.out.println();  // the answer came from a pipe: end the prompt's line
                }
                return line;
            } catch (java.io.IOException e) {
                return null;
            }
        }
    }

    /**
     * Whether file descriptor 1 is a terminal device, on Linux (where {@code /proc} says so); empty
     * elsewhere. Java has no portable way to ask this of standard output alone.
     */
    private static java.util.Optional<Boolean> standardOutputIsTerminal() {
        try {
            String target = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/1")).toString();
            return java.util.Optional.of(target.startsWith("/dev/pts/") || target.startsWith("/dev/tty"));
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            return java.util.Optional.empty();
        }
    }

    /**
     * Since JDK 22 {@link System#console()} may return a console for redirected streams too;
     * {@code Console.isTerminal()} (JDK 22+) tells them apart. On JDK 21 a console means a terminal.
     */
    private static boolean isTerminal(Console console) {
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
