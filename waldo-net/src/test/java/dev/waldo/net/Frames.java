package dev.waldo.net;

import com.google.protobuf.CodedOutputStream;
import dev.waldo.net.wire.Envelope;
import dev.waldo.net.wire.Hello;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Builds raw frame bytes, as a peer would put them on the wire. */
final class Frames {
    private Frames() {
    }

    static Envelope hello(String host) {
        return Envelope.newBuilder().setHello(Hello.newBuilder()
                .setVersion(HandshakeHandler.PROTOCOL_VERSION).setHost(host)).build();
    }

    /** The frames of {@code envelopes}, concatenated. */
    static byte[] frames(Envelope... envelopes) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            for (Envelope envelope : envelopes) {
                CodedOutputStream coded = CodedOutputStream.newInstance(bytes);
                coded.writeUInt32NoTag(envelope.getSerializedSize());
                envelope.writeTo(coded);
                coded.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** A varint length announcing {@code length} bytes, with no payload after it. */
    static byte[] lengthOnly(int length) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            CodedOutputStream coded = CodedOutputStream.newInstance(bytes);
            coded.writeUInt32NoTag(length);
            coded.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
