package dev.waldoconf.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a secret comes from: an environment variable ({@code {env: WALDOCONF_COMMUNITY}}) or a
 * file ({@code {file: /etc/waldoconf/community}}, its first line, trimmed). The reference names no
 * secret, so it may be printed; the secret is read only by {@link #resolve}.
 *
 * @param source ENV or FILE
 * @param name the variable name, or the file path (relative paths resolved against the inventory's folder)
 */
public record SecretRef(Source source, String name) {
    /** Where the secret lives. */
    public enum Source {
        /** An environment variable. */
        ENV,
        /** A file; its first line is the secret. */
        FILE
    }

    /**
     * Reads the secret.
     *
     * @param environment the process environment (tests pass their own)
     * @throws IllegalStateException saying which variable or file is missing and how to provide it
     */
    public Secret resolve(Map<String, String> environment) {
        return switch (source) {
            case ENV -> fromEnvironment(environment);
            case FILE -> fromFile();
        };
    }

    private Secret fromEnvironment(Map<String, String> environment) {
        String value = environment.get(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException("environment variable " + name + " is not set; export it with the secret"
                    + " before running waldoconf");
        }
        return new Secret(value.toCharArray());
    }

    private Secret fromFile() {
        try {
            String text = Files.readString(Path.of(name), StandardCharsets.UTF_8);
            String line = text.lines().findFirst().orElse("").trim();
            if (line.isEmpty()) {
                throw new IllegalStateException("secret file " + name + " is empty; write the secret on its first line");
            }
            return new Secret(line.toCharArray());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read secret file " + name + " (" + e.getClass().getSimpleName()
                    + "); create it, readable only by you (chmod 600)", e);
        }
    }

    @Override
    public String toString() {
        return "{" + source.name().toLowerCase() + ": " + name + "}";
    }
}
