package dev.waldoconf.cli;

import dev.waldoconf.config.ResolvedPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A plan saved by {@code waldoconf plan FILE -o PLAN}: which plan file (and its exact content, by
 * SHA-256) and the fingerprint of each switch's part as the plan showed it. {@code waldoconf
 * apply PLAN} applies it without asking, or refuses if the plan file or any switch's managed
 * state changed since, like Terraform refusing a stale saved plan. A small text file.
 *
 * @param planFile the plan file, absolute
 * @param planSha256 the SHA-256 of the plan file's content when it was saved
 * @param fingerprints each switch's fingerprint, by name, in inventory order
 */
record SavedPlan(Path planFile, String planSha256, Map<String, String> fingerprints) {
    private static final String MAGIC = "# waldoconf saved plan v1";

    SavedPlan {
        fingerprints = Map.copyOf(fingerprints);
    }

    /** The saved form of {@code plan}, resolved from {@code planFile}. */
    static SavedPlan of(Path planFile, ResolvedPlan plan) throws IOException {
        return new SavedPlan(planFile.toAbsolutePath(), sha256(planFile), plan.fingerprints());
    }

    /** Whether {@code file} is a saved plan rather than a plan file. */
    static boolean isSaved(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        return !lines.isEmpty() && lines.get(0).equals(MAGIC);
    }

    /** Writes the saved plan to {@code file}. */
    void write(Path file) throws IOException {
        StringBuilder text = new StringBuilder(MAGIC).append('\n')
                .append("plan: ").append(planFile).append('\n')
                .append("plan-sha256: ").append(planSha256).append('\n');
        fingerprints.forEach((name, fingerprint) -> text.append("fingerprint: ").append(name).append(' ')
                .append(fingerprint).append('\n'));
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /**
     * Reads a saved plan.
     *
     * @throws CommandFailure (usage) if {@code file} is not one this version wrote
     */
    static SavedPlan read(Path file) throws IOException, CommandFailure {
        Path plan = null;
        String sha = null;
        Map<String, String> fingerprints = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (String line : lines.subList(1, lines.size())) {
            String[] field = line.split(": ", 2);
            switch (field.length == 2 ? field[0] : "") {
                case "plan" -> plan = Path.of(field[1]);
                case "plan-sha256" -> sha = field[1];
                case "fingerprint" -> {
                    String[] entry = field[1].split(" ", 2);
                    fingerprints.put(entry[0], entry.length == 2 ? entry[1] : "");
                }
                default -> throw new CommandFailure(ExitCodes.USAGE, file + ": not a saved plan of this waldoconf"
                        + " (unexpected line '" + line + "'); save it again with 'waldoconf plan FILE -o " + file + "'");
            }
        }
        if (plan == null || sha == null) {
            throw new CommandFailure(ExitCodes.USAGE, file + ": a saved plan without its plan file; save it again"
                    + " with 'waldoconf plan FILE -o " + file + "'");
        }
        return new SavedPlan(plan, sha, fingerprints);
    }

    /** Why applying this saved plan now would not apply what was saved, or "" if it would. */
    String staleness(ResolvedPlan now) throws IOException {
        if (!Files.isRegularFile(planFile) || !sha256(planFile).equals(planSha256)) {
            return "its plan file " + planFile + " changed since the plan was saved";
        }
        List<String> changed = now.fingerprints().entrySet().stream()
                .filter(entry -> !entry.getValue().equals(fingerprints.get(entry.getKey())))
                .map(Map.Entry::getKey).toList();
        if (!changed.isEmpty() || now.fingerprints().size() != fingerprints.size()) {
            return "switch(es) " + (changed.isEmpty() ? "of the inventory" : String.join(", ", changed))
                    + " changed since the plan was saved";
        }
        return "";
    }

    private static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
