package dev.waldoconf.config;

import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import dev.waldoconf.model.VlanDiff;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Computes each switch's desired {@link SwitchState} from its current state and a plan.
 *
 * <p>Semantics (also in waldoconf/README.md, "Configuration"): the plan manages the VLANs it
 * lists. A managed VLAN exists on every switch of the inventory, and its members on a switch are
 * exactly the ports the plan lists for that switch (none if it lists none). A port listed
 * untagged in a managed VLAN becomes an access port of it: it leaves the untagged and egress
 * sets of every other VLAN, and its PVID becomes that VLAN unless {@code pvids:} gives one.
 * A VLAN marked {@code absent} is deleted where it exists. VLANs the plan does not list are
 * otherwise untouched.
 */
public final class PlanResolver {
    private PlanResolver() {
    }

    /**
     * Resolves {@code plan} for every switch of {@code inventory}.
     *
     * @param current each switch's current state, by switch name (every switch must be present)
     * @throws ConfigException when the plan cannot be applied to what a switch holds (a port beyond
     *     the switch's ports, a PVID that would name a VLAN that will not exist there)
     */
    public static ResolvedPlan resolve(Plan plan, Inventory inventory, Map<String, SwitchState> current)
            throws ConfigException {
        List<ResolvedPlan.SwitchChange> switches = new ArrayList<>();
        Map<String, ConfigProblem> problems = new java.util.LinkedHashMap<>();
        for (SwitchEntry entry : inventory.switches()) {
            SwitchState now = current.get(entry.name());
            if (now == null) {
                throw new IllegalArgumentException("no current state for switch " + entry.name());
            }
            SwitchIntent intent = SwitchIntent.of(plan, inventory, entry);
            if (entry.portCount().isEmpty() && !now.pvids().isEmpty()) {
                intent.checkPortCount(now.pvids().lastKey());
            }
            SwitchState desired = desired(intent, now);
            checkPvids(plan, intent, desired);
            intent.problems.forEach(p -> problems.putIfAbsent(p.location() + " " + p.message(), p));
            switches.add(new ResolvedPlan.SwitchChange(entry, now, desired, VlanDiff.between(now, desired)));
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(List.copyOf(problems.values()));
        }
        return new ResolvedPlan(plan, inventory, switches);
    }

    /** The state {@code intent} asks for, starting from {@code now}. */
    static SwitchState desired(SwitchIntent intent, SwitchState now) {
        SortedMap<Integer, Integer> access = new TreeMap<>();
        intent.managed.values().forEach(vlan -> vlan.untagged().forEach(port -> access.put(port, vlan.id())));
        SortedMap<Integer, Vlan> vlans = new TreeMap<>();
        for (Vlan existing : now.vlans().values()) {
            if (!intent.deleted.contains(existing.id()) && !intent.managed.containsKey(existing.id())) {
                vlans.put(existing.id(), existing.withPorts(minus(existing.tagged(), access.keySet()),
                        minus(existing.untagged(), access.keySet())));
            }
        }
        vlans.putAll(intent.managed);
        SortedMap<Integer, Integer> pvids = new TreeMap<>(now.pvids());
        pvids.putAll(access);
        intent.explicitPvids.forEach((port, setting) -> pvids.put(port, setting.vlan()));
        return new SwitchState(vlans, pvids);
    }

    private static SortedSet<Integer> minus(SortedSet<Integer> from, java.util.Set<Integer> take) {
        SortedSet<Integer> result = new TreeSet<>(from);
        result.removeAll(take);
        return result;
    }

    /** Every PVID must name a VLAN that exists and, unless set explicitly, one the port still carries. */
    private static void checkPvids(Plan plan, SwitchIntent intent, SwitchState desired) {
        YamlDocument document = plan.document();
        desired.pvids().forEach((port, vlan) -> {
            Plan.PvidSetting explicit = intent.explicitPvids.get(port);
            Vlan target = desired.vlans().get(vlan);
            if (explicit != null && target == null) {
                intent.problems.add(document.problem(explicit.path() + ".vlan", "on switch " + intent.switchName
                        + ", VLAN " + vlan + " will not exist; add it to 'vlans:' or choose a VLAN the switch has"));
            } else if (explicit == null && target == null && intent.deleted.contains(vlan)) {
                intent.problems.add(document.problem(pathOf(plan, vlan), "on switch " + intent.switchName + ", port "
                        + port + " has PVID " + vlan + ", which this plan deletes; give the port another PVID under"
                        + " 'pvids:' or make it untagged in another VLAN"));
            } else if (explicit == null && intent.managed.containsKey(vlan) && !target.egress().contains(port)) {
                intent.problems.add(document.problem(pathOf(plan, vlan), "on switch " + intent.switchName + ", port "
                        + port + " keeps PVID " + vlan + " but no longer carries VLAN " + vlan + "; list the port in"
                        + " VLAN " + vlan + ", make it untagged in another VLAN, or set its PVID under 'pvids:'"));
            }
        });
    }

    private static String pathOf(Plan plan, int vlan) {
        return plan.vlans().stream().filter(v -> v.id() == vlan).map(Plan.PlanVlan::path).findFirst().orElse("vlans");
    }
}
