package dev.waldoconf.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InventoryLoaderTest {
    @TempDir
    Path dir;

    private String problemsOf(String yaml) throws Exception {
        Path file = ConfigFixtures.write(dir, "inv.yaml", yaml);
        try {
            InventoryLoader.load(file);
        } catch (ConfigException e) {
            return e.getMessage().replace(file.toString(), "inv.yaml");
        }
        throw new AssertionError("expected the inventory to be rejected");
    }

    @Test
    void readsSwitchesGroupsAndCredentials() throws Exception {
        Inventory inventory = ConfigFixtures.inventory(dir);
        assertThat(inventory.switches()).extracting(SwitchEntry::name).containsExactly("lab-1", "lab-2", "lab-3");
        SwitchEntry first = inventory.switches().get(0);
        assertThat(first.service()).isEqualTo(new HostPort("127.0.0.1", 17101));
        assertThat(first.snmp()).isEqualTo(new HostPort("127.0.0.1", 16101));
        assertThat(first.version()).isEqualTo(SnmpVersion.V2C);
        assertThat(first.portCount()).hasValue(24);
        assertThat(inventory.switches().get(2).portCount()).isEmpty();
        assertThat(inventory.groups()).containsEntry("access", java.util.List.of("lab-1", "lab-2"))
                .containsEntry(Inventory.ALL, java.util.List.of("lab-1", "lab-2", "lab-3"));
        assertThat(inventory.credentialsOf(first))
                .isEqualTo(new Credentials.Community("lab", new SecretRef(SecretRef.Source.ENV, "TEST_COMMUNITY")));
    }

    @Test
    void inlineSecretIsRejectedWithAdviceAndWithoutEchoingIt() throws Exception {
        String message = problemsOf(ConfigFixtures.INVENTORY.replace("community: {env: TEST_COMMUNITY}",
                "community: s3cret-community"));
        assertThat(message).isEqualTo("inv.yaml:24:16: credentials.lab.community: this value is an inline"
                + " secret; secrets must not be written in the inventory: use {env: VARIABLE} or"
                + " {file: /path/to/secret}");
        assertThat(message).doesNotContain("s3cret");
    }

    @Test
    void inlineSnmpV3PassphraseIsRejectedWithoutEchoingIt() throws Exception {
        String message = problemsOf(ConfigFixtures.INVENTORY.replace("community: {env: TEST_COMMUNITY}",
                "user: admin\n    auth: {protocol: SHA, passphrase: s3cret-auth-phrase}"));
        assertThat(message).contains("credentials.lab.auth.passphrase: this value is an inline secret")
                .doesNotContain("s3cret");
    }

    @Test
    void secretsAreReadFromEnvironmentOrFileAndNeverPrinted() throws Exception {
        Path secretFile = ConfigFixtures.write(dir, "community", "hunter2\n");
        Secret fromFile = new SecretRef(SecretRef.Source.FILE, secretFile.toString()).resolve(Map.of());
        Secret fromEnv = new SecretRef(SecretRef.Source.ENV, "C").resolve(Map.of("C", "hunter2"));
        assertThat(fromFile.revealString()).isEqualTo("hunter2");
        assertThat(fromEnv).isEqualTo(fromFile);
        assertThat(fromFile.toString()).doesNotContain("hunter2");
        assertThatThrownBy(() -> new SecretRef(SecretRef.Source.ENV, "UNSET_VAR").resolve(Map.of()))
                .hasMessageContaining("environment variable UNSET_VAR is not set");
    }

    @Test
    void fileSecretsAreRelativeToTheInventory() throws Exception {
        Files.createDirectories(dir.resolve("sub"));
        Path file = ConfigFixtures.write(dir.resolve("sub"), "inv.yaml",
                ConfigFixtures.INVENTORY.replace("{env: TEST_COMMUNITY}", "{file: community.txt}"));
        Inventory inventory = InventoryLoader.load(file);
        Credentials.Community community = (Credentials.Community) inventory.credentials().get("lab");
        assertThat(community.community().name()).isEqualTo(dir.resolve("sub/community.txt").toString());
    }

    @Test
    void unknownCredentialsAndGroupMembersNameTheFieldAndSuggest() throws Exception {
        String message = problemsOf(ConfigFixtures.INVENTORY.replace("credentials: lab\n    ports: 24\n  - name: lab-2",
                "credentials: lba\n    ports: 24\n  - name: lab-2").replace("core: [lab-3]", "core: [lab-33]"));
        assertThat(message).contains("inv.yaml:6:18: switches[0].credentials: no credentials named 'lba'; define"
                + " them under 'credentials:' (known: lab)");
        assertThat(message).contains("inv.yaml:21:10: groups.core[0]: no switch named 'lab-33' in this inventory;"
                + " did you mean 'lab-3'?");
    }

    @Test
    void versionMustMatchTheCredentials() throws Exception {
        String message = problemsOf(ConfigFixtures.INVENTORY.replaceFirst("version: '2c'", "version: '3'"));
        assertThat(message).isEqualTo("inv.yaml:6:18: switches[0].credentials: switch lab-1 speaks SNMP version 3"
                + " but credentials 'lab' are for version 2c; name credentials with user, auth and priv");
    }

    @Test
    void schemaErrorsNameLineColumnAndField() throws Exception {
        String message = problemsOf(ConfigFixtures.INVENTORY.replace("snmp: 127.0.0.1:16102", "snmp: 127.0.0.1")
                .replace("ports: 24\n  - name: lab-2", "ports: 24\n    colour: blue\n  - name: lab-2")
                .replaceFirst("version: '2c'", "version: 2"));
        assertThat(message.lines()).containsExactly(
                "inv.yaml:5:14: switches[0].version: 2 is not an SNMP version WaldoConf speaks; write '2c' or '3'",
                "inv.yaml:8:13: switches[0].colour: unknown field 'colour'; this mapping may have: name, service, snmp,"
                        + " version, credentials, ports, site",
                "inv.yaml:11:11: switches[1].snmp: '127.0.0.1' is not an address like 127.0.0.1:16100 or"
                        + " switch1.example.net:161 (host:port)");
    }

    @Test
    void versionThreeMayBeWrittenAsANumber() throws Exception {
        String text = ConfigFixtures.INVENTORY.replaceFirst("version: '2c'", "version: 3").replace(
                "  lab:\n    community: {env: TEST_COMMUNITY}", "  lab:\n    community: {env: TEST_COMMUNITY}\n  v3:\n"
                        + "    user: waldo\n    auth: {protocol: SHA-256, passphrase: {env: A}}\n"
                        + "    priv: {protocol: AES, passphrase: {file: priv}}").replaceFirst("credentials: lab", "credentials: v3");
        Inventory inventory = InventoryLoader.load(ConfigFixtures.write(dir, "v3.yaml", text));
        assertThat(inventory.switches().get(0).version()).isEqualTo(SnmpVersion.V3);
        assertThat(inventory.credentialsOf(inventory.switches().get(0))).isInstanceOf(Credentials.Usm.class);
    }

    @Test
    void oneDocumentPerFile() throws Exception {
        assertThat(problemsOf(ConfigFixtures.INVENTORY + "---\nswitches: []\n"))
                .isEqualTo("inv.yaml:26:1: this is a second YAML document (after a --- line); keep one document"
                        + " per file");
    }

    @Test
    void duplicateNamesAndAddressesAreRejected() throws Exception {
        String message = problemsOf(ConfigFixtures.INVENTORY.replace("name: lab-2", "name: lab-1")
                .replace("service: 127.0.0.1:17103", "service: 127.0.0.1:17101"));
        assertThat(message).contains("inv.yaml:8:11: switches[1].name: name 'lab-1' is already used at 2:11"
                + " (switches[0].name); every switch needs its own");
        assertThat(message).contains("switches[2].service: service '127.0.0.1:17101' is already used");
    }

    /**
     * The fixture with lab-1 and lab-2 in site north (its agent at 127.0.0.1:17200) and lab-3 in
     * site south (127.0.0.1:17201), or {@code sites} instead of those two lines under 'sites:'.
     */
    private static String withSites(String sites) {
        return "sites:\n" + sites + ConfigFixtures.INVENTORY
                .replace("service: 127.0.0.1:17101\n", "site: north\n")
                .replace("service: 127.0.0.1:17102\n", "site: north\n")
                .replace("service: 127.0.0.1:17103\n", "site: south\n");
    }

    private static final String TWO_SITES = "  north: {service: 127.0.0.1:17200}\n  south: {service: 127.0.0.1:17201}\n";

    @Test
    void eachSiteIsAGroupOfItsSwitchesInFileOrderServedAtItsAgentsAddress() throws Exception {
        Inventory inventory = InventoryLoader.load(ConfigFixtures.write(dir, "inv.yaml", withSites(TWO_SITES)));
        assertThat(inventory.groups()).containsEntry("north", java.util.List.of("lab-1", "lab-2"))
                .containsEntry("south", java.util.List.of("lab-3"))
                .containsEntry("access", java.util.List.of("lab-1", "lab-2"));
        assertThat(inventory.switches().get(0).site()).hasValue("north");
        assertThat(inventory.switches()).extracting(entry -> entry.service().toString())
                .containsExactly("127.0.0.1:17200", "127.0.0.1:17200", "127.0.0.1:17201");
        assertThat(inventory.switchesOfSite("north")).extracting(SwitchEntry::name).containsExactly("lab-1", "lab-2");
        assertThat(inventory.sites()).containsOnlyKeys("north", "south");
        assertThat(ConfigFixtures.inventory(dir).switches().get(0).site()).as("no site given").isEmpty();
    }

    @Test
    void aSiteMayNotTakeTheNameOfAGroupOrOfAll() throws Exception {
        String message = problemsOf(withSites("  core: {service: 127.0.0.1:17200}\n  all: {service: 127.0.0.1:17201}\n")
                .replace("site: north", "site: core").replace("site: south", "site: all"));
        assertThat(message).contains("inv.yaml:6:11: switches[0].site: site 'core' has the name of a group under"
                + " 'groups:'");
        assertThat(message).contains("inv.yaml:18:11: switches[2].site: 'all' is the built-in group of every switch");
    }

    @Test
    void aSwitchHasAServiceOfItsOwnOrASiteButNotBoth() throws Exception {
        String neither = problemsOf(ConfigFixtures.INVENTORY.replace("    service: 127.0.0.1:17101\n", ""));
        assertThat(neither).isEqualTo("inv.yaml:2:5: switches[0]: switch lab-1 needs either 'service:' (the host:port"
                + " of its own 'waldoconf serve --switch') or 'site:' (a site under 'sites:', whose agent serves it)");
        String both = problemsOf(withSites(TWO_SITES).replace("site: south\n",
                "site: south\n    service: 127.0.0.1:17103\n"));
        assertThat(both).isEqualTo("inv.yaml:19:14: switches[2].service: switch lab-3 belongs to site 'south', whose"
                + " agent serves it at the site's address; remove its own 'service:', or its 'site:' to serve it alone");
    }

    @Test
    void aSiteMustBeListedUnderSitesWithItsAgentsAddress() throws Exception {
        String message = problemsOf(withSites(TWO_SITES).replace("site: south", "site: sooth"));
        assertThat(message).isEqualTo("inv.yaml:18:11: switches[2].site: no site named 'sooth' under 'sites:', where a"
                + " site needs the address of its agent; did you mean 'south'?");
    }

    @Test
    void noTwoSitesAndNoSiteAndSwitchShareAnAddress() throws Exception {
        String message = problemsOf(withSites("  north: {service: 127.0.0.1:17200}\n  south: {service: 127.0.0.1:17200}\n")
                .replace("site: south\n", "service: 127.0.0.1:17200\n"));
        assertThat(message).contains("inv.yaml:3:20: sites.south.service: service '127.0.0.1:17200' is already used"
                + " at 2:20 (sites.north.service); every site, and every switch served alone, needs an address of its"
                + " own (switches that share an agent belong to one site under 'sites:')");
        assertThat(message).contains("switches[2].service: service '127.0.0.1:17200' is already used at 2:20");
    }

    @Test
    void missingFileAndBrokenYamlAreReportedAsProblems() throws Exception {
        assertThatThrownBy(() -> InventoryLoader.load(dir.resolve("nope.yaml")))
                .hasMessageContaining("nope.yaml:1:1: no such file");
        assertThat(problemsOf("switches:\n  - name: [unclosed\n")).isEqualTo("inv.yaml:2:20: not valid YAML: while parsing"
                + " a flow sequence; expected ',' or ']', but got <stream end>");
        assertThat(problemsOf("switches: []\n")).isEqualTo("inv.yaml:1:11: switches: needs at least 1 entry");
        assertThat(problemsOf("")).isEqualTo("inv.yaml:1:1: the file is empty; see configs/ for an example");
    }

    @Test
    void toStringShowsNoSecrets() throws Exception {
        Inventory inventory = ConfigFixtures.inventory(dir);
        assertThat(inventory.toString()).contains("3 switches").doesNotContain("TEST_COMMUNITY=");
    }
}
