package dev.waldo.runtime.storage;

import dev.waldo.runtime.core.LockId;
import dev.waldo.runtime.core.StorageRecord;
import dev.waldo.runtime.core.TxnId;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The bytes of a storage log: one frame per record, {@code length (4 bytes) ·
 * CRC32C of the body (4 bytes) · body}. A frame whose length runs past the
 * end or whose checksum does not match is a torn write: decoding stops there
 * and reports how many bytes were good, so that the log can be cut back to
 * them. Only the last write can be torn, since every write is made durable
 * before the next one starts.
 */
final class RecordCodec {
    /** No record comes near this; a bigger length is a torn or garbled header. */
    static final int MAX_BODY_BYTES = 16 << 20;
    private static final int HEADER_BYTES = 8;
    private static final byte PREPARED = 1;
    private static final byte COMMITTED = 2;
    private static final byte ENDED = 3;
    private static final byte FORGOTTEN = 4;

    private RecordCodec() {
    }

    /** The records decoded from {@code log}, and how many leading bytes held whole frames. */
    record Decoded(List<StorageRecord> records, int goodBytes) {
        boolean torn(int length) {
            return goodBytes < length;
        }
    }

    /** Frames for {@code records}, one after another. */
    static byte[] encode(List<StorageRecord> records) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (StorageRecord record : records) {
            byte[] body = body(record);
            CRC32C crc = new CRC32C();
            crc.update(body);
            out.writeBytes(ByteBuffer.allocate(HEADER_BYTES).putInt(body.length).putInt((int) crc.getValue()).array());
            out.writeBytes(body);
        }
        return out.toByteArray();
    }

    /** Decodes whole frames from the start of {@code log}, stopping at the first torn one. */
    static Decoded decode(byte[] log, int length) {
        ByteBuffer buffer = ByteBuffer.wrap(log, 0, length);
        List<StorageRecord> records = new ArrayList<>();
        int good = 0;
        while (buffer.remaining() >= HEADER_BYTES) {
            int bodyLength = buffer.getInt();
            int checksum = buffer.getInt();
            if (bodyLength < 0 || bodyLength > MAX_BODY_BYTES || bodyLength > buffer.remaining()) {
                break;
            }
            byte[] body = new byte[bodyLength];
            buffer.get(body);
            CRC32C crc = new CRC32C();
            crc.update(body);
            if ((int) crc.getValue() != checksum) {
                break;
            }
            records.add(record(body));
            good = buffer.position();
        }
        return new Decoded(records, good);
    }

    private static byte[] body(StorageRecord record) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            switch (record) {
                case StorageRecord.Prepared p -> {
                    header(out, PREPARED, p.txn());
                    out.writeInt(p.coordinator());
                    hosts(out, p.peers());
                    out.writeInt(p.locks().size());
                    for (LockId lock : p.locks()) {
                        out.writeLong(lock.object());
                        out.writeUTF(lock.variable());
                    }
                    byte[] payload = p.payload();
                    out.writeInt(payload.length);
                    out.write(payload);
                }
                case StorageRecord.Committed c -> {
                    header(out, COMMITTED, c.txn());
                    hosts(out, c.participants());
                    out.writeLong(c.stamp());
                }
                case StorageRecord.Ended e -> {
                    header(out, ENDED, e.txn());
                    out.writeBoolean(e.committed());
                }
                case StorageRecord.Forgotten f -> header(out, FORGOTTEN, f.txn());
            }
        } catch (IOException impossible) {
            throw new UncheckedIOException(impossible); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    private static void header(DataOutputStream out, byte type, TxnId txn) throws IOException {
        out.writeByte(type);
        out.writeInt(txn.host());
        out.writeLong(txn.serial());
    }

    private static void hosts(DataOutputStream out, Set<Integer> hosts) throws IOException {
        out.writeInt(hosts.size());
        for (int host : hosts) {
            out.writeInt(host);
        }
    }

    private static StorageRecord record(byte[] body) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(body))) {
            byte type = in.readByte();
            TxnId txn = new TxnId(in.readInt(), in.readLong());
            return switch (type) {
                case PREPARED -> prepared(in, txn);
                // A log written before commits carried stamps ends the record after the hosts.
                case COMMITTED -> new StorageRecord.Committed(txn, hosts(in), in.available() >= Long.BYTES ? in.readLong() : 0);
                case ENDED -> new StorageRecord.Ended(txn, in.readBoolean());
                case FORGOTTEN -> new StorageRecord.Forgotten(txn);
                default -> throw new StorageException("a storage record of unknown type " + type + " for attempt "
                        + txn + " passed its checksum: the log was written by another version", null);
            };
        } catch (IOException truncated) {
            throw new StorageException("a storage record passed its checksum but is too short to decode: the log"
                    + " was written by another version", truncated);
        }
    }

    private static StorageRecord prepared(DataInputStream in, TxnId txn) throws IOException {
        int coordinator = in.readInt();
        Set<Integer> peers = hosts(in);
        int lockCount = in.readInt();
        List<LockId> locks = new ArrayList<>();
        for (int i = 0; i < lockCount; i++) {
            locks.add(LockId.whole(in.readLong(), in.readUTF()));
        }
        byte[] payload = new byte[in.readInt()];
        in.readFully(payload);
        return new StorageRecord.Prepared(txn, coordinator, peers, locks, payload);
    }

    private static Set<Integer> hosts(DataInputStream in) throws IOException {
        int count = in.readInt();
        Set<Integer> hosts = new LinkedHashSet<>();
        for (int i = 0; i < count; i++) {
            hosts.add(in.readInt());
        }
        return hosts;
    }

    /**
     * The records still needed: those of attempts not {@link StorageRecord.Forgotten}.
     * Compaction rewrites a log to exactly these.
     */
    static List<StorageRecord> live(List<StorageRecord> records) {
        Set<TxnId> forgotten = new java.util.HashSet<>();
        for (StorageRecord record : records) {
            if (record instanceof StorageRecord.Forgotten) {
                forgotten.add(record.txn());
            }
        }
        List<StorageRecord> live = new ArrayList<>();
        for (StorageRecord record : records) {
            if (!forgotten.contains(record.txn())) {
                live.add(record);
            }
        }
        return live;
    }
}
