package dev.waldo.net;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * The socket implementation: native epoll on Linux when its library loads
 * (fewer system calls and copies per message), Java NIO everywhere else.
 */
record IoTransport(IoHandlerFactory ioHandlers, Class<? extends SocketChannel> socket,
                   Class<? extends ServerSocketChannel> serverSocket) {

    static IoTransport best() {
        if (Epoll.isAvailable()) {
            return new IoTransport(EpollIoHandler.newFactory(), EpollSocketChannel.class,
                    EpollServerSocketChannel.class);
        }
        return new IoTransport(NioIoHandler.newFactory(), NioSocketChannel.class, NioServerSocketChannel.class);
    }

    EventLoopGroup newGroup(int threads, String name) {
        return new MultiThreadIoEventLoopGroup(threads, new io.netty.util.concurrent.DefaultThreadFactory(name, true),
                ioHandlers);
    }
}
