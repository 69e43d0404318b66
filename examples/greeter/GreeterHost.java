import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import waldo.greeter.Client;
import waldo.greeter.Server;

/**
 * Host code for greeter.wld: two hosts, a connected pair, Public functions as Java methods, and
 * a variable read through its generated constant ({@code Server.GUESTS}), typed.
 */
public final class GreeterHost {
    public static void main(String[] args) {
        try (InMemoryNetwork network = new InMemoryNetwork();
                Host alice = Host.inMemory(network, "alice");
                Host bob = Host.inMemory(network, "bob")) {
            Host.Connection<Client, Server> pair = alice.connect(Client::create, bob, Server::create);
            System.out.println(pair.local().greet("Ada"));
            System.out.println(pair.local().greet("Grace"));
            System.out.println("server guests: " + pair.remote().committed(Server.GUESTS));
        }
    }
}
