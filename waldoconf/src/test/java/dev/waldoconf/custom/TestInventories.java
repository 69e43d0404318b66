package dev.waldoconf.custom;

import dev.waldoconf.config.Inventory;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.service.OperatorSession;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Inventories for the custom-service tests: agents on loopback, each with a fresh service port
 * and the write community, or the read-only one for the agent named so; both communities come
 * from secret files, as an operator's would.
 */
public final class TestInventories {
    private TestInventories() {
    }

    /**
     * Writes and loads an inventory in a new folder under {@code dir}.
     *
     * @param agents inventory name to the agent's SNMP address, in inventory order
     * @param readOnly the agent that gets {@code readCommunity} ("" for none)
     */
    public static Inventory write(Path dir, Map<String, InetSocketAddress> agents, String readOnly, String writeCommunity,
            String readCommunity) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("inventory-" + System.nanoTime()));
        Files.writeString(folder.resolve("rw"), writeCommunity + "\n");
        Files.writeString(folder.resolve("ro"), readCommunity + "\n");
        StringBuilder yaml = new StringBuilder("switches:\n");
        agents.forEach((name, snmp) -> yaml.append("  - {name: ").append(name)
                .append(", service: 127.0.0.1:").append(freeTcpPort())
                .append(", snmp: 127.0.0.1:").append(snmp.getPort())
                .append(", version: '2c', credentials: ").append(name.equals(readOnly) ? "ro" : "rw").append("}\n"));
        yaml.append("credentials:\n")
                .append("  rw: {community: {file: ").append(folder.resolve("rw")).append("}}\n")
                .append("  ro: {community: {file: ").append(folder.resolve("ro")).append("}}\n");
        return InventoryLoader.load(Files.writeString(folder.resolve("inventory.yaml"), yaml.toString()));
    }

    /** Where each switch's service listens, by name, as {@code waldoconf call} finds them. */
    static Map<String, OperatorSession.Service> services(Inventory inventory) {
        return OperatorSession.servicesOf(inventory.switches());
    }

    private static int freeTcpPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
