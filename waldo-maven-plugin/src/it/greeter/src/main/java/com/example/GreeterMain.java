package com.example;

import com.example.greeter.Greeter;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;

/** Host code for greeter.wld: the generated service's Public function is a Java method. */
public final class GreeterMain {
    public static void main(String[] args) {
        try (InMemoryNetwork network = new InMemoryNetwork(); Host host = Host.inMemory(network, "here")) {
            Greeter greeter = Greeter.create(host);
            System.out.println("said: " + greeter.greet("Ada"));
            System.out.println("said: " + greeter.greet("Grace"));
        }
    }
}
