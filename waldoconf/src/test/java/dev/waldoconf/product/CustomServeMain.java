package dev.waldoconf.product;

import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.engine.RunningService;
import dev.waldoconf.engine.ServiceSpec;
import dev.waldoconf.service.SwitchServer;
import dev.waldoconf.service.WaldoConfEngine;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

/**
 * What {@code waldoconf serve --service SERVICE --switch NAME -i INVENTORY --state-dir DIR} runs,
 * as a process for the crash tests. Arguments: inventory file, switch name, state directory,
 * service (a built-in name or a .wld). Prints {@code serving NAME at PORT} once it listens, then
 * runs until killed.
 */
public final class CustomServeMain {
    private CustomServeMain() {
    }

    public static void main(String[] args) throws Exception {
        String name = args[1];
        WaldoConfEngine engine = new WaldoConfEngine((entry, credentials) -> {
            throw new DeviceException("the custom path opens no VLAN device", true);
        }, Path.of(args[2], "operator"), Clock.systemUTC());
        RunningService service = engine.startService(new ServiceSpec(InventoryLoader.load(Path.of(args[0])), name,
                Path.of(args[2]), Optional.of(Path.of(args[3]))));
        System.out.println("serving " + name + " at " + ((SwitchServer) service).address().getPort());
        System.out.flush();
        service.awaitTermination();
    }
}
