package dev.waldoconf.lab.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.lab.model.Change;
import dev.waldoconf.lab.model.SnmpError;
import java.util.List;
import org.junit.jupiter.api.Test;

class ControlCommandsTest {
    private final Faults faults = new Faults();
    private final ControlCommands commands = new ControlCommands(faults, () -> "vlans=1");

    @Test
    void everyFaultIsOffByDefault() {
        assertThat(commands.execute("faults")).isEqualTo("ok refuse=none delay=0 drop=off exit-after=off");
    }

    @Test
    void refuseTakesAVlanListAndAnErrorStatus() {
        assertThat(commands.execute("refuse 10,20-22 commitFailed"))
                .startsWith("ok refuse=10,20,21,22:commitFailed");
        List<Change> changes = List.of(new Change.SetPvid(1, 5), new Change.SetRowStatus(21, 4));
        assertThat(faults.refusedChange(changes, SnmpError.COMMIT_FAILED)).hasValue(1);
        assertThat(faults.refusedChange(changes, SnmpError.INCONSISTENT_VALUE)).isEmpty();
        assertThat(commands.execute("refuse off")).startsWith("ok refuse=none");
    }

    @Test
    void refuseOnlyAcceptsTheTwoRefusalStatuses() {
        assertThat(commands.execute("refuse 10 wrongType")).startsWith("error a refusal answers");
        assertThat(commands.execute("refuse 10 bogus")).startsWith("error unknown SNMP error status");
        assertThat(commands.execute("refuse 0-5 commitFailed")).startsWith("error bad VLAN list");
    }

    @Test
    void delayDropAndExitAfterAreSetAndCleared() {
        commands.execute("delay 250");
        commands.execute("drop set");
        commands.execute("exit-after 3");
        assertThat(commands.execute("faults")).isEqualTo("ok refuse=none delay=250 drop=set exit-after=3(answered 0)");
        assertThat(faults.dropsResponse(true)).isTrue();
        assertThat(faults.dropsResponse(false)).isFalse();
        assertThat(faults.countSetAndCheckExit()).isFalse();
        assertThat(faults.countSetAndCheckExit()).isFalse();
        assertThat(faults.countSetAndCheckExit()).isTrue();
        assertThat(commands.execute("clear")).isEqualTo("ok refuse=none delay=0 drop=off exit-after=off");
    }

    @Test
    void badInputIsAnsweredWithAnErrorLineThatSaysWhatToDo() {
        assertThat(commands.execute("delay")).isEqualTo("error missing argument; usage: delay <ms>");
        assertThat(commands.execute("delay -5")).startsWith("error delay must be 0 or more");
        assertThat(commands.execute("drop sometimes")).startsWith("error");
        assertThat(commands.execute("reboot")).startsWith("error unknown command 'reboot'; commands:");
        assertThat(commands.execute("state")).isEqualTo("ok vlans=1");
    }
}
