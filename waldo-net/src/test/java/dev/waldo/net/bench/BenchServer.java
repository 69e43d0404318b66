package dev.waldo.net.bench;

import dev.waldo.net.NetConfig;
import dev.waldo.net.NetHost;
import dev.waldo.net.Security;
import dev.waldo.net.testing.PeerEndpoint;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The far process of the benchmarks: a Waldo host without and one with TLS,
 * each offering Peer endpoints, and the floor's echo servers without and with
 * TLS. Prints "PORTS waldo waldo-tls echo echo-tls" and runs until stdin closes.
 */
public final class BenchServer {
    private BenchServer() {
    }

    public static void main(String[] args) throws Exception {
        Path state = Files.createTempDirectory("waldo-bench-server");
        InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
        try (NetHost plain = NetHost.start(NetConfig.defaults("bench-server", state.resolve("plain")).insecure());
             NetHost tls = NetHost.start(NetConfig.defaults("bench-server-tls", state.resolve("tls"))
                     .withSecurity(Security.SELF_SIGNED))) {
            EventLoopGroup echoGroup = Sockets.group();
            int waldo = plain.listen(any, PeerEndpoint::create, null).getPort();
            int waldoTls = tls.listen(any, PeerEndpoint::create, null).getPort();
            int echo = EchoServer.start(echoGroup, Sockets.serverSocket(), null);
            int echoTls = EchoServer.start(echoGroup, Sockets.serverSocket(), Sockets.serverTls());
            System.out.println("PORTS " + waldo + " " + waldoTls + " " + echo + " " + echoTls);
            System.out.flush();
            while (System.in.read() >= 0) {
                // Runs until the benchmark closes our stdin (or dies).
            }
            echoGroup.shutdownGracefully();
        }
    }
}
