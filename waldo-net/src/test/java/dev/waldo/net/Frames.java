package dev.waldo.net;

import com.google.protobuf.CodedOutputStream;
import dev.waldo.net.wire.Frame;
import dev.waldo.net.wire.Hello;
import dev.waldo.net.wire.Open;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Builds raw frame bytes, as a peer would put them on the wire. */
final class Frames {
    private Frames() {
    }

    static Frame hello(String host) {
        return Frame.newBuilder().setHello(Hello.newBuilder()
                .setVersion(HandshakeHandler.PROTOCOL_VERSION).setHost(host)).build();
    }

    /** Opens stream {@code stream} from host {@code host} to the accepting node's own host. */
    static Frame open(int stream, String host) {
        return Frame.newBuilder().setStream(stream).setOpen(Open.newBuilder().setHost(host).setIncarnation(1)).build();
    }

    /** Opens stream {@code stream} from host {@code host} to host {@code to} of the accepting node. */
    static Frame open(int stream, String host, String to) {
        return Frame.newBuilder().setStream(stream).setOpen(Open.newBuilder().setHost(host).setTo(to)
                .setIncarnation(1)).build();
    }

    /** The frames of {@code frames}, concatenated. */
    static byte[] frames(Frame... frames) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            for (Frame frame : frames) {
                CodedOutputStream coded = CodedOutputStream.newInstance(bytes);
                coded.writeUInt32NoTag(frame.getSerializedSize());
                frame.writeTo(coded);
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
