package dev.waldo.net;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Host numbers for a network without a registry. The core names hosts by
 * number (in attempt ids, priorities and participant sets) and those numbers
 * travel between hosts, so every host must give a host id the same number:
 * each derives it from the id itself (22 bits of its SHA-256). Only 22 bits,
 * because the core packs a host number above 40 bits of counter into call and
 * frame ids that must stay positive longs. This directory also remembers which
 * id a number stands for, and refuses a second id whose number collides with a
 * known one (about one pair in 80,000 for 10 hosts). It also keeps where
 * hosts can be dialed, as far as this host learned.
 */
public final class HostNumbers {
    private final Map<Integer, String> ids = new ConcurrentHashMap<>();
    /**
     * The numbers of the ids registered, so that a registered id is not hashed again: the codec
     * registers every host a received message names, and a site agent's node receives, for a
     * thousand hosts, prepares that each name up to 16 (SHA-256 was 7 % of its samples).
     */
    private final Map<String, Integer> numbers = new ConcurrentHashMap<>();
    private final Map<Integer, InetSocketAddress> addresses = new ConcurrentHashMap<>();

    /** Host numbers are below this bound. */
    public static final int LIMIT = 1 << 22;

    /** The number every host gives {@code hostId}: in [1, LIMIT), so -1 and 0 never name a host. */
    public static int of(String hostId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(hostId.getBytes(StandardCharsets.UTF_8));
            int number = ((digest[0] & 0xff) << 24) | ((digest[1] & 0xff) << 16) | ((digest[2] & 0xff) << 8)
                    | (digest[3] & 0xff);
            int small = number & (LIMIT - 1);
            return small == 0 ? 1 : small;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * Records {@code hostId} and returns its number.
     *
     * @throws ProtocolViolationException if another known host id has the same number
     */
    public int register(String hostId) {
        Integer registered = numbers.get(hostId);
        if (registered != null) {
            return registered;
        }
        int number = of(hostId);
        String known = ids.putIfAbsent(number, hostId);
        if (known != null && !known.equals(hostId)) {
            throw new ProtocolViolationException("host ids '" + known + "' and '" + hostId
                    + "' map to the same host number " + number + "; rename one of the hosts");
        }
        numbers.put(hostId, number);
        return number;
    }

    /** The id of host {@code number}, or null if no such host was registered. */
    public String id(int number) {
        return ids.get(number);
    }

    /** Records where host {@code hostId} can be dialed (registering it). */
    public void locate(String hostId, InetSocketAddress address) {
        addresses.put(register(hostId), address);
    }

    /** Records where a peer said host {@code hostId} can be dialed, unless this host knows already. */
    public void hearOf(String hostId, InetSocketAddress address) {
        addresses.putIfAbsent(register(hostId), address);
    }

    /** Where host {@code number} can be dialed, or null if no one said. */
    public InetSocketAddress address(int number) {
        return addresses.get(number);
    }

    /** The number of {@code hostId} if it was registered, else -1. */
    public int known(String hostId) {
        Integer registered = numbers.get(hostId);
        if (registered != null) {
            return registered;
        }
        int number = of(hostId);
        return hostId.equals(ids.get(number)) ? number : -1;
    }
}
