package dev.waldo.net;

import dev.waldo.net.wire.NameDefinition;
import java.util.ArrayList;
import java.util.List;

/**
 * The names a peer defined on one connection (see {@link OutboundNames}).
 * Definitions must come in order and stay within bounds, so a hostile peer
 * can neither skip aliases nor make this host store unbounded text.
 */
final class InboundNames {
    static final int MAX_NAME_CHARS = 1_024;
    private final List<String> names = new ArrayList<>();

    void define(NameDefinition definition) {
        int expected = OutboundNames.FIRST_ALIAS + names.size();
        if (definition.getAlias() != expected) {
            throw new ProtocolViolationException("peer defined name alias " + definition.getAlias()
                    + " where " + expected + " was next");
        }
        if (names.size() >= OutboundNames.MAX_NAMES) {
            throw new ProtocolViolationException("peer defined more than " + OutboundNames.MAX_NAMES + " names");
        }
        if (definition.getName().isEmpty() || definition.getName().length() > MAX_NAME_CHARS) {
            throw new ProtocolViolationException("peer defined an empty or overlong name for alias "
                    + definition.getAlias());
        }
        names.add(definition.getName());
    }

    /** The name behind {@code alias}. */
    String name(int alias) {
        int index = alias - OutboundNames.FIRST_ALIAS;
        if (index < 0 || index >= names.size()) {
            throw new ProtocolViolationException("peer used name alias " + alias + " that it never defined");
        }
        return names.get(index);
    }
}
