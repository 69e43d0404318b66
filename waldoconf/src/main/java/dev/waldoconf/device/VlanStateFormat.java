package dev.waldoconf.device;

import dev.waldoconf.model.PortRanges;
import dev.waldoconf.model.SwitchPart;
import dev.waldoconf.model.SwitchPart.Member;
import dev.waldoconf.model.SwitchPart.Membership;
import dev.waldoconf.service.DeviceJournal;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * How a switch service's {@link DeviceJournal} writes part of a VLAN configuration
 * ({@link SwitchPart}): a VLAN's name ({@code name ID NAME}, URL-encoded) or its absence
 * ({@code no-vlan ID}); memberships grouped per VLAN ({@code tagged ID PORTS},
 * {@code untagged ID PORTS}, {@code not-member ID PORTS}, ports as ranges); and PVIDs
 * ({@code pvid PORT VLAN}).
 */
public final class VlanStateFormat implements DeviceJournal.StateFormat<SwitchPart> {
    /** The one instance: the format has no settings. */
    public static final VlanStateFormat INSTANCE = new VlanStateFormat();

    private VlanStateFormat() {
    }

    @Override
    public List<String> lines(SwitchPart part) {
        List<String> lines = new ArrayList<>();
        part.names().forEach((id, name) -> lines.add(name.map(present -> "name " + id + " "
                + URLEncoder.encode(present, StandardCharsets.UTF_8)).orElse("no-vlan " + id)));
        TreeMap<Integer, TreeMap<String, SortedSet<Integer>>> byVlan = new TreeMap<>();
        part.members().forEach((member, membership) -> byVlan.computeIfAbsent(member.vlan(), v -> new TreeMap<>())
                .computeIfAbsent(word(membership), w -> new TreeSet<>()).add(member.port()));
        byVlan.forEach((vlan, kinds) -> kinds.forEach((word, ports) ->
                lines.add(word + " " + vlan + " " + PortRanges.format(ports))));
        part.pvids().forEach((port, vlan) -> lines.add("pvid " + port + " " + vlan));
        return lines;
    }

    private static String word(Optional<Membership> membership) {
        return membership.map(kind -> kind == Membership.TAGGED ? "tagged" : "untagged").orElse("not-member");
    }

    @Override
    public SwitchPart parse(List<String> lines) {
        TreeMap<Integer, Optional<String>> names = new TreeMap<>();
        TreeMap<Member, Optional<Membership>> members = new TreeMap<>();
        TreeMap<Integer, Integer> pvids = new TreeMap<>();
        for (String line : lines) {
            String[] fields = line.split(" ");
            switch (fields[0]) {
                case "name" -> names.put(Integer.parseInt(fields[1]),
                        Optional.of(URLDecoder.decode(fields.length > 2 ? fields[2] : "", StandardCharsets.UTF_8)));
                case "no-vlan" -> names.put(Integer.parseInt(fields[1]), Optional.empty());
                case "tagged", "untagged", "not-member" -> {
                    Optional<Membership> membership = fields[0].equals("not-member") ? Optional.empty()
                            : Optional.of(fields[0].equals("tagged") ? Membership.TAGGED : Membership.UNTAGGED);
                    int vlan = Integer.parseInt(fields[1]);
                    PortRanges.parse(fields[2]).forEach(port -> members.put(new Member(vlan, port), membership));
                }
                case "pvid" -> pvids.put(Integer.parseInt(fields[1]), Integer.parseInt(fields[2]));
                default -> throw new IllegalArgumentException("unknown entry '" + fields[0] + "'");
            }
        }
        return new SwitchPart(names, members, pvids);
    }
}
