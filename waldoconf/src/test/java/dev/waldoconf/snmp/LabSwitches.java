package dev.waldoconf.snmp;

import dev.waldoconf.lab.SimulatedSwitch;
import dev.waldoconf.lab.SwitchConfig;
import dev.waldoconf.lab.UsmUserSpec;
import dev.waldoconf.lab.model.QuirkProfile;
import dev.waldoconf.lab.model.VlanRow;
import dev.waldoconf.model.SwitchState;
import dev.waldoconf.model.Vlan;
import java.io.IOException;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Embedded lab switches for the driver's tests, and what they hold in WaldoConf's model. */
final class LabSwitches {
    /**
     * The timeout where an answer is expected: generous, because the lab shares a busy machine
     * and a test must not fail on a slow answer.
     */
    static final int TIMEOUT_MS = 2000;
    /** The timeout where no answer is the point of the test, so waiting long gains nothing. */
    static final int SHORT_TIMEOUT_MS = 300;

    private LabSwitches() {
    }

    /** Starts a 24-port switch with this quirk profile, without a control port (faults are set directly). */
    static SimulatedSwitch start(QuirkProfile profile) throws IOException {
        return SimulatedSwitch.start(SwitchConfig.named("sw-" + profile.label()).withQuirks(profile)
                .withControlPort(-1));
    }

    /** A change to a factory-default 24-port lab switch: VLANs 10 'users' and 20 'voice', tagged on the top ports. */
    static SwitchState twoNewVlans() {
        return SwitchState.factoryDefault(24)
                .with(new Vlan(10, "users", new TreeSet<>(Set.of(23, 24)), new TreeSet<>()))
                .with(new Vlan(20, "voice", new TreeSet<>(Set.of(22, 23, 24)), new TreeSet<>()));
    }

    /** The lab's write community over v2c. */
    static SnmpTarget v2c(SimulatedSwitch sw) {
        return new SnmpTarget(sw.snmpAddress(), new SnmpCredentials.Community(sw.config().writeCommunity()),
                TIMEOUT_MS, 1);
    }

    /** A lab USM user over v3 authPriv. */
    static SnmpTarget v3(SimulatedSwitch sw, UsmUserSpec user) {
        return new SnmpTarget(sw.snmpAddress(), usm(user), TIMEOUT_MS, 1);
    }

    /** The driver's credentials for a lab user. */
    static SnmpCredentials.Usm usm(UsmUserSpec user) {
        return new SnmpCredentials.Usm(user.name(), SnmpCredentials.Auth.fromLabel(user.auth().label()),
                user.authPassphrase(), SnmpCredentials.Priv.fromLabel(user.priv().label()), user.privPassphrase());
    }

    /** What the switch holds, taken from the simulation itself rather than over SNMP. */
    static SwitchState holds(SimulatedSwitch sw) {
        dev.waldoconf.lab.model.SwitchState lab = sw.state();
        TreeMap<Integer, Vlan> vlans = new TreeMap<>();
        for (VlanRow row : lab.vlans().values()) {
            SortedSet<Integer> untagged = portsOf(row.untagged());
            SortedSet<Integer> tagged = portsOf(row.egress());
            tagged.removeAll(untagged);
            vlans.put(row.vlanId(), new Vlan(row.vlanId(), row.name(), tagged, untagged));
        }
        TreeMap<Integer, Integer> pvids = new TreeMap<>();
        for (int port = 1; port <= lab.portCount(); port++) {
            pvids.put(port, lab.pvid(port));
        }
        return new SwitchState(vlans, pvids);
    }

    private static SortedSet<Integer> portsOf(dev.waldoconf.lab.model.PortSet set) {
        return set.stream().boxed().collect(Collectors.toCollection(TreeSet::new));
    }
}
