package dev.waldoconf.lab.snmp;

import java.util.Arrays;
import java.util.List;
import org.snmp4j.agent.DefaultMOScope;
import org.snmp4j.agent.MOScope;
import org.snmp4j.smi.OID;

/** One subtree the switch answers for, e.g. everything under {@code system}. */
record OidSubtree(OID root) {

    /** The subtrees of {@link Oids#SUBTREES}. */
    static List<OidSubtree> all() {
        return Arrays.stream(Oids.SUBTREES).map(OidSubtree::new).toList();
    }

    /** Whether any of the switch's subtrees contains the OID. */
    static boolean covers(OID oid) {
        return Arrays.stream(Oids.SUBTREES).anyMatch(oid::startsWith);
    }

    /** The scope from the root (included) up to the root's next sibling (excluded). */
    MOScope scope() {
        return new DefaultMOScope(root, true, root.nextPeer(), false);
    }
}
