package dev.waldoconf.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses durations as operators write them: {@code 300s}, {@code 5m}, {@code 1h30m}, {@code 500ms}. */
final class DurationConverter implements ITypeConverter<Duration> {
    /** The longest trial: a forgotten trial should not outlive a working week. */
    static final Duration MAX = Duration.ofDays(7);

    private static final Pattern PART = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

    @Override
    public Duration convert(String text) {
        Duration total = parse(text.trim());
        if (total.isZero() || total.compareTo(MAX) > 0) {
            throw new TypeConversionException("'" + text + "' must be more than 0 and at most 7d");
        }
        return total;
    }

    private static Duration parse(String text) {
        Matcher matcher = PART.matcher(text);
        Duration total = Duration.ZERO;
        int end = 0;
        while (matcher.find() && matcher.start() == end) {
            long amount = Long.parseLong(matcher.group(1));
            total = total.plus(switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            });
            end = matcher.end();
        }
        if (end == 0 || end != text.length()) {
            throw new TypeConversionException("'" + text + "' is not a duration like 300s, 5m or 1h30m");
        }
        return total;
    }

    /** {@code 5m}, {@code 1h30m}, {@code 45s}: the short form for messages. */
    static String format(Duration duration) {
        StringBuilder text = new StringBuilder();
        long seconds = duration.toSeconds();
        if (seconds >= 3600) {
            text.append(seconds / 3600).append('h');
        }
        if (seconds % 3600 >= 60) {
            text.append(seconds % 3600 / 60).append('m');
        }
        if (seconds % 60 != 0 || text.isEmpty()) {
            text.append(seconds % 60).append('s');
        }
        return text.toString();
    }
}
