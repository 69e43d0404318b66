package dev.waldo.net;

import dev.waldo.net.wire.EndpointValue;
import dev.waldo.net.wire.StructValue;
import dev.waldo.net.wire.Value;
import dev.waldo.net.wire.ValueList;
import dev.waldo.net.wire.ValueMap;
import dev.waldo.runtime.EndpointRef;
import dev.waldo.runtime.lang.WList;
import dev.waldo.runtime.lang.WMap;
import dev.waldo.runtime.lang.WStruct;
import java.util.List;
import java.util.Map;

/**
 * Converts Waldo values to and from their wire form. Numbers that are whole
 * travel as zigzag varints (one byte for small counters and indexes) and the
 * rest as doubles, so no Number loses precision. Decoding treats the bytes as
 * hostile: anything that is no Waldo value is a {@link ProtocolViolationException}.
 */
public final class ValueCodec {
    /** Whole numbers up to 2^53 convert to long and back without loss. */
    private static final double EXACT_LONG_LIMIT = 9_007_199_254_740_992.0;
    private final StructResolver structs;

    /** A codec that makes struct values with {@code structs}. */
    public ValueCodec(StructResolver structs) {
        this.structs = structs;
    }

    /** The wire form of {@code value} (null is Nothing). */
    public Value encode(Object value) {
        Value.Builder wire = Value.newBuilder();
        switch (value) {
            case null -> { }
            case Double number -> encodeNumber(number, wire);
            case String text -> wire.setText(text);
            case Boolean truth -> wire.setTruth(truth);
            case WList<?> list -> wire.setList(encodeList(list));
            case WMap<?, ?> map -> wire.setMap(encodeMap(map));
            case WStruct struct -> wire.setStruct(encodeStruct(struct));
            case EndpointRef ref -> wire.setEndpoint(EndpointValue.newBuilder().setHost(ref.host())
                    .setObject(ref.object()));
            default -> throw new IllegalArgumentException("not a Waldo value: " + value.getClass().getName());
        }
        return wire.build();
    }

    private static void encodeNumber(double number, Value.Builder wire) {
        boolean whole = number == Math.rint(number) && Math.abs(number) <= EXACT_LONG_LIMIT
                && !(number == 0 && Double.doubleToRawLongBits(number) != 0);
        if (whole) {
            wire.setInteger((long) number);
        } else {
            wire.setNumber(number);
        }
    }

    private ValueList encodeList(List<?> list) {
        ValueList.Builder wire = ValueList.newBuilder();
        for (Object element : list) {
            wire.addElements(encode(element));
        }
        return wire.build();
    }

    private ValueMap encodeMap(Map<?, ?> map) {
        ValueMap.Builder wire = ValueMap.newBuilder();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            wire.addKeys(encode(entry.getKey())).addValues(encode(entry.getValue()));
        }
        return wire.build();
    }

    private StructValue encodeStruct(WStruct struct) {
        StructValue.Builder wire = StructValue.newBuilder().setName(struct.structName());
        for (String field : struct.fieldNames()) {
            wire.addFields(field).addValues(encode(struct.field(field)));
        }
        return wire.build();
    }

    /**
     * The Waldo value of {@code wire}.
     *
     * @throws ProtocolViolationException if it is no valid Waldo value
     */
    public Object decode(Value wire) {
        return switch (wire.getKindCase()) {
            case KIND_NOT_SET -> null;
            case INTEGER -> (double) wire.getInteger();
            case NUMBER -> wire.getNumber();
            case TEXT -> wire.getText();
            case TRUTH -> wire.getTruth();
            case LIST -> decodeList(wire.getList());
            case MAP -> decodeMap(wire.getMap());
            case STRUCT -> decodeStruct(wire.getStruct());
            case ENDPOINT -> new EndpointRef(wire.getEndpoint().getHost(), wire.getEndpoint().getObject());
        };
    }

    private WList<Object> decodeList(ValueList wire) {
        WList<Object> list = new WList<>();
        for (Value element : wire.getElementsList()) {
            list.add(decode(element));
        }
        return list;
    }

    private WMap<Object, Object> decodeMap(ValueMap wire) {
        if (wire.getKeysCount() != wire.getValuesCount()) {
            throw new ProtocolViolationException("map value has " + wire.getKeysCount() + " keys but "
                    + wire.getValuesCount() + " values");
        }
        WMap<Object, Object> map = new WMap<>();
        for (int i = 0; i < wire.getKeysCount(); i++) {
            Object key = decode(wire.getKeys(i));
            if (!(key instanceof Double || key instanceof String || key instanceof Boolean)) {
                throw new ProtocolViolationException("map key must be Number, Text or TrueFalse, got "
                        + wire.getKeys(i).getKindCase());
            }
            map.put(key, decode(wire.getValues(i)));
        }
        return map;
    }

    private WStruct decodeStruct(StructValue wire) {
        WStruct struct = structs.create(wire.getName());
        if (struct == null) {
            throw new ProtocolViolationException("peer sent a value of unknown struct '" + wire.getName() + "'");
        }
        if (wire.getFieldsCount() != wire.getValuesCount()) {
            throw new ProtocolViolationException("struct '" + wire.getName() + "' has " + wire.getFieldsCount()
                    + " field names but " + wire.getValuesCount() + " values");
        }
        for (int i = 0; i < wire.getFieldsCount(); i++) {
            String field = wire.getFields(i);
            if (!struct.fieldNames().contains(field)) {
                throw new ProtocolViolationException("struct '" + wire.getName() + "' has no field '" + field + "'");
            }
            struct.setField(field, decode(wire.getValues(i)));
        }
        return struct;
    }
}
