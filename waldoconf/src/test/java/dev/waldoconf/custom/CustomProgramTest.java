package dev.waldoconf.custom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.compiler.check.Symbol;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.WaldoObject;
import dev.waldo.runtime.lang.WList;
import dev.waldoconf.services.systemgroup.SystemGroup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules for custom device services, each reported as file:line:col with a caret. */
class CustomProgramTest {
    @TempDir
    Path dir;

    private Path write(String text) throws Exception {
        return Files.writeString(dir.resolve("my.wld"), text);
    }

    @Test
    void theBuiltInSystemGroupIsKnownByNameAndServesItsWritableObjects() throws Exception {
        CustomProgram program = CustomProgram.check(Path.of("system-group"));

        assertThat(program.argument()).isEqualTo("system-group");
        assertThat(program.fileName()).isEqualTo("waldoconf/services/system_group.wld");
        assertThat(program.servedService().name()).isEqualTo("SystemGroup");
        assertThat(program.snmpVariables("SystemGroup")).containsExactly(SystemGroup.LOCATION, SystemGroup.CONTACT,
                SystemGroup.SYSTEM_NAME);
        assertThat(program.callable("SystemNameChange", "match_inventory").params()).hasSize(1);
    }

    @Test
    void theBuiltInsOidsAreTheArgumentsOfItsSnmpAnnotationsTyped() {
        assertThat(List.of(SystemGroup.LOCATION, SystemGroup.CONTACT, SystemGroup.SYSTEM_NAME))
                .extracting(v -> v.annotation(CustomProgram.ANNOTATION).orElseThrow().text(CustomProgram.OID_KEY))
                .containsExactly("1.3.6.1.2.1.1.6.0", "1.3.6.1.2.1.1.4.0", "1.3.6.1.2.1.1.5.0");
        assertThat(SystemGroup.AGENT.annotations()).isEmpty();
    }

    @Test
    void theBuiltInRunsTheClassesCompiledAtBuildTime() throws Exception {
        CustomProgram program = CustomProgram.check(Path.of("system-group")).load();
        try (Host host = Host.inMemory(new InMemoryNetwork(), "h")) {
            WaldoObject coordinator = program.create("SystemGroupChange", host);

            assertThat(coordinator.getClass().getName()).isEqualTo("dev.waldoconf.services.systemgroup"
                    + ".SystemGroupChange");
            assertThat(coordinator.getClass().getClassLoader()).isSameAs(CustomProgram.class.getClassLoader());
            assertThat(program.call(coordinator, "show", new WList<>())).isEqualTo(new WList<>());
        }
    }

    @Test
    void theExampleInConfigsIsTheShippedFileItself() throws Exception {
        Path example = Path.of("..", "configs", "system_group.wld");

        assertThat(Files.isSameFile(example, Path.of("services", "system_group.wld"))).isTrue();
        assertThat(CustomProgram.check(example).servedService().name()).isEqualTo("SystemGroup");
    }

    @Test
    void neitherAFileNorABuiltInNameIsAnErrorThatListsTheBuiltIns() {
        assertThatThrownBy(() -> CustomProgram.check(dir.resolve("nope.wld"))).isInstanceOf(CustomProgramException.class)
                .hasMessageContaining(dir.resolve("nope.wld") + ": no such file, and no built-in service of that name")
                .hasMessageContaining("built-in service: system-group");
        assertThatThrownBy(() -> CustomProgram.check(Path.of("system_group"))).isInstanceOf(
                CustomProgramException.class).hasMessageContaining("system_group: no such file");
    }

    @Test
    void aCompileErrorNamesFileLineAndColumnWithACaret() throws Exception {
        Path file = write("Service S {\n    Number n;\n    Public f() {\n        n = 'text';\n    }\n}\n");

        assertThatThrownBy(() -> CustomProgram.check(file)).isInstanceOf(CustomProgramException.class)
                .hasMessageContaining(file + ":4:")
                .hasMessageContaining("        n = 'text';\n")
                .hasMessageContaining("^")
                .hasMessageEndingWith("1 error");
    }

    @Test
    void badAnnotationsAreEachReportedWhereTheyAre() throws Exception {
        Path file = write("""
                Service S {
                    @snmp(oid: 'sysLocation') Text a;
                    @snmp(table: 'x') Text b;
                    @snmp(oid: '1.3.6.1.2.1.1.4.0') List(element: Text) c;
                }
                Endpoint E {
                    @snmp(oid: '1.3.6.1.2.1.1.5.0') Text d;
                }
                """);

        assertThatThrownBy(() -> CustomProgram.check(file)).isInstanceOf(CustomProgramException.class)
                .hasMessageContaining(file + ":2:16: error: 'sysLocation' is not a valid oid for @snmp: write the"
                        + " scalar's instance OID dotted, with its trailing .0, e.g. '1.3.6.1.2.1.1.6.0'")
                .hasMessageContaining(file + ":3:11: error: @snmp has no argument 'table'; it takes oid: Text")
                .hasMessageContaining(file + ":4:57: error: @snmp variable 'c' is List(element: Text); an SNMP"
                        + " scalar is Text (OCTET STRING) or Number (Integer32)")
                .hasMessageContaining(file + ":7:5: error: @snmp variables belong in a Service; E is an Endpoint")
                .hasMessageEndingWith("4 errors");
    }

    @Test
    void aDeviceVariableNamesItsOidAndLeavesTrialToWaldoConf() throws Exception {
        Path file = write("""
                Service S {
                    @snmp(trial: 'change') Text b;
                    @snmp(oid: '1.3.6.1.2.1.1.4.0', trial: 'deadline') Number c;
                }
                """);

        assertThatThrownBy(() -> CustomProgram.check(file)).isInstanceOf(CustomProgramException.class)
                .hasMessageContaining(file + ":2:5: error: a device variable is bound with @snmp(oid: '...') and"
                        + " nothing else ('trial' is WaldoConf's own)")
                .hasMessageContaining(file + ":3:5: error: a device variable")
                .hasMessageEndingWith("2 errors");
    }

    @Test
    void serveNeedsExactlyOneServiceWithSnmpVariables() throws Exception {
        CustomProgram none = CustomProgram.check(write("Service S {\n    Text t;\n}\n"));
        assertThatThrownBy(none::servedService).hasMessageContaining(dir.resolve("my.wld") + ":1:1: error: no Service");

        CustomProgram two = CustomProgram.check(write("""
                Service A {
                    @snmp(oid: '1.3.6.1.2.1.1.6.0') Text a;
                }
                Service B {
                    @snmp(oid: '1.3.6.1.2.1.1.4.0') Text b;
                }
                """));
        assertThatThrownBy(two::servedService).hasMessageContaining(":1:9: error: several Services")
                .hasMessageContaining(":4:9: error: several Services").hasMessageContaining("(A, B)");
    }

    @Test
    void theServedOnCreateTakesNothingOrTheSwitchName() throws Exception {
        CustomProgram program = CustomProgram.check(write("""
                Service A {
                    @snmp(oid: '1.3.6.1.2.1.1.6.0') Text a;
                    onCreate(Number n) {
                    }
                }
                """));

        assertThatThrownBy(program::servedService).hasMessageContaining(":3:5: error: the served Service's onCreate");
    }

    @Test
    void callNeedsTheServicesFirstAndScalarArgumentsAfter() throws Exception {
        CustomProgram program = CustomProgram.check(write("""
                Service C {
                    Public Function good(List(element: Endpoint) all, Text t, Number n, TrueFalse b) returns Number {
                        return n;
                    }
                    Public bad(Text t, List(element: Text) l) {
                    }
                }
                """));

        Symbol.FunctionSym good = program.callable("C", "good");
        assertThat(CustomCall.arguments(good, List.of("x", "2.5", "true"))).containsExactly("x", 2.5, true);
        assertThatThrownBy(() -> CustomCall.arguments(good, List.of("x", "two", "true")))
                .hasMessageContaining("argument n is a Number; 'two' is not one");
        assertThatThrownBy(() -> CustomCall.arguments(good, List.of("x")))
                .hasMessageContaining("takes 3 argument(s) after the services (Text t, Number n, TrueFalse b), got 1");
        assertThatThrownBy(() -> program.callable("C", "bad")).hasMessageContaining(":5:12: error: 'waldoconf call'"
                + " passes the services first").hasMessageContaining(":5:44: error: 'waldoconf call' passes arguments");
        assertThatThrownBy(() -> program.callable("C", "missing")).hasMessageContaining("has no Public function"
                + " missing; its Public functions: good, bad");
        assertThatThrownBy(() -> program.callable("D", "good")).hasMessageContaining("declares no Service D;"
                + " its Services: C");
    }
}
