package dev.waldoconf.lab.model;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The file a switch keeps its configuration in across restarts, as RFC 4363 requires for the
 * static VLAN table and PVIDs. The format is Java properties, one setting a line, sorted, so a
 * person can read and diff it:
 *
 * <pre>
 * engineBoots=3
 * port.1.pvid=1
 * sysName=sw1
 * vlan.10.egress=c00000
 * vlan.10.name=users
 * vlan.10.status=active
 * </pre>
 *
 * Writes go to a temporary file that is then renamed over the old one, so a crash never leaves
 * half a file.
 */
public final class StateFile {
    private static final String FORMAT = "1";

    private final Path path;
    /** Where a save writes before renaming: the switch saves under its own lock, so one name serves. */
    private final Path temporary;
    /** Whether the directory is known to exist, so that a save need not check it again. */
    private boolean directoryMade;

    /** The state file at {@code path} (which need not exist yet). */
    public StateFile(Path path) {
        this.path = path;
        this.temporary = path.resolveSibling(path.getFileName() + ".tmp");
    }

    /** Where the file is. */
    public Path path() {
        return path;
    }

    /** What a state file holds: the switch configuration and the SNMPv3 engine boot counter. */
    public record Snapshot(SwitchState state, int engineBoots) { }

    /**
     * Reads the file, or returns the factory default (with engine boots 0) when there is none.
     *
     * @throws IOException when the file cannot be read or is not a valid state file for {@code spec};
     *     the message names the file and the bad entry
     */
    public Snapshot load(SwitchSpec spec, String defaultSysName) throws IOException {
        if (!Files.exists(path)) {
            return new Snapshot(SwitchState.factoryDefault(spec, defaultSysName), 0);
        }
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            props.load(reader);
        }
        try {
            return parse(props, spec);
        } catch (RuntimeException e) {
            throw new IOException("state file " + path + " is invalid: " + e.getMessage()
                    + "; fix or delete it to start from the factory default", e);
        }
    }

    /**
     * Writes the snapshot atomically. Not thread-safe: the switch saves under its own lock. Saves
     * were 11 % of a 1,000-switch lab's CPU during an apply, mostly in creating files, so each
     * opens one file and renames it rather than creating a uniquely named one and opening it again.
     */
    public void save(Snapshot snapshot) throws IOException {
        if (!directoryMade) {
            Files.createDirectories(path.toAbsolutePath().getParent());
            directoryMade = true;
        }
        try {
            Files.writeString(temporary, render(snapshot), StandardCharsets.UTF_8);
            moveIntoPlace(temporary);
        } catch (IOException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
    }

    private void moveIntoPlace(Path temp) throws IOException {
        try {
            Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The file's text for a snapshot. */
    static String render(Snapshot snapshot) {
        SwitchState state = snapshot.state();
        int ports = state.portCount();
        TreeMap<String, String> entries = new TreeMap<>();
        entries.put("format", FORMAT);
        entries.put("engineBoots", String.valueOf(snapshot.engineBoots()));
        entries.put("portCount", String.valueOf(ports));
        entries.put("sysName", state.sysName());
        entries.put("sysContact", state.sysContact());
        entries.put("sysLocation", state.sysLocation());
        entries.put("vlanNumDeletes", String.valueOf(state.vlanNumDeletes()));
        for (VlanRow row : state.vlans().values()) {
            String key = "vlan." + row.vlanId() + ".";
            entries.put(key + "name", row.name());
            entries.put(key + "egress", row.egress().toHex(ports));
            entries.put(key + "forbidden", row.forbidden().toHex(ports));
            entries.put(key + "untagged", row.untagged().toHex(ports));
            entries.put(key + "status", row.status().mibName());
        }
        for (int port = 1; port <= ports; port++) {
            entries.put("port." + port + ".pvid", String.valueOf(state.pvid(port)));
        }
        StringBuilder text = new StringBuilder("# WaldoConf lab switch state. Written by the switch on every "
                + "committed SET; edit only while it is stopped.\n");
        entries.forEach((key, value) -> text.append(key).append('=').append(escape(value)).append('\n'));
        return text.toString();
    }

    private static Snapshot parse(Properties props, SwitchSpec spec) {
        require(FORMAT.equals(props.getProperty("format")), "unknown format '" + props.getProperty("format") + "'");
        int ports = Integer.parseInt(required(props, "portCount"));
        require(ports == spec.portCount(), "it was written for " + ports + " ports but the switch has "
                + spec.portCount() + " (start it with " + ports + " ports)");
        TreeMap<Integer, VlanRow> vlans = new TreeMap<>();
        for (String key : props.stringPropertyNames()) {
            if (key.startsWith("vlan.") && key.endsWith(".status")) {
                int vlanId = Integer.parseInt(key.substring(5, key.length() - 7));
                vlans.put(vlanId, parseVlan(props, vlanId));
            }
        }
        List<Integer> pvids = new ArrayList<>();
        for (int port = 1; port <= ports; port++) {
            pvids.add(Integer.parseInt(required(props, "port." + port + ".pvid")));
        }
        SwitchState state = new SwitchState(required(props, "sysName"), required(props, "sysContact"),
                required(props, "sysLocation"), vlans, pvids, Long.parseLong(required(props, "vlanNumDeletes")));
        return new Snapshot(state, Integer.parseInt(required(props, "engineBoots")));
    }

    private static VlanRow parseVlan(Properties props, int vlanId) {
        String key = "vlan." + vlanId + ".";
        RowStatus status = RowStatus.fromMibName(required(props, key + "status"))
                .orElseThrow(() -> new IllegalArgumentException(key + "status must be active or notInService"));
        return new VlanRow(vlanId, required(props, key + "name"), PortSet.fromHex(required(props, key + "egress")),
                PortSet.fromHex(required(props, key + "forbidden")), PortSet.fromHex(required(props, key + "untagged")),
                status, 0);
    }

    private static String required(Properties props, String key) {
        String value = props.getProperty(key);
        require(value != null, "missing entry '" + key + "'");
        return value;
    }

    private static void require(boolean condition, String problem) {
        if (!condition) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** Escapes a value so that {@link Properties#load(Reader)} reads it back unchanged. */
    static String escape(String value) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\f' -> out.append("\\f");
                case ' ' -> out.append(i == 0 ? "\\ " : " ");
                default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return out.toString();
    }

    /** Parses rendered text; for tests of the format. */
    static Snapshot parse(String text, SwitchSpec spec) throws IOException {
        Properties props = new Properties();
        props.load(new StringReader(text));
        return parse(props, spec);
    }
}
