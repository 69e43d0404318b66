package dev.waldo.compiler.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.diag.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Claret's abstract locks from the compiler's side: {@code +=}/{@code -=} on a
 * Number variable or a key of a Map of Numbers, and {@code append} on a List
 * variable or a List under a map key, are emitted as the runtime's commuting
 * updates, and concurrent transactions that make them all count; a read
 * of a variable is emitted as a shared read, a mutation in place as an
 * exclusive one.
 */
class CommutingUpdatesTest {
    private static final String COUNTERS = """
            Service Counters {
                Number hits;
                Map(from: Text, to: Number) per_key;
                List(element: Text) log;
                Map(from: Text, to: List(element: Number)) lists;
                List(element: Number) scratch;

                Public Function add_key(Text key) {
                    per_key[key] = 0;
                    lists[key] = [];
                }

                Public Function hit(Text key) {
                    hits += 2;
                    hits -= 1;
                    per_key[key] += 1;
                    log.append(key);
                    lists[key].append(1);
                }

                Public Function total() returns Number {
                    scratch[0] = hits;
                    hits += bump();
                    return hits + len(log);
                }

                Function bump() returns Number {
                    hits = 0;
                    return 1;
                }
            }
            """;

    @Test
    void commutingOperationsAreEmittedAsTheRuntimesCommutingUpdates() {
        WaldoCompiler.Result compiled = WaldoCompiler.compile(List.of(new SourceFile("c.wld", COUNTERS)), "shop");
        assertThat(compiled.ok()).as(compiled.rendered()).isTrue();
        String java = compiled.javaSources().get("shop/Counters.java");
        assertThat(java).contains("this.hits.add($ctx, 2.0)", "this.hits.add($ctx, -(1.0))",
                "this.per_key.addAt($ctx, key, 1.0)", "this.log.append($ctx, key)",
                "this.lists.appendAt($ctx, key, 1.0)",
                "this.hits.read($ctx)", "Builtins.setIndex(this.scratch.get($ctx)",
                // The target is read before a call in the amount runs (the call could change it): no add.
                "this.hits.set($ctx, this.hits.get($ctx) + (this.bump$($ctx)))");
    }

    @Test
    void eightClientsMakingCommutingUpdatesAllCount() throws Exception {
        List<String> lines = HostApiTest.runHost(COUNTERS, """
                Counters counters = Counters.create(host);
                counters.add_key("hot");
                List<Thread> clients = new java.util.ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    clients.add(Thread.ofPlatform().start(() -> {
                        for (int i = 0; i < 50; i++) {
                            counters.hit("hot");
                        }
                    }));
                }
                for (Thread client : clients) {
                    try {
                        client.join();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
                out.add("hits " + counters.committed(Counters.HITS));
                out.add("per key " + counters.committed(Counters.PER_KEY).get("hot"));
                out.add("log " + counters.committed(Counters.LOG).size());
                out.add("list " + counters.committed(Counters.LISTS).get("hot").size());
                """);

        assertThat(lines).containsExactly("hits 400.0", "per key 400.0", "log 400", "list 400");
    }
}
