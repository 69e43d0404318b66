package dev.waldo.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Certificate fingerprints of peers seen before, by identity (trust on first
 * use): the file {@code known-peers} in the state directory, one
 * "identity sha256-hex" line per peer. The identity is the host id without its
 * run suffix ({@link PeerIdentity#nameOf}), so an operator whose every command
 * is a new run still takes one line. Delete a line to accept a peer that
 * legitimately changed its certificate.
 */
final class PeerPins {
    static final String FILE = "known-peers";
    private final Path file;
    private final Map<String, String> pins = new HashMap<>();

    PeerPins(Path stateDir) {
        this.file = stateDir.resolve(FILE);
        if (Files.exists(file)) {
            for (String line : readLines()) {
                String[] parts = line.trim().split("\\s+");
                if (parts.length == 2) {
                    pins.put(parts[0], parts[1]);
                }
            }
        }
    }

    /**
     * Pins {@code fingerprint} for identity {@code hostId} if it is new.
     *
     * @return null if the peer is accepted, else why it is refused
     */
    synchronized String check(String hostId, String fingerprint) {
        if (hostId.chars().anyMatch(Character::isWhitespace)) {
            return "host id '" + hostId + "' contains white space";
        }
        String known = pins.get(hostId);
        if (known == null) {
            pins.put(hostId, fingerprint);
            append(hostId + " " + fingerprint + "\n");
            return null;
        }
        if (known.equals(fingerprint)) {
            return null;
        }
        return "host " + hostId + " presented certificate " + fingerprint + " but " + file + " pins " + known
                + "; if the peer really changed its certificate, delete that line";
    }

    private List<String> readLines() {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private void append(String line) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
