package dev.waldoconf.config;

import java.util.List;

/**
 * Which switches a plan entry applies to: one switch by name, or every switch of a group
 * (including the built-in group {@code all}).
 *
 * @param kind switch or group
 * @param name the switch's or group's name
 */
public record Target(Kind kind, String name) {
    /** Whether the target is one switch or a group. */
    public enum Kind {
        /** One switch, {@code switch: lab-1}. */
        SWITCH,
        /** A group of switches, {@code group: access}. */
        GROUP
    }

    /** The names of the switches this target covers in {@code inventory}. */
    public List<String> switchNames(Inventory inventory) {
        return kind == Kind.SWITCH ? List.of(name) : inventory.groups().getOrDefault(name, List.of());
    }

    /** Whether this target covers the switch named {@code switchName}. */
    public boolean covers(Inventory inventory, String switchName) {
        return switchNames(inventory).contains(switchName);
    }

    @Override
    public String toString() {
        return (kind == Kind.SWITCH ? "switch " : "group ") + name;
    }
}
