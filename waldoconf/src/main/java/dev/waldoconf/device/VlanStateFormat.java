package dev.waldoconf.device;

import dev.waldoconf.model.PortRanges;
import dev.waldoconf.service.DeviceJournal;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * How a switch service's {@link DeviceJournal} writes a VLAN state: one line per VLAN
 * ({@code vlan ID NAME TAGGED UNTAGGED}, the name URL-encoded, port ranges or '-') and one per PVID
 * ({@code pvid PORT VLAN}).
 */
public final class VlanStateFormat implements DeviceJournal.StateFormat<SwitchState> {
    /** The one instance: the format has no settings. */
    public static final VlanStateFormat INSTANCE = new VlanStateFormat();

    private VlanStateFormat() {
    }

    @Override
    public List<String> lines(SwitchState state) {
        List<String> lines = new ArrayList<>();
        for (Vlan vlan : state.vlans().values()) {
            lines.add("vlan " + vlan.id() + " " + URLEncoder.encode(vlan.name(), StandardCharsets.UTF_8) + " "
                    + orDash(PortRanges.format(vlan.tagged())) + " " + orDash(PortRanges.format(vlan.untagged())));
        }
        state.pvids().forEach((port, vlan) -> lines.add("pvid " + port + " " + vlan));
        return lines;
    }

    private static String orDash(String text) {
        return text.isEmpty() ? "-" : text;
    }

    @Override
    public SwitchState parse(List<String> lines) {
        TreeMap<Integer, Vlan> vlans = new TreeMap<>();
        TreeMap<Integer, Integer> pvids = new TreeMap<>();
        for (String line : lines) {
            String[] fields = line.split(" ");
            switch (fields[0]) {
                case "vlan" -> {
                    int id = Integer.parseInt(fields[1]);
                    vlans.put(id, new Vlan(id, URLDecoder.decode(fields[2], StandardCharsets.UTF_8), ports(fields[3]),
                            ports(fields[4])));
                }
                case "pvid" -> pvids.put(Integer.parseInt(fields[1]), Integer.parseInt(fields[2]));
                default -> throw new IllegalArgumentException("unknown entry '" + fields[0] + "'");
            }
        }
        return new SwitchState(vlans, pvids);
    }

    private static TreeSet<Integer> ports(String text) {
        return text.equals("-") ? new TreeSet<>() : new TreeSet<>(PortRanges.parse(text));
    }
}
