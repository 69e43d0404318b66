package dev.waldoconf.product;

import dev.waldo.net.NetConfig;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.service.ChangeRunner;
import dev.waldoconf.service.OperatorOnSwitches;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's {@code waldoconf apply --trial}, as a process for the crash tests: applies
 * {@link Fleet#changed} to what each service intends. Arguments: operator state directory, trial
 * seconds, then {@code NAME=PORT} per service on 127.0.0.1 (or {@code NAME=HOST:PORT}, e.g. through a proxy). Prints {@code applying CHANGE} before
 * the transaction and {@code applied CHANGE} or {@code failed: ...} after it.
 */
public final class ApplyMain {
    private ApplyMain() {
    }

    public static void main(String[] args) {
        Map<String, InetSocketAddress> services = new LinkedHashMap<>();
        for (int i = 2; i < args.length; i++) {
            String[] nameAndAddress = args[i].split("=", 2);
            String[] hostAndPort = nameAndAddress[1].contains(":") ? nameAndAddress[1].split(":", 2)
                    : new String[] {"127.0.0.1", nameAndAddress[1]};
            services.put(nameAndAddress[0], new InetSocketAddress(hostAndPort[0], Integer.parseInt(hostAndPort[1])));
        }
        try (OperatorOnSwitches session = OperatorOnSwitches.connect(services,
                NetConfig.defaults("operator", Path.of(args[0])), Clock.systemUTC())) {
            ChangeRunner runner = session.runner();
            List<SwitchState> desired = session.targets().stream().map(t -> Fleet.changed(runner.intended(t))).toList();
            String change = runner.newChangeId();
            System.out.println("applying " + change);
            System.out.flush();
            runner.apply(change, session.targets(), desired, Optional.of(Duration.ofSeconds(Long.parseLong(args[1]))));
            System.out.println("applied " + change);
        } catch (RuntimeException e) {
            System.out.println("failed: " + e);
            System.out.flush();
            System.exit(1);
        }
        System.out.flush();
        System.exit(0);
    }
}
