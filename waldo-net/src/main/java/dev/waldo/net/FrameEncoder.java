package dev.waldo.net;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToByteEncoder;
import java.io.IOException;

/**
 * Writes a protobuf message as one frame: varint32 length, then the message.
 * It refuses (fails the write, keeps the connection) a message that the peer's
 * {@link FrameDecoder} would reject, so an oversize message is reported to the
 * sender instead of silently killing the link.
 */
@ChannelHandler.Sharable
public final class FrameEncoder extends MessageToByteEncoder<MessageLite> {
    private final int maxFrameBytes;

    /** An encoder that refuses messages larger than {@code maxFrameBytes}. */
    public FrameEncoder(int maxFrameBytes) {
        super(MessageLite.class);
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, MessageLite message, ByteBuf out) throws IOException {
        int size = message.getSerializedSize();
        if (size > maxFrameBytes) {
            throw new EncoderException("message of " + size + " bytes exceeds the frame limit of "
                    + maxFrameBytes + " bytes");
        }
        int total = CodedOutputStream.computeUInt32SizeNoTag(size) + size;
        out.ensureWritable(total);
        CodedOutputStream coded = CodedOutputStream.newInstance(new ByteBufOutputStream(out), total);
        coded.writeUInt32NoTag(size);
        message.writeTo(coded);
        coded.flush();
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, MessageLite message, boolean preferDirect) {
        int size = message.getSerializedSize();
        int total = CodedOutputStream.computeUInt32SizeNoTag(size) + size;
        return preferDirect ? ctx.alloc().ioBuffer(total) : ctx.alloc().heapBuffer(total);
    }
}
