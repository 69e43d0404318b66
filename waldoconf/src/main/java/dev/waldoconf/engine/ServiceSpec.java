package dev.waldoconf.engine;

import dev.waldo.net.NetNode;
import dev.waldoconf.config.Inventory;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What one {@code waldoconf serve} runs for one switch.
 *
 * @param inventory the inventory that names the switch, its service address and SNMP credentials
 * @param switchName the switch this service owns
 * @param stateDir where the service keeps its durable journal (pre-images, trial deadlines)
 * @param customService an operator's own Waldo device service ({@code --service my.wld}) instead of the
 *     shipped Q-BRIDGE one
 * @param agentNode the node of the site agent that runs this service with the other switches of its
 *     site, listening at the site's address; empty for a switch served alone, on a node of its own
 */
public record ServiceSpec(Inventory inventory, String switchName, Path stateDir, Optional<Path> customService,
                          Optional<NetNode> agentNode) {
    /** A switch served alone, on a node of its own. */
    public ServiceSpec(Inventory inventory, String switchName, Path stateDir, Optional<Path> customService) {
        this(inventory, switchName, stateDir, customService, Optional.empty());
    }
}
