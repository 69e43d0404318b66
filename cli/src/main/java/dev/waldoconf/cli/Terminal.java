package dev.waldoconf.cli;

import java.io.Console;
import java.lang.reflect.Method;

/** The operator's terminal, if there is one: {@code apply} asks it for confirmation. */
public interface Terminal {
    /** Whether a person can answer a question (stdin and stdout are a terminal). */
    boolean isInteractive();

    /** Prints {@code prompt} and reads one line; null at end of input. */
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
            public String readLine(String prompt) {
                Console console = System.console();
                return console == null ? null : console.readLine("%s", prompt);
            }
        };
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
