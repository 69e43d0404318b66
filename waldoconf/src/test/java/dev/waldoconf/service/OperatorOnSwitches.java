package dev.waldoconf.service;

import dev.waldo.net.NetConfig;
import dev.waldoconf.engine.ProgressListener;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * For tests that drive switch services directly: an {@link OperatorSession} connected to every
 * one of them, with a {@link ChangeRunner} on its host and the services as targets, as the engine
 * sets them up.
 */
public record OperatorOnSwitches(OperatorSession session, ChangeRunner runner, List<ChangeRunner.Target> targets)
        implements AutoCloseable {
    /**
     * Connects to the services at {@code services} (switch name to address), each served alone on a
     * node of its own.
     *
     * @throws dev.waldo.runtime.NetworkException naming every service that cannot be reached
     */
    public static OperatorOnSwitches connect(Map<String, InetSocketAddress> services, NetConfig config, Clock clock) {
        Map<String, OperatorSession.Service> alone = new java.util.LinkedHashMap<>();
        services.forEach((name, address) -> alone.put(name, OperatorSession.Service.alone(address)));
        OperatorSession session = OperatorSession.open(config, ChangeRunner.SERVICE, alone, ProgressListener.NONE)
                .requireAll();
        return new OperatorOnSwitches(session, new ChangeRunner(session.host(), clock), ChangeRunner.targets(session));
    }

    @Override
    public void close() {
        session.close();
    }
}
