package dev.waldoconf.lab.model;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Vendor behaviours a switch can be given, so that WaldoConf is tested against more than one
 * reading of the MIB.
 */
public enum QuirkProfile {
    /** RFC 4363 and RFC 2579 as written: a PDU may create a VLAN and use it at once. */
    STANDARD("standard"),
    /**
     * Untagged membership and PVIDs may only name a VLAN that was already active before the
     * PDU, so a manager must create a VLAN in one PDU and use it in a later one.
     */
    STRICT_ORDER("strict-order"),
    /** createAndWait is not supported (answered with wrongValue, as RFC 2579 allows). */
    NO_CREATE_AND_WAIT("no-create-and-wait");

    private final String label;

    QuirkProfile(String label) {
        this.label = label;
    }

    /** The profile's name on command lines and in docs, e.g. {@code strict-order}. */
    public String label() {
        return label;
    }

    /**
     * The profile with this label.
     *
     * @throws IllegalArgumentException listing the valid labels when none matches
     */
    public static QuirkProfile fromLabel(String label) {
        for (QuirkProfile profile : values()) {
            if (profile.label.equals(label)) {
                return profile;
            }
        }
        throw new IllegalArgumentException("unknown quirk profile '" + label + "'; choose one of "
                + Arrays.stream(values()).map(QuirkProfile::label).collect(Collectors.joining(", ")));
    }
}
