package dev.waldoconf.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.waldo.runtime.lang.Suggestions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads an inventory file: YAML, checked against {@code schema/inventory.schema.json}, then
 * checked for what a schema cannot say (names that must exist, credentials that must fit the
 * switch's SNMP version, addresses used twice). Every problem names file, line, column and field.
 */
public final class InventoryLoader {
    private static final SchemaCheck SCHEMA = SchemaCheck.load(SchemaCheck.INVENTORY);

    private InventoryLoader() {
    }

    /**
     * Reads and checks {@code file}.
     *
     * @throws ConfigException listing every problem found
     */
    public static Inventory load(Path file) throws ConfigException {
        YamlDocument document = YamlDocument.read(file);
        SCHEMA.require(document);
        return new Reading(document, file).read();
    }

    /** One pass over a schema-valid document, collecting semantic problems. */
    private static final class Reading {
        private final YamlDocument document;
        private final Path file;
        private final List<ConfigProblem> problems = new ArrayList<>();
        /** Where each accepted switch's entry is ({@code switches[i]}), for problems found later. */
        private final Map<String, String> entryPaths = new HashMap<>();

        Reading(YamlDocument document, Path file) {
            this.document = document;
            this.file = file;
        }

        Inventory read() throws ConfigException {
            Map<String, Credentials> credentials = credentials();
            Map<String, String> seen = new HashMap<>();
            Map<String, HostPort> sites = sites(seen);
            List<SwitchEntry> switches = switches(credentials, sites, seen);
            Map<String, List<String>> groups = groups(switches);
            if (!problems.isEmpty()) {
                throw new ConfigException(problems);
            }
            return new Inventory(file, switches, groups, credentials, sites);
        }

        /** Each site's agent address; no two sites, and no site and switch, share an address. */
        private Map<String, HostPort> sites(Map<String, String> seen) {
            Map<String, HostPort> result = new LinkedHashMap<>();
            JsonNode node = document.root().path("sites");
            node.fieldNames().forEachRemaining(name -> {
                String path = FieldPaths.field("sites", name);
                HostPort service = address(node.get(name), path, "service");
                if (service != null) {
                    unique(seen, "service", service.toString(), path + ".service");
                    result.put(name, service);
                }
            });
            return result;
        }

        private Map<String, Credentials> credentials() {
            Map<String, Credentials> result = new LinkedHashMap<>();
            JsonNode node = document.root().path("credentials");
            node.fieldNames().forEachRemaining(name -> {
                Credentials parsed = credential(name, node.get(name), FieldPaths.field("credentials", name));
                if (parsed != null) {
                    result.put(name, parsed);
                }
            });
            return result;
        }

        private Credentials credential(String name, JsonNode node, String path) {
            boolean community = node.has("community");
            boolean usm = node.has("user") || node.has("auth") || node.has("priv");
            if (community && !usm) {
                return new Credentials.Community(name, secret(node.get("community")));
            }
            if (usm && !community && node.has("user") && node.has("auth") && node.has("priv")) {
                JsonNode auth = node.get("auth");
                JsonNode priv = node.get("priv");
                if (!auth.path("protocol").asText().startsWith("SHA")) {
                    problems.add(document.problem(path + ".auth.protocol", "auth needs SHA, SHA-224, SHA-256, SHA-384"
                            + " or SHA-512"));
                }
                if (!priv.path("protocol").asText().startsWith("AES")) {
                    problems.add(document.problem(path + ".priv.protocol", "priv needs AES, AES-192 or AES-256"));
                }
                return new Credentials.Usm(name, node.get("user").asText(), auth.path("protocol").asText(),
                        secret(auth.get("passphrase")), priv.path("protocol").asText(), secret(priv.get("passphrase")));
            }
            problems.add(document.problem(path, "credentials need either 'community' (SNMPv2c) or 'user', 'auth' and"
                    + " 'priv' (SNMPv3), not both and not neither"));
            return null;
        }

        private SecretRef secret(JsonNode node) {
            if (node.has("env")) {
                return new SecretRef(SecretRef.Source.ENV, node.get("env").asText());
            }
            Path path = Path.of(node.get("file").asText());
            Path base = file.toAbsolutePath().getParent();
            return new SecretRef(SecretRef.Source.FILE, (path.isAbsolute() || base == null ? path
                    : base.resolve(path).normalize()).toString());
        }

        private List<SwitchEntry> switches(Map<String, Credentials> credentials, Map<String, HostPort> sites,
                Map<String, String> seen) {
            List<SwitchEntry> result = new ArrayList<>();
            JsonNode list = document.root().path("switches");
            for (int i = 0; i < list.size(); i++) {
                String path = FieldPaths.index("switches", i);
                SwitchEntry entry = entry(list.get(i), path, sites);
                if (entry == null) {
                    continue;
                }
                unique(seen, "name", entry.name(), path + ".name");
                if (entry.site().isEmpty()) {
                    unique(seen, "service", entry.service().toString(), path + ".service");
                }
                unique(seen, "snmp", entry.snmp().toString(), path + ".snmp");
                checkCredentials(entry, credentials, path);
                entryPaths.putIfAbsent(entry.name(), path);
                result.add(entry);
            }
            return result;
        }

        private SwitchEntry entry(JsonNode node, String path, Map<String, HostPort> sites) {
            OptionalInt ports = node.has("ports") ? OptionalInt.of(node.get("ports").asInt()) : OptionalInt.empty();
            Optional<String> site = node.has("site") ? Optional.of(node.get("site").asText()) : Optional.empty();
            HostPort service = site.isPresent() ? siteService(node, path, site.get(), sites)
                    : ownService(node, path);
            HostPort snmp = address(node, path, "snmp");
            if (service == null || snmp == null) {
                return null;
            }
            return new SwitchEntry(node.get("name").asText(), service, snmp,
                    SnmpVersion.fromLabel(node.get("version").asText()), node.get("credentials").asText(), ports,
                    site);
        }

        /** A switch without a site has a service of its own ({@code serve --switch NAME}). */
        private HostPort ownService(JsonNode node, String path) {
            if (!node.has("service")) {
                problems.add(document.problem(path, "switch " + node.path("name").asText() + " needs either 'service:'"
                        + " (the host:port of its own 'waldoconf serve --switch') or 'site:' (a site under 'sites:',"
                        + " whose agent serves it)"));
                return null;
            }
            return address(node, path, "service");
        }

        /** A switch of a site is reached at its site agent's address, and has none of its own. */
        private HostPort siteService(JsonNode node, String path, String site, Map<String, HostPort> sites) {
            if (node.has("service")) {
                problems.add(document.problem(FieldPaths.field(path, "service"), "switch "
                        + node.path("name").asText() + " belongs to site '" + site + "', whose agent serves it at the"
                        + " site's address; remove its own 'service:', or its 'site:' to serve it alone"));
                return null;
            }
            HostPort service = sites.get(site);
            if (service == null && !document.root().path("sites").has(site)) {
                problems.add(document.problem(FieldPaths.field(path, "site"), "no site named '" + site + "' under"
                        + " 'sites:', where a site needs the address of its agent"
                        + Suggestions.closest(site, sites.keySet())));
            }
            return service;
        }

        private HostPort address(JsonNode node, String path, String field) {
            try {
                return HostPort.parse(node.get(field).asText());
            } catch (IllegalArgumentException e) {
                problems.add(document.problem(FieldPaths.field(path, field), e.getMessage()));
                return null;
            }
        }

        /** Records {@code value} under {@code kind}, or reports it as a repeat of an earlier switch's. */
        private void unique(Map<String, String> seen, String kind, String value, String path) {
            String earlier = seen.putIfAbsent(kind + " " + value, path);
            if (earlier != null) {
                problems.add(document.problem(path, kind + " '" + value + "' is already used at "
                        + document.locate(earlier).line() + ":" + document.locate(earlier).column() + " (" + earlier
                        + "); " + (kind.equals("service") ? "every site, and every switch served alone, needs an"
                        + " address of its own (switches that share an agent belong to one site under 'sites:')"
                        : "every switch needs its own")));
            }
        }

        private void checkCredentials(SwitchEntry entry, Map<String, Credentials> credentials, String path) {
            Credentials named = credentials.get(entry.credentials());
            if (named == null) {
                boolean defined = document.root().path("credentials").has(entry.credentials());
                if (!defined) {
                    problems.add(document.problem(path + ".credentials", "no credentials named '"
                            + entry.credentials() + "'; define them under 'credentials:' (known: "
                            + String.join(", ", credentials.keySet()) + ")"));
                }
            } else if (named.version() != entry.version()) {
                problems.add(document.problem(path + ".credentials", "switch " + entry.name() + " speaks SNMP version "
                        + entry.version().label() + " but credentials '" + named.name() + "' are for version "
                        + named.version().label() + "; name credentials with "
                        + (entry.version() == SnmpVersion.V2C ? "a community" : "user, auth and priv")));
            }
        }

        private Map<String, List<String>> groups(List<SwitchEntry> switches) {
            Map<String, List<String>> result = new LinkedHashMap<>();
            JsonNode node = document.root().path("groups");
            // Every switch the file names, also one whose entry has problems of its own (reported there).
            List<String> names = new ArrayList<>();
            document.root().path("switches").forEach(entry -> names.add(entry.path("name").asText()));
            node.fieldNames().forEachRemaining(group -> {
                String path = FieldPaths.field("groups", group);
                if (group.equals(Inventory.ALL)) {
                    problems.add(document.problem(path, "the group 'all' is built in (every switch); choose another"
                            + " name"));
                    return;
                }
                List<String> members = new ArrayList<>();
                JsonNode list = node.get(group);
                for (int i = 0; i < list.size(); i++) {
                    String member = list.get(i).asText();
                    if (!names.contains(member)) {
                        problems.add(document.problem(FieldPaths.index(path, i), "no switch named '" + member
                                + "' in this inventory" + Suggestions.closest(member, names)));
                    }
                    members.add(member);
                }
                result.put(group, members);
            });
            sites(switches, result);
            return result;
        }

        /**
         * Adds each site as a group of its switches, in file order. A site may not take the name of
         * a group under {@code groups:} (which switches would the name mean?) nor the built-in one.
         */
        private void sites(List<SwitchEntry> switches, Map<String, List<String>> groups) {
            Map<String, List<String>> sites = new LinkedHashMap<>();
            for (SwitchEntry sw : switches) {
                if (sw.site().isEmpty()) {
                    continue;
                }
                String site = sw.site().get();
                String path = FieldPaths.field(entryPaths.get(sw.name()), "site");
                if (site.equals(Inventory.ALL)) {
                    problems.add(document.problem(path, "'all' is the built-in group of every switch; name the"
                            + " site otherwise"));
                } else if (groups.containsKey(site)) {
                    problems.add(document.problem(path, "site '" + site + "' has the name of a group under"
                            + " 'groups:'; a site is a group of its own switches, so give one of them another name"));
                } else {
                    sites.computeIfAbsent(site, s -> new ArrayList<>()).add(sw.name());
                }
            }
            groups.putAll(sites);
        }
    }
}
