package dev.waldoconf.cli;

import dev.waldoconf.WaldoConf;
import dev.waldoconf.config.DeviceFactory;
import dev.waldoconf.device.DeviceException;
import dev.waldoconf.device.MemoryVlanDevice;
import dev.waldoconf.engine.ChangeEngine;
import dev.waldoconf.engine.EngineOptions;
import dev.waldoconf.model.SwitchState;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;

/**
 * Runs {@code waldoconf} in-process the way tests need: switches in memory, a fake
 * engine, a scripted terminal, and a lab launcher that starts the lab in this JVM.
 */
final class CliHarness implements AutoCloseable {
    /** Three 24-port switches: lab-1 and lab-2 in group access, all speaking v2c with an env community. */
    static final String INVENTORY = """
            switches:
              - {name: lab-1, service: 127.0.0.1:17101, snmp: 127.0.0.1:16101, version: '2c', credentials: lab, ports: 24}
              - {name: lab-2, service: 127.0.0.1:17102, snmp: 127.0.0.1:16102, version: '2c', credentials: lab, ports: 24}
              - {name: lab-3, service: 127.0.0.1:17103, snmp: 127.0.0.1:16103, version: '2c', credentials: lab, ports: 24}
            groups:
              access: [lab-1, lab-2]
            credentials:
              lab:
                community: {env: TEST_COMMUNITY}
            """;

    /** What one run printed and returned. */
    record Result(int exitCode, String out, String err) {
    }

    final Map<String, SwitchState> states = new HashMap<>();
    final Set<String> unreachable = new HashSet<>();
    final Deque<String> answers = new ArrayDeque<>();
    final List<String> prompts = new ArrayList<>();
    final List<LabRunner> labs = new ArrayList<>();
    boolean interactive;
    /** Whether standard output counts as a terminal (progress as a bar); a pipe by default. */
    boolean outputTerminal;
    /** The engine behind WaldoConf: a fake by default (its services do nothing); tests may swap it. */
    ChangeEngine engine = new FakeEngine();
    /** How many times a switch was opened to be read (for a preview, or by the fake engine's apply). */
    final java.util.concurrent.atomic.AtomicInteger switchReads = new java.util.concurrent.atomic.AtomicInteger();
    /** The options each command asked for its engine with, in order. */
    final List<EngineOptions> engineOptions = new ArrayList<>();
    /** The environment the commands see; tests may add to it (e.g. the docker command). */
    final Map<String, String> environment = new HashMap<>(Map.of("TEST_COMMUNITY", "private"));

    private final Path dir;

    CliHarness(Path dir) {
        this.dir = dir;
    }

    /** Writes {@code text} to {@code name} in the test folder. */
    Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    /** Runs waldoconf with {@code args}. */
    Result run(String... args) {
        return run(context(), args);
    }

    /** Runs waldoconf with {@code args} in {@code context} (e.g. {@link CliContext#system()}), capturing its output. */
    static Result run(CliContext context, String... args) {
        CommandLine commandLine = WaldoconfCommand.newCommandLine(context);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Result(exitCode, out.toString(), err.toString());
    }

    private CliContext context() {
        if (engine instanceof FakeEngine fake) {
            fake.reads = devices();
        }
        return new CliContext(options -> {
            engineOptions.add(options);
            return WaldoConf.of(devices(), engine, options);
        }, environment, terminal(), (labDir, spec) -> labs.add(startLab(labDir, spec)));
    }

    private LabRunner startLab(Path labDir, LabSpec spec) throws IOException {
        try {
            return LabRunner.start(new LabDirectory(labDir), spec, WaldoConf.of(devices(), engine, EngineOptions.DEFAULTS),
                    Docker.from(environment));
        } catch (dev.waldoconf.config.ConfigException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private DeviceFactory devices() {
        return (entry, credentials) -> {
            if (unreachable.contains(entry.name())) {
                throw new DeviceException(entry.name() + ": no answer from " + entry.snmp() + " within 2000 ms", true);
            }
            switchReads.incrementAndGet();
            return new MemoryVlanDevice(entry.name(), 24,
                    states.getOrDefault(entry.name(), SwitchState.factoryDefault(24)));
        };
    }

    private Terminal terminal() {
        return new Terminal() {
            @Override
            public boolean isInteractive() {
                return interactive;
            }

            @Override
            public boolean outputIsTerminal() {
                return outputTerminal;
            }

            @Override
            public String readLine(String prompt) {
                prompts.add(prompt);
                return answers.poll();
            }
        };
    }

    @Override
    public void close() {
        labs.forEach(LabRunner::close);
    }
}
