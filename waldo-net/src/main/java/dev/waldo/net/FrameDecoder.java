package dev.waldo.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Splits the byte stream into frames: a base-128 varint32 length, then that
 * many bytes of one protobuf {@code Frame}. A frame longer than the limit
 * or a length that is not a valid varint32 fails the connection before any
 * payload is buffered, so a hostile peer cannot make the host hold more than
 * one maximum frame per connection.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private static final int MAX_LENGTH_BYTES = 5;
    private final int maxFrameBytes;

    /** A decoder that refuses frames whose payload exceeds {@code maxFrameBytes}. */
    public FrameDecoder(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int start = in.readerIndex();
        long length = readLength(in);
        if (length < 0) {
            in.readerIndex(start);
            return;
        }
        if (length > maxFrameBytes) {
            throw new TooLongFrameException("frame of " + length + " bytes exceeds the limit of "
                    + maxFrameBytes + " bytes");
        }
        if (in.readableBytes() < length) {
            in.readerIndex(start);
            return;
        }
        out.add(in.readRetainedSlice((int) length));
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        super.decodeLast(ctx, in, out);
        if (in.isReadable()) {
            int left = in.readableBytes();
            in.skipBytes(left);
            throw new CorruptedFrameException("truncated frame: connection ended " + left
                    + " bytes into a frame");
        }
    }

    /** The varint length at the reader index, or -1 when more bytes are needed. */
    private static long readLength(ByteBuf in) {
        long length = 0;
        for (int i = 0; i < MAX_LENGTH_BYTES; i++) {
            if (!in.isReadable()) {
                return -1;
            }
            byte b = in.readByte();
            length |= (long) (b & 0x7f) << (7 * i);
            if (b >= 0) {
                return length;
            }
        }
        throw new CorruptedFrameException("frame length is not a varint32 (more than "
                + MAX_LENGTH_BYTES + " bytes)");
    }
}
