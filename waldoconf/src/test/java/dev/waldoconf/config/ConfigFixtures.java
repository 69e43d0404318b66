package dev.waldoconf.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes small inventory and plan files for the tests. */
final class ConfigFixtures {
    /** Three switches of 24 ports, lab-3 without a port count; groups access (1, 2) and core (3). */
    static final String INVENTORY = """
            switches:
              - name: lab-1
                service: 127.0.0.1:17101
                snmp: 127.0.0.1:16101
                version: '2c'
                credentials: lab
                ports: 24
              - name: lab-2
                service: 127.0.0.1:17102
                snmp: 127.0.0.1:16102
                version: '2c'
                credentials: lab
                ports: 24
              - name: lab-3
                service: 127.0.0.1:17103
                snmp: 127.0.0.1:16103
                version: '2c'
                credentials: lab
            groups:
              access: [lab-1, lab-2]
              core: [lab-3]
            credentials:
              lab:
                community: {env: TEST_COMMUNITY}
            """;

    private ConfigFixtures() {
    }

    static Path write(Path dir, String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    static Inventory inventory(Path dir) throws IOException, ConfigException {
        return InventoryLoader.load(write(dir, "inventory.yaml", INVENTORY));
    }
}
