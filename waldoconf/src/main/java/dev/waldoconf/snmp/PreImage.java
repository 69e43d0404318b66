package dev.waldoconf.snmp;

import dev.waldoconf.service.DeviceJournal;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.snmp4j.smi.OID;

/**
 * What one scalar object held before a transaction SET it: a custom service's undo data, and (as a
 * list) the values of its trial records.
 *
 * @param oid the scalar's instance OID
 * @param old the value to put back on undo
 */
public record PreImage(OID oid, ScalarValue old) {
    private static final String TEXT = "text";
    private static final String NUMBER = "number";
    private static final Pattern DOTTED_OID = Pattern.compile("[0-9]+(\\.[0-9]+)+");

    /**
     * How a custom service's {@link DeviceJournal} writes scalar values: one {@code pre-image OID
     * text|number VALUE} line each, text URL-encoded.
     */
    public static final DeviceJournal.StateFormat<List<PreImage>> FORMAT = new DeviceJournal.StateFormat<>() {
        @Override
        public List<String> lines(List<PreImage> values) {
            return values.stream().map(PreImage::line).toList();
        }

        @Override
        public List<PreImage> parse(List<String> lines) {
            return lines.stream().map(PreImage::parse).toList();
        }
    };

    private String line() {
        String value = switch (old) {
            case ScalarValue.Text text -> TEXT + " " + URLEncoder.encode(text.value(), StandardCharsets.UTF_8);
            case ScalarValue.Number number -> NUMBER + " " + number.value();
        };
        return "pre-image " + oid.toDottedString() + " " + value;
    }

    private static PreImage parse(String line) {
        String[] fields = line.split(" ", -1);
        if (fields.length != 4 || !fields[0].equals("pre-image")) {
            throw new IllegalArgumentException("expected 'pre-image OID text|number VALUE'");
        }
        if (!DOTTED_OID.matcher(fields[1]).matches()) {
            throw new IllegalArgumentException("'" + fields[1] + "' is not a dotted OID");
        }
        ScalarValue old = switch (fields[2]) {
            case TEXT -> new ScalarValue.Text(URLDecoder.decode(fields[3], StandardCharsets.UTF_8));
            case NUMBER -> new ScalarValue.Number(Integer.parseInt(fields[3]));
            default -> throw new IllegalArgumentException("unknown value kind '" + fields[2] + "'");
        };
        return new PreImage(new OID(fields[1]), old);
    }
}
