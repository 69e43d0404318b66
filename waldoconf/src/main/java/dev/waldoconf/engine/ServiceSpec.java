package dev.waldoconf.engine;

import dev.waldo.net.NetLoops;
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
 * @param sharedLoops the I/O threads of the site agent that runs this service with others; empty for a
 *     service with a thread of its own
 */
public record ServiceSpec(Inventory inventory, String switchName, Path stateDir, Optional<Path> customService,
                          Optional<NetLoops> sharedLoops) {
    /** A service with an I/O thread of its own. */
    public ServiceSpec(Inventory inventory, String switchName, Path stateDir, Optional<Path> customService) {
        this(inventory, switchName, stateDir, customService, Optional.empty());
    }
}
