package dev.waldoconf.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.model.SwitchState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Keeps configs/lab-inventory.yaml and configs/vlan.yaml valid: the README and the demo use them. */
class ShippedConfigsTest {
    private static final Path CONFIGS = Path.of("..", "configs");

    @Test
    void labInventoryAndVlanPlanAreValidAndResolveOnFactoryDefaultSwitches() throws Exception {
        assertThat(Files.isDirectory(CONFIGS)).as("tests run from waldoconf/, configs/ is beside it").isTrue();
        Inventory inventory = InventoryLoader.load(CONFIGS.resolve("lab-inventory.yaml"));
        Plan plan = PlanLoader.load(CONFIGS.resolve("vlan.yaml"), inventory);
        Map<String, SwitchState> current = new HashMap<>();
        inventory.switches().forEach(s -> current.put(s.name(), SwitchState.factoryDefault(24)));
        ResolvedPlan resolved = PlanResolver.resolve(plan, inventory, current);
        assertThat(resolved.changing()).hasSize(inventory.switches().size());
        SwitchState lab1 = resolved.switches().get(0).desired();
        assertThat(lab1.vlans().keySet()).containsExactly(1, 10, 20, 99);
        assertThat(lab1.vlans().get(10).untagged()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(lab1.vlans().get(99).tagged()).containsExactly(24);
        assertThat(lab1.pvids().get(1)).isEqualTo(10);
    }
}
