package dev.waldoconf.cli;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * An inventory of lab switches each served alone ({@code waldoconf serve --switch NAME} at its own
 * {@code service:} port), for tests that run one service process per switch so that they can kill
 * one; {@code lab up} itself serves its switches through one site agent ({@link LabRunner}).
 */
final class StandaloneInventory {
    private StandaloneInventory() {
    }

    /**
     * The inventory of {@code switches}, switch {@code i}'s service at 127.0.0.1:{@code
     * servicePorts.get(i)}, with the lab's group {@code access} of every switch (configs/vlan.yaml uses it).
     */
    static String yaml(List<LabSwitch> switches, List<Integer> servicePorts) {
        if (servicePorts.size() != switches.size()) {
            throw new IllegalArgumentException(switches.size() + " switches need as many service ports, got "
                    + servicePorts.size());
        }
        StringBuilder yaml = new StringBuilder("switches:\n");
        for (int i = 0; i < switches.size(); i++) {
            LabSwitch sw = switches.get(i);
            InetSocketAddress snmp = sw.snmp();
            yaml.append("  - name: ").append(sw.name()).append('\n')
                    .append("    service: 127.0.0.1:").append(servicePorts.get(i)).append('\n')
                    .append("    snmp: ").append(snmp.getAddress().getHostAddress()).append(':').append(snmp.getPort())
                    .append('\n')
                    .append("    version: '2c'\n")
                    .append("    credentials: lab\n")
                    .append("    ports: ").append(sw.ports()).append('\n');
        }
        yaml.append("groups:\n  access: [")
                .append(String.join(", ", switches.stream().map(LabSwitch::name).toList())).append("]\n");
        return yaml.append("credentials:\n  lab:\n    community: {file: community}\n").toString();
    }
}
