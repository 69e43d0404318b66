package dev.waldoconf.config;

import dev.waldoconf.model.Vlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a plan says about one switch: the managed VLANs with exactly their member ports there,
 * the VLANs to delete, and explicit PVIDs; plus the conflicts found while gathering it (a port
 * untagged in two VLANs, tagged and untagged in one, given two PVIDs, or beyond the port count).
 */
final class SwitchIntent {
    final String switchName;
    final SortedMap<Integer, Vlan> managed = new TreeMap<>();
    final SortedSet<Integer> deleted = new TreeSet<>();
    final SortedMap<Integer, Plan.PvidSetting> explicitPvids = new TreeMap<>();
    /** For each untagged port, the membership that made it untagged. */
    final Map<Integer, String> untaggedBy = new HashMap<>();
    /** For each managed VLAN, where each member port was listed. */
    private final Map<Integer, Map<Integer, String>> listedAt = new HashMap<>();
    final List<ConfigProblem> problems = new ArrayList<>();

    private final YamlDocument document;

    private SwitchIntent(String switchName, YamlDocument document) {
        this.switchName = switchName;
        this.document = document;
    }

    /** Gathers what {@code plan} says about the switch {@code entry}. */
    static SwitchIntent of(Plan plan, Inventory inventory, SwitchEntry entry) {
        SwitchIntent intent = new SwitchIntent(entry.name(), plan.document());
        for (Plan.PlanVlan vlan : plan.vlans()) {
            if (vlan.absent()) {
                intent.deleted.add(vlan.id());
            } else {
                intent.addVlan(vlan, inventory);
            }
        }
        for (Plan.PvidSetting pvid : plan.pvids()) {
            if (pvid.target().covers(inventory, entry.name())) {
                intent.addPvid(pvid);
            }
        }
        entry.portCount().ifPresent(intent::checkPortCount);
        return intent;
    }

    private void addVlan(Plan.PlanVlan planVlan, Inventory inventory) {
        SortedSet<Integer> tagged = new TreeSet<>();
        SortedSet<Integer> untagged = new TreeSet<>();
        for (Plan.Membership membership : planVlan.memberships()) {
            if (!membership.target().covers(inventory, switchName)) {
                continue;
            }
            Map<Integer, String> sources = listedAt.computeIfAbsent(planVlan.id(), id -> new HashMap<>());
            membership.tagged().forEach(port -> sources.putIfAbsent(port, membership.path() + ".tagged"));
            for (int port : membership.untagged()) {
                claimUntagged(port, membership.path() + ".untagged");
                sources.put(port, membership.path() + ".untagged");
            }
            tagged.addAll(membership.tagged());
            untagged.addAll(membership.untagged());
        }
        SortedSet<Integer> both = new TreeSet<>(tagged);
        both.retainAll(untagged);
        if (!both.isEmpty()) {
            problems.add(document.problem(planVlan.path(), "on switch " + switchName + ", port(s) "
                    + dev.waldoconf.model.PortRanges.format(both) + " are both tagged and untagged in VLAN "
                    + planVlan.id() + "; a port carries a VLAN one way"));
            tagged.removeAll(both);
        }
        managed.put(planVlan.id(), new Vlan(planVlan.id(), planVlan.name(), tagged, untagged));
    }

    private void claimUntagged(int port, String path) {
        String earlier = untaggedBy.putIfAbsent(port, path);
        if (earlier != null && !vlanPathOf(earlier).equals(vlanPathOf(path))) {
            problems.add(document.problem(path, "port " + port + " on switch " + switchName
                    + " is already untagged in another VLAN (" + earlier + " at " + lineCol(earlier)
                    + "); a port can be untagged in one VLAN only: make it tagged in one of them"));
        }
    }

    private void addPvid(Plan.PvidSetting pvid) {
        for (int port : pvid.ports()) {
            Plan.PvidSetting earlier = explicitPvids.putIfAbsent(port, pvid);
            if (earlier != null && earlier.vlan() != pvid.vlan()) {
                problems.add(document.problem(pvid.path(), "port " + port + " on switch " + switchName
                        + " already gets PVID " + earlier.vlan() + " from " + earlier.path() + " at "
                        + lineCol(earlier.path()) + "; give each port one PVID"));
            }
        }
    }

    /** Reports ports beyond {@code portCount}, once per plan entry. */
    void checkPortCount(int portCount) {
        for (Vlan vlan : managed.values()) {
            for (int port : vlan.egress()) {
                if (port > portCount) {
                    String path = listedAt.get(vlan.id()).get(port);
                    problems.add(document.problem(path, "port " + port + " is beyond switch " + switchName
                            + "'s " + portCount + " ports"));
                    break;
                }
            }
        }
        explicitPvids.forEach((port, pvid) -> {
            if (port > portCount) {
                problems.add(document.problem(pvid.path(), "port " + port + " is beyond switch " + switchName
                        + "'s " + portCount + " ports"));
            }
        });
    }

    private static String vlanPathOf(String membershipPath) {
        int cut = membershipPath.indexOf(".ports");
        return cut < 0 ? membershipPath : membershipPath.substring(0, cut);
    }

    private String lineCol(String path) {
        SourceLocation at = document.locate(path);
        return at.line() + ":" + at.column();
    }
}
