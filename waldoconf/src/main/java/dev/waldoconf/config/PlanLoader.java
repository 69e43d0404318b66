package dev.waldoconf.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.waldo.runtime.lang.Suggestions;
import dev.waldoconf.model.PortRanges;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Reads a VLAN plan: YAML, checked against {@code schema/plan.schema.json}, then against the
 * inventory (switch and group names exist, ports exist on the switches) and for conflicts
 * (duplicate VLAN ids, a port untagged in two VLANs, a PVID naming a VLAN the plan deletes).
 * Conflicts that depend on what a switch holds now are found later by {@link PlanResolver}.
 */
public final class PlanLoader {
    private static final SchemaCheck SCHEMA = SchemaCheck.load(SchemaCheck.PLAN);

    private PlanLoader() {
    }

    /**
     * Reads and checks {@code file} against {@code inventory}.
     *
     * @throws ConfigException listing every problem found
     */
    public static Plan load(Path file, Inventory inventory) throws ConfigException {
        return check(YamlDocument.read(file), inventory);
    }

    /** Checks an already parsed plan document against {@code inventory}. */
    public static Plan check(YamlDocument document, Inventory inventory) throws ConfigException {
        SCHEMA.require(document);
        return new Reading(document, inventory).read();
    }

    /** One pass over a schema-valid plan, collecting problems. */
    private static final class Reading {
        private final YamlDocument document;
        private final Inventory inventory;
        private final List<ConfigProblem> problems = new ArrayList<>();

        Reading(YamlDocument document, Inventory inventory) {
            this.document = document;
            this.inventory = inventory;
        }

        Plan read() throws ConfigException {
            List<Plan.PlanVlan> vlans = vlans();
            List<Plan.PvidSetting> pvids = pvids(vlans);
            Plan plan = new Plan(document, vlans, pvids);
            if (problems.isEmpty()) {
                checkEverySwitch(plan);
            }
            if (!problems.isEmpty()) {
                throw new ConfigException(problems);
            }
            return plan;
        }

        private List<Plan.PlanVlan> vlans() {
            List<Plan.PlanVlan> result = new ArrayList<>();
            Map<Integer, String> seen = new HashMap<>();
            JsonNode list = document.root().path("vlans");
            for (int i = 0; i < list.size(); i++) {
                String path = FieldPaths.index("vlans", i);
                Plan.PlanVlan vlan = vlan(list.get(i), path);
                String earlier = seen.putIfAbsent(vlan.id(), path);
                if (earlier != null) {
                    problems.add(document.problem(path + ".id", "VLAN " + vlan.id() + " is already listed at "
                            + document.locate(earlier).line() + ":" + document.locate(earlier).column() + " ("
                            + earlier + "); list each VLAN once and put all its ports there"));
                }
                result.add(vlan);
            }
            return result;
        }

        private Plan.PlanVlan vlan(JsonNode node, String path) {
            int id = node.get("id").asInt();
            boolean absent = node.path("absent").asBoolean(false);
            String name = node.path("name").asText("");
            if (!absent && !node.has("name")) {
                problems.add(document.problem(path, "VLAN " + id + " needs a name (or 'absent: true' to delete it)"));
            }
            if (absent && node.has("ports")) {
                problems.add(document.problem(path + ".ports", "VLAN " + id + " is marked absent (deleted), so it"
                        + " cannot have ports; remove 'ports' or 'absent'"));
            }
            List<Plan.Membership> memberships = new ArrayList<>();
            JsonNode list = node.path("ports");
            for (int i = 0; i < list.size(); i++) {
                String entryPath = FieldPaths.index(path + ".ports", i);
                Target target = target(list.get(i), entryPath);
                if (!list.get(i).has("tagged") && !list.get(i).has("untagged")) {
                    problems.add(document.problem(entryPath, "say which ports: 'tagged', 'untagged' or both"));
                }
                memberships.add(new Plan.Membership(target, ports(list.get(i), entryPath, "tagged"),
                        ports(list.get(i), entryPath, "untagged"), entryPath));
            }
            return new Plan.PlanVlan(id, name, absent, memberships, path);
        }

        private List<Plan.PvidSetting> pvids(List<Plan.PlanVlan> vlans) {
            Map<Integer, Plan.PlanVlan> byId = new LinkedHashMap<>();
            vlans.forEach(vlan -> byId.putIfAbsent(vlan.id(), vlan));
            List<Plan.PvidSetting> result = new ArrayList<>();
            JsonNode list = document.root().path("pvids");
            for (int i = 0; i < list.size(); i++) {
                String path = FieldPaths.index("pvids", i);
                JsonNode node = list.get(i);
                int vlan = node.get("vlan").asInt();
                Plan.PlanVlan planned = byId.get(vlan);
                if (planned != null && planned.absent()) {
                    problems.add(document.problem(path + ".vlan", "PVID " + vlan + " names a VLAN this plan deletes"
                            + " (" + planned.path() + "); choose a VLAN that will exist"));
                }
                result.add(new Plan.PvidSetting(target(node, path), ports(node, path, "ports"), vlan, path));
            }
            return result;
        }

        /** The switch or group of an entry; exactly one of the two must be given and exist. */
        private Target target(JsonNode node, String path) {
            boolean hasSwitch = node.has("switch");
            boolean hasGroup = node.has("group");
            if (hasSwitch == hasGroup) {
                problems.add(document.problem(path, "give either 'switch: NAME' or 'group: NAME' (use 'group: all'"
                        + " for every switch)"));
                return new Target(Target.Kind.GROUP, Inventory.ALL);
            }
            String name = node.get(hasSwitch ? "switch" : "group").asText();
            String namePath = path + (hasSwitch ? ".switch" : ".group");
            if (hasSwitch && inventory.switchNamed(name).isEmpty()) {
                problems.add(document.problem(namePath, "no switch named '" + name + "' in inventory "
                        + inventory.file() + Suggestions.closest(name, inventory.groups().get(Inventory.ALL))));
            } else if (hasGroup && !inventory.groups().containsKey(name)) {
                problems.add(document.problem(namePath, "no group named '" + name + "' in inventory "
                        + inventory.file() + Suggestions.closest(name, inventory.groups().keySet())));
            }
            return new Target(hasSwitch ? Target.Kind.SWITCH : Target.Kind.GROUP, name);
        }

        private SortedSet<Integer> ports(JsonNode node, String path, String field) {
            if (!node.has(field)) {
                return new TreeSet<>();
            }
            try {
                return PortRanges.parse(node.get(field).asText());
            } catch (IllegalArgumentException e) {
                problems.add(document.problem(FieldPaths.field(path, field), e.getMessage()));
                return new TreeSet<>();
            }
        }

        /** Conflicts that show only once memberships are gathered per switch. */
        private void checkEverySwitch(Plan plan) {
            Map<String, ConfigProblem> unique = new LinkedHashMap<>();
            for (SwitchEntry entry : inventory.switches()) {
                for (ConfigProblem problem : SwitchIntent.of(plan, inventory, entry).problems) {
                    unique.putIfAbsent(problem.location() + " " + problem.field(), problem);
                }
            }
            problems.addAll(unique.values());
        }
    }
}
