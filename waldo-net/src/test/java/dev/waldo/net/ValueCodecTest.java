package dev.waldo.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.net.wire.Value;
import dev.waldo.net.wire.ValueMap;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.lang.WMap;
import dev.waldo.runtime.lang.WStruct;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValueCodecTest {
    /** Stands in for a generated struct class. */
    static final class Port implements WStruct {
        private final Map<String, Object> fields = new LinkedHashMap<>(Map.of("vlan", 1.0, "name", ""));

        @Override
        public WStruct copy() {
            Port copy = new Port();
            copy.fields.putAll(fields);
            return copy;
        }

        @Override
        public String structName() {
            return "Port";
        }

        @Override
        public List<String> fieldNames() {
            return List.copyOf(fields.keySet());
        }

        @Override
        public Object field(String name) {
            return fields.get(name);
        }

        @Override
        public void setField(String name, Object value) {
            fields.put(name, value);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Port port && port.fields.equals(fields);
        }

        @Override
        public int hashCode() {
            return fields.hashCode();
        }
    }

    private final ValueCodec codec = new ValueCodec(name -> name.equals("Port") ? new Port() : null);

    private Object roundTrip(Object value) {
        return codec.decode(codec.encode(value));
    }

    @Test
    void everyKindOfValueSurvivesTheWire() {
        Port port = new Port();
        port.setField("vlan", 42.0);
        WMap<Object, Object> map = new WMap<>();
        map.put("b", 2.5);
        map.put(1.0, WList.of(true, null));
        map.put(false, new EndpointRef("switch-1", 7));
        for (Object value : List.of(3.0, -0.5, 1e300, Double.NaN, "vlan 10", true, WList.of(1.0, "x"), map, port,
                new EndpointRef("h", 99))) {
            assertThat(roundTrip(value)).isEqualTo(value);
        }
        assertThat(roundTrip(null)).isNull();
    }

    @Test
    void mapKeepsInsertionOrder() {
        WMap<Object, Object> map = new WMap<>();
        map.put("z", 1.0);
        map.put("a", 2.0);
        assertThat(List.<Object>copyOf(((WMap<?, ?>) roundTrip(map)).keySet())).containsExactly("z", "a");
    }

    @Test
    void wholeNumbersTravelAsSmallVarints() {
        assertThat(codec.encode(5.0).getSerializedSize()).isEqualTo(2);
        assertThat(codec.encode(5.5).getSerializedSize()).isEqualTo(9);
    }

    @Test
    void negativeZeroKeepsItsSign() {
        Object back = roundTrip(-0.0);
        assertThat(Double.doubleToRawLongBits((Double) back)).isEqualTo(Double.doubleToRawLongBits(-0.0));
    }

    @Test
    void unknownStructIsAProtocolViolation() {
        Value wire = Value.newBuilder().setStruct(dev.waldo.net.wire.StructValue.newBuilder().setName("Nope")).build();
        assertThatThrownBy(() -> codec.decode(wire)).isInstanceOf(ProtocolViolationException.class)
                .hasMessageContaining("unknown struct 'Nope'");
    }

    @Test
    void structFieldThatDoesNotExistIsAProtocolViolation() {
        Value wire = Value.newBuilder().setStruct(dev.waldo.net.wire.StructValue.newBuilder().setName("Port")
                .addFields("speed").addValues(codec.encode(1.0))).build();
        assertThatThrownBy(() -> codec.decode(wire)).hasMessageContaining("no field 'speed'");
    }

    @Test
    void mapWithListKeyOrUnpairedKeysIsAProtocolViolation() {
        Value listKey = Value.newBuilder().setMap(ValueMap.newBuilder().addKeys(codec.encode(WList.of()))
                .addValues(codec.encode(1.0))).build();
        assertThatThrownBy(() -> codec.decode(listKey)).isInstanceOf(ProtocolViolationException.class);
        Value unpaired = Value.newBuilder().setMap(ValueMap.newBuilder().addKeys(codec.encode("k"))).build();
        assertThatThrownBy(() -> codec.decode(unpaired)).hasMessageContaining("1 keys but 0 values");
    }
}
