package dev.waldoconf.service;

import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.lang.WMap;
import dev.waldoconf.model.SwitchPart;
import dev.waldoconf.model.SwitchPart.Member;
import dev.waldoconf.model.SwitchPart.Membership;
import dev.waldoconf.model.SwitchState;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Converts a switch's VLAN configuration between the Java model ({@link SwitchState},
 * {@link SwitchPart}) and the values the VlanSwitch Waldo service holds: the views of the switch
 * as read (VLANs as Vlan structs, PVIDs), its configuration key by key (names by VLAN id,
 * memberships by {@code VLAN/PORT}, PVIDs by port), and Part structs. Ports and ids are whole
 * numbers; anything else is rejected rather than rounded.
 */
public final class WaldoState {
    private static final String TAGGED = "tagged";
    private static final String UNTAGGED = "untagged";

    private WaldoState() {
    }

    /** The service's {@code seen_vlans} value for {@code state}. */
    public static WMap<Double, dev.waldoconf.services.Vlan> vlans(SwitchState state) {
        WMap<Double, dev.waldoconf.services.Vlan> vlans = new WMap<>();
        state.vlans().forEach((id, vlan) -> {
            dev.waldoconf.services.Vlan value = new dev.waldoconf.services.Vlan();
            value.name = vlan.name();
            value.tagged = ports(vlan.tagged());
            value.untagged = ports(vlan.untagged());
            vlans.put((double) id, value);
        });
        return vlans;
    }

    /** The service's {@code pvids} (or {@code seen_pvids}) value for {@code state}. */
    public static WMap<Double, Double> pvids(SwitchState state) {
        WMap<Double, Double> pvids = new WMap<>();
        state.pvids().forEach((port, vlan) -> pvids.put((double) port, (double) vlan));
        return pvids;
    }

    /** The service's {@code names} value for {@code state}: each VLAN's name by id. */
    public static WMap<Double, String> names(SwitchState state) {
        WMap<Double, String> names = new WMap<>();
        state.vlans().forEach((id, vlan) -> names.put((double) id, vlan.name()));
        return names;
    }

    /** The service's {@code members} value for {@code state}: 'tagged' or 'untagged' by {@code VLAN/PORT}. */
    public static WMap<String, String> members(SwitchState state) {
        WMap<String, String> members = new WMap<>();
        SwitchPart.of(state).members().forEach((member, membership) ->
                members.put(SwitchPart.memberId(member), word(membership.orElseThrow())));
        return members;
    }

    /** The switch state held in a service's {@code seen_vlans} and {@code seen_pvids} values. */
    public static SwitchState state(Object vlans, Object pvids) {
        TreeMap<Integer, dev.waldoconf.model.Vlan> table = new TreeMap<>();
        for (Map.Entry<?, ?> entry : ((WMap<?, ?>) vlans).entrySet()) {
            int id = whole(entry.getKey(), "VLAN id");
            dev.waldoconf.services.Vlan value = (dev.waldoconf.services.Vlan) entry.getValue();
            table.put(id, new dev.waldoconf.model.Vlan(id, value.name, portSet(value.tagged), portSet(value.untagged)));
        }
        return new SwitchState(table, pvidMap(pvids));
    }

    /** The configuration held in a service's {@code names}, {@code members} and {@code pvids} values, key by key. */
    public static SwitchPart part(Object names, Object members, Object pvids) {
        SortedMap<Integer, Optional<String>> byId = new TreeMap<>();
        for (Map.Entry<?, ?> entry : ((WMap<?, ?>) names).entrySet()) {
            byId.put(whole(entry.getKey(), "VLAN id"), Optional.of((String) entry.getValue()));
        }
        SortedMap<Member, Optional<Membership>> byMember = new TreeMap<>();
        for (Map.Entry<?, ?> entry : ((WMap<?, ?>) members).entrySet()) {
            byMember.put(member((String) entry.getKey()), Optional.of(membership((String) entry.getValue())));
        }
        return new SwitchPart(byId, byMember, pvidMap(pvids));
    }

    /** A Part struct of the service as the model's part. */
    public static SwitchPart part(dev.waldoconf.services.Part part) {
        SortedMap<Integer, Optional<String>> names = new TreeMap<>();
        part.names.forEach((id, name) -> names.put(whole(id, "VLAN id"), Optional.of(name)));
        part.no_vlans.forEach(id -> names.put(whole(id, "VLAN id"), Optional.empty()));
        SortedMap<Member, Optional<Membership>> members = new TreeMap<>();
        for (dev.waldoconf.services.Membership member : part.members) {
            members.put(new Member(whole(member.vlan, "VLAN id"), whole(member.port, "port")),
                    member.mode.isEmpty() ? Optional.empty() : Optional.of(membership(member.mode)));
        }
        return new SwitchPart(names, members, pvidMap(part.pvids));
    }

    /** The model's part as a Part struct of the service. */
    public static dev.waldoconf.services.Part struct(SwitchPart part) {
        dev.waldoconf.services.Part struct = new dev.waldoconf.services.Part();
        part.names().forEach((id, name) -> {
            if (name.isPresent()) {
                struct.names.put((double) id, name.get());
            } else {
                struct.no_vlans.add((double) id);
            }
        });
        part.members().forEach((member, membership) -> {
            dev.waldoconf.services.Membership value = new dev.waldoconf.services.Membership();
            value.vlan = member.vlan();
            value.port = member.port();
            value.mode = membership.map(WaldoState::word).orElse("");
            struct.members.add(value);
        });
        part.pvids().forEach((port, vlan) -> struct.pvids.put((double) port, (double) vlan));
        return struct;
    }

    private static String word(Membership membership) {
        return membership == Membership.TAGGED ? TAGGED : UNTAGGED;
    }

    private static Membership membership(String word) {
        return switch (word) {
            case TAGGED -> Membership.TAGGED;
            case UNTAGGED -> Membership.UNTAGGED;
            default -> throw new IllegalArgumentException("membership '" + word + "' is neither tagged nor untagged");
        };
    }

    private static Member member(String id) {
        int slash = id.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("membership key '" + id + "' is not VLAN/PORT");
        }
        return new Member(Integer.parseInt(id.substring(0, slash)), Integer.parseInt(id.substring(slash + 1)));
    }

    private static SortedMap<Integer, Integer> pvidMap(Object pvids) {
        SortedMap<Integer, Integer> ports = new TreeMap<>();
        for (Map.Entry<?, ?> entry : ((WMap<?, ?>) pvids).entrySet()) {
            ports.put(whole(entry.getKey(), "port"), whole(entry.getValue(), "PVID"));
        }
        return ports;
    }

    private static WList<Double> ports(SortedSet<Integer> ports) {
        WList<Double> list = new WList<>();
        ports.forEach(port -> list.add((double) port));
        return list;
    }

    private static SortedSet<Integer> portSet(WList<Double> ports) {
        SortedSet<Integer> set = new TreeSet<>();
        for (Object port : ports) {
            set.add(whole(port, "port"));
        }
        return set;
    }

    private static int whole(Object number, String what) {
        double value = (Double) number;
        if (value != Math.rint(value) || value < 0 || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(what + " " + value + " is not a whole number");
        }
        return (int) value;
    }
}
