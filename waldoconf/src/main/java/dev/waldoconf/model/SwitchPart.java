package dev.waldoconf.model;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Part of a switch's VLAN configuration, key by key: a VLAN's name (or that the VLAN does not
 * exist), a port's membership in a VLAN (tagged, untagged, or none), a port's PVID. What one
 * transaction changes and what its trial puts back are parts; so is the whole configuration a
 * switch should hold (every VLAN, every membership, every PVID, nothing absent).
 *
 * <p>Keys, not whole VLANs, because two changes that touch different ports of one VLAN (say each
 * moves an access port out of the default VLAN) touch different memberships: the VLAN service
 * locks, changes and reverts them one by one, so such changes run side by side.
 *
 * @param names VLAN id to its name, or empty: the VLAN does not exist
 * @param members a port's membership in a VLAN, or empty: the port does not carry the VLAN
 * @param pvids bridge port to its PVID
 */
public record SwitchPart(SortedMap<Integer, Optional<String>> names, SortedMap<Member, Optional<Membership>> members,
                         SortedMap<Integer, Integer> pvids) {
    /** How a port carries a VLAN. */
    public enum Membership {
        TAGGED, UNTAGGED
    }

    /**
     * A port's membership in a VLAN, as one key.
     *
     * @param vlan the VLAN id
     * @param port the bridge port
     */
    public record Member(int vlan, int port) implements Comparable<Member> {
        @Override
        public int compareTo(Member other) {
            return vlan != other.vlan ? Integer.compare(vlan, other.vlan) : Integer.compare(port, other.port);
        }
    }

    public SwitchPart {
        names = Collections.unmodifiableSortedMap(new TreeMap<>(names));
        members = Collections.unmodifiableSortedMap(new TreeMap<>(members));
        pvids = Collections.unmodifiableSortedMap(new TreeMap<>(pvids));
    }

    /** The part with no keys. */
    public static SwitchPart empty() {
        return new SwitchPart(new TreeMap<>(), new TreeMap<>(), new TreeMap<>());
    }

    /** All of {@code state}, key by key. */
    public static SwitchPart of(SwitchState state) {
        SortedMap<Integer, Optional<String>> names = new TreeMap<>();
        SortedMap<Member, Optional<Membership>> members = new TreeMap<>();
        for (Vlan vlan : state.vlans().values()) {
            names.put(vlan.id(), Optional.of(vlan.name()));
            vlan.tagged().forEach(port -> members.put(new Member(vlan.id(), port), Optional.of(Membership.TAGGED)));
            vlan.untagged().forEach(port -> members.put(new Member(vlan.id(), port), Optional.of(Membership.UNTAGGED)));
        }
        return new SwitchPart(names, members, new TreeMap<>(state.pvids()));
    }

    /** The keys on which {@code from} and {@code to} differ, with {@code to}'s values: the change from one to the other. */
    public static SwitchPart between(SwitchState from, SwitchState to) {
        return changes(of(from), of(to));
    }

    /**
     * The keys on which two parts differ, with {@code after}'s values; a key {@code before} has and
     * {@code after} lacks becomes absent (a PVID never does: every port has one).
     */
    public static SwitchPart changes(SwitchPart before, SwitchPart after) {
        SortedMap<Integer, Optional<String>> names = new TreeMap<>();
        differing(before.names, after.names, names);
        SortedMap<Member, Optional<Membership>> members = new TreeMap<>();
        differing(before.members, after.members, members);
        SortedMap<Integer, Integer> pvids = new TreeMap<>();
        after.pvids.forEach((port, vlan) -> {
            if (!vlan.equals(before.pvids.get(port))) {
                pvids.put(port, vlan);
            }
        });
        return new SwitchPart(names, members, pvids);
    }

    private static <K, V> void differing(Map<K, Optional<V>> before, Map<K, Optional<V>> after,
            Map<K, Optional<V>> into) {
        after.forEach((key, value) -> {
            if (!value.equals(before.getOrDefault(key, Optional.empty()))) {
                into.put(key, value);
            }
        });
        before.forEach((key, value) -> {
            if (!after.containsKey(key) && value.isPresent()) {
                into.put(key, Optional.empty());
            }
        });
    }

    /** What {@code state} holds on this part's keys (a PVID the state lacks is left out). */
    public SwitchPart valuesIn(SwitchState state) {
        return valuesIn(of(state));
    }

    /** What {@code whole} holds on this part's keys: absent where it lacks a name or membership. */
    public SwitchPart valuesIn(SwitchPart whole) {
        SortedMap<Integer, Optional<String>> names = new TreeMap<>();
        this.names.keySet().forEach(id -> names.put(id, whole.names.getOrDefault(id, Optional.empty())));
        SortedMap<Member, Optional<Membership>> members = new TreeMap<>();
        this.members.keySet().forEach(key -> members.put(key, whole.members.getOrDefault(key, Optional.empty())));
        SortedMap<Integer, Integer> pvids = new TreeMap<>();
        this.pvids.keySet().stream().filter(whole.pvids::containsKey).forEach(port -> pvids.put(port, whole.pvids.get(port)));
        return new SwitchPart(names, members, pvids);
    }

    /**
     * {@code state} with this part's values set: VLANs created, renamed or deleted (with their
     * memberships), ports added to or removed from VLANs, PVIDs set.
     */
    public SwitchState appliedTo(SwitchState state) {
        SwitchPart all = of(state).then(this);
        // Each VLAN's ports are gathered first and the VLAN made once: making it again for each
        // member copied its port sets each time (quadratic in its ports), 2.5 % of a 1,000-switch
        // lab's CPU during an apply, where every prepare, commit and undo applies a part.
        Map<Integer, SortedSet<Integer>> tagged = new HashMap<>();
        Map<Integer, SortedSet<Integer>> untagged = new HashMap<>();
        all.members.forEach((key, membership) -> membership.ifPresent(kind ->
                (kind == Membership.UNTAGGED ? untagged : tagged).computeIfAbsent(key.vlan(), vlan -> new TreeSet<>())
                        .add(key.port())));
        SortedSet<Integer> none = new TreeSet<>();
        TreeMap<Integer, Vlan> vlans = new TreeMap<>();
        all.names.forEach((id, name) -> name.ifPresent(present -> vlans.put(id,
                new Vlan(id, present, tagged.getOrDefault(id, none), untagged.getOrDefault(id, none)))));
        return new SwitchState(vlans, all.pvids);
    }

    /** This part with {@code newer}'s values where it has them. */
    public SwitchPart then(SwitchPart newer) {
        SortedMap<Integer, Optional<String>> names = new TreeMap<>(this.names);
        names.putAll(newer.names);
        SortedMap<Member, Optional<Membership>> members = new TreeMap<>(this.members);
        members.putAll(newer.members);
        SortedMap<Integer, Integer> pvids = new TreeMap<>(this.pvids);
        pvids.putAll(newer.pvids);
        return new SwitchPart(names, members, pvids);
    }

    /** This part without the keys {@code other} has. */
    public SwitchPart without(SwitchPart other) {
        SortedMap<Integer, Optional<String>> names = new TreeMap<>(this.names);
        names.keySet().removeAll(other.names.keySet());
        SortedMap<Member, Optional<Membership>> members = new TreeMap<>(this.members);
        members.keySet().removeAll(other.members.keySet());
        SortedMap<Integer, Integer> pvids = new TreeMap<>(this.pvids);
        pvids.keySet().removeAll(other.pvids.keySet());
        return new SwitchPart(names, members, pvids);
    }

    /** Whether this part and {@code other} share a key. */
    public boolean overlaps(SwitchPart other) {
        return !Collections.disjoint(names.keySet(), other.names.keySet())
                || !Collections.disjoint(members.keySet(), other.members.keySet())
                || !Collections.disjoint(pvids.keySet(), other.pvids.keySet());
    }

    /** Whether the part has no key. */
    public boolean isEmpty() {
        return names.isEmpty() && members.isEmpty() && pvids.isEmpty();
    }

    /**
     * The part's keys as text, the way the VLAN service names them ({@code vlan 10},
     * {@code member 10/5}, {@code pvid 5}): what a pending trial holds.
     */
    public Set<String> keys() {
        Set<String> keys = new LinkedHashSet<>();
        names.keySet().forEach(id -> keys.add(vlanKey(id)));
        members.keySet().forEach(key -> keys.add(memberKey(key)));
        pvids.keySet().forEach(port -> keys.add(pvidKey(port)));
        return keys;
    }

    /** The text key of VLAN {@code id}'s name. */
    public static String vlanKey(int id) {
        return "vlan " + id;
    }

    /** The text key of a membership. */
    public static String memberKey(Member member) {
        return "member " + memberId(member);
    }

    /** A membership as the VLAN service's {@code members} map keys it: {@code VLAN/PORT}. */
    public static String memberId(Member member) {
        return member.vlan() + "/" + member.port();
    }

    /** The text key of port {@code port}'s PVID. */
    public static String pvidKey(int port) {
        return "pvid " + port;
    }
}
