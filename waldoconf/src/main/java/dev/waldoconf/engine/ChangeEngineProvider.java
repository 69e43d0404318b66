package dev.waldoconf.engine;

/**
 * Creates the change engine; registered with {@link java.util.ServiceLoader} by the module that
 * implements {@link ChangeEngine} (the lead's {@code dev.waldoconf.service}).
 */
public interface ChangeEngineProvider {
    /** A new engine set up as {@code options} ask; the caller closes it. */
    ChangeEngine create(EngineOptions options);
}
