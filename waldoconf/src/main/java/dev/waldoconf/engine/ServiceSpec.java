package dev.waldoconf.engine;

import dev.waldoconf.config.Inventory;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What one {@code waldoconf serve} runs.
 *
 * @param inventory the inventory that names the switch, its service address and SNMP credentials
 * @param switchName the switch this service owns
 * @param stateDir where the service keeps its durable journal (pre-images, trial deadlines)
 * @param customService an operator's own Waldo device service ({@code --service my.wld}) instead of the
 *     shipped Q-BRIDGE one
 */
public record ServiceSpec(Inventory inventory, String switchName, Path stateDir, Optional<Path> customService) {
}
