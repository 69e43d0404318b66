package dev.waldoconf.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The switches WaldoConf manages, groups of them, and their credentials, as read and checked by
 * {@link InventoryLoader}. Every switch's credentials exist and match its SNMP version, and every
 * group names existing switches.
 *
 * @param file the inventory file, for messages
 * @param switches the switches in file order
 * @param groups group name to member switch names; includes the built-in group {@value #ALL}
 * @param credentials credentials by name
 * @param sites where each site's agent is reached, by site name; every switch of a site has that
 *     address as its {@link SwitchEntry#service()}
 */
public record Inventory(Path file, List<SwitchEntry> switches, Map<String, List<String>> groups,
                        Map<String, Credentials> credentials, Map<String, HostPort> sites) {
    /** The built-in group of every switch in the inventory. */
    public static final String ALL = "all";

    /** Copies the collections and adds the group {@value #ALL}. */
    public Inventory {
        switches = List.copyOf(switches);
        Map<String, List<String>> withAll = new LinkedHashMap<>();
        groups.forEach((group, members) -> withAll.put(group, new Members(members)));
        withAll.put(ALL, new Members(switches.stream().map(SwitchEntry::name).toList()));
        groups = java.util.Collections.unmodifiableMap(withAll);
        credentials = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(credentials));
        sites = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sites));
    }

    /**
     * A group's member names, in inventory order, unmodifiable, with a {@code contains} that does
     * not scan: a plan asks, for every switch, whether each of its entries' groups covers it, and
     * with a thousand switches in {@value #ALL} scanning made resolving a plan quadratic.
     */
    private static final class Members extends java.util.AbstractList<String> implements java.util.RandomAccess {
        private final List<String> names;
        private final java.util.Set<String> set;

        Members(List<String> names) {
            this.names = List.copyOf(names);
            this.set = java.util.Set.copyOf(names);
        }

        @Override
        public String get(int index) {
            return names.get(index);
        }

        @Override
        public int size() {
            return names.size();
        }

        @Override
        public boolean contains(Object name) {
            return name != null && set.contains(name);
        }
    }

    /** An inventory without sites: every switch has a service of its own. */
    public Inventory(Path file, List<SwitchEntry> switches, Map<String, List<String>> groups,
                     Map<String, Credentials> credentials) {
        this(file, switches, groups, credentials, Map.of());
    }

    /** The switch called {@code name}. */
    public Optional<SwitchEntry> switchNamed(String name) {
        return switches.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** The switches of site {@code site}, in inventory order; empty for an unknown site. */
    public List<SwitchEntry> switchesOfSite(String site) {
        return switches.stream().filter(entry -> entry.site().filter(site::equals).isPresent()).toList();
    }

    /** The credentials {@code entry} refers to (they exist: the loader checked). */
    public Credentials credentialsOf(SwitchEntry entry) {
        return credentials.get(entry.credentials());
    }

    /** The switches of group {@code group}, in inventory order; empty for an unknown group. */
    public List<SwitchEntry> membersOf(String group) {
        List<String> names = groups.getOrDefault(group, List.of());
        List<SwitchEntry> members = new ArrayList<>();
        for (SwitchEntry entry : switches) {
            if (names.contains(entry.name())) {
                members.add(entry);
            }
        }
        return members;
    }

    /** A one-line summary without secrets: {@code 4 switches, groups access, all}. */
    @Override
    public String toString() {
        return "Inventory[" + file + ": " + switches.size() + " switches, sites " + String.join(", ", sites.keySet())
                + ", groups " + String.join(", ", groups.keySet())
                + ", credentials " + String.join(", ", credentials.keySet()) + "]";
    }
}
