package dev.waldo.compiler.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.emit.JavaCompilation;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.InMemoryNetwork;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldo.runtime.WaldoObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The generated classes as host code meets them (waldo-compiler README, "Using generated code
 * from Java"). Each test compiles a Waldo program and a Java host class written against its
 * generated classes, so a change to the API's shape breaks javac here, and runs the host class.
 */
class HostApiTest {
    private static final String SHOP = """
            Struct Order {
                Text item;
                Number count;
                List(element: Text) notes;
            }

            Service Shop {
                Number stock = 3;
                List(element: Order) orders;

                Public Function take(Number n) returns Number {
                    if (n > stock)
                        abort();
                    stock -= n;
                    return stock;
                }

                Public Function divide(Number n) returns Number {
                    return stock / n;
                }

                Public Function swallowAbort() {
                    try {
                        abort();
                    } catch (Exception e) {
                        stock = 100;
                    }
                }

                Public Function place(Order order) returns Number {
                    orders.append(order);
                    return len(orders);
                }

                Public Function restock(Map(from: Text, to: Number) amounts) returns Number {
                    for (Text item in amounts)
                        stock += amounts[item];
                    return stock;
                }
            }
            """;

    @Test
    void abortReachesTheHostAsAWaldoExceptionThatNamesItsReason() throws Exception {
        List<String> lines = runHost(SHOP, """
                Shop shop = Shop.create(host);
                try {
                    shop.take(5);
                } catch (WaldoException e) {
                    out.add(e.getClass().getSimpleName() + " " + ((TransactionAbortedException) e).reason());
                }
                out.add("stock " + shop.committed(Shop.STOCK));
                """);

        assertThat(lines).containsExactly("TransactionAbortedException ABORT_CALLED", "stock 3.0");
    }

    @Test
    void anApplicationErrorIsAWaldoExceptionOfItsOwnKind() throws Exception {
        List<String> lines = runHost(SHOP, """
                try {
                    Shop.create(host).divide(0);
                } catch (WaldoException e) {
                    out.add(e.getClass().getSimpleName() + " " + (e instanceof TransactionAbortedException));
                }
                """);

        assertThat(lines).containsExactly("ApplicationException false");
    }

    @Test
    void aWaldoCatchOfExceptionStillCannotSwallowAnAbort() throws Exception {
        List<String> lines = runHost(SHOP, """
                Shop shop = Shop.create(host);
                try {
                    shop.swallowAbort();
                } catch (TransactionAbortedException e) {
                    out.add("aborted");
                }
                out.add("stock " + shop.committed(Shop.STOCK));
                """);

        assertThat(lines).containsExactly("aborted", "stock 3.0");
    }

    @Test
    void aStructIsBuiltFromItsFieldsAndKeepsItsOwnCopyOfThem() throws Exception {
        List<String> lines = runHost(SHOP, """
                WList<String> notes = new WList<>(List.of("gift wrap"));
                Order order = new Order("lamp", 2, notes);
                notes.add("changed after");
                out.add(order.item + " " + order.count + " " + order.notes);
                out.add("placed " + Shop.create(host).place(order));
                out.add("default " + new Order().equals(new Order("", 0, new WList<>())));
                try {
                    new Order(null, 1, notes);
                } catch (NullPointerException e) {
                    out.add(e.getMessage());
                }
                """);

        assertThat(lines).containsExactly("lamp 2.0 [gift wrap]", "placed 1.0", "default true", "Order.item");
    }

    @Test
    void aStructTooWideForAJavaConstructorKeepsOnlyItsDefaultOne() throws Exception {
        StringBuilder wide = new StringBuilder("Struct Wide {\n");
        for (int i = 0; i < 128; i++) {  // 128 doubles need 256 parameter slots; the JVM allows 255
            wide.append("    Number f").append(i).append(";\n");
        }
        WaldoCompiler.Result compiled = WaldoCompiler.compile(
                List.of(new SourceFile("wide.wld", wide.append("}\n").toString())), "wide");

        Class<?> type = compiled.classes().loader(getClass().getClassLoader()).loadClass("wide.Wide");
        assertThat(type.getConstructors()).hasSize(1).allSatisfy(c -> assertThat(c.getParameterCount()).isZero());
    }

    @Test
    void invokeCallsAPublicFunctionByNameWithAnyJavaNumber() {
        try (ProgramRunner runner = new ProgramRunner(new SourceFile("shop.wld", SHOP))) {
            WaldoObject shop = runner.create("Shop", runner.host("h"));

            assertThat(shop.invoke("take", 1)).isEqualTo(2.0);
            assertThat(shop.invoke("restock", Map.of("lamp", 4L))).isEqualTo(6.0);
            assertThat(shop.functions()).extracting(Object::toString).containsExactly(
                    "take(Number n) returns Number", "divide(Number n) returns Number", "swallowAbort()",
                    "place(Order order) returns Number",
                    "restock(Map(from: Text, to: Number) amounts) returns Number");
            assertThatThrownBy(() -> shop.invoke("take", 50)).isInstanceOf(TransactionAbortedException.class);
        }
    }

    @Test
    void invokeRefusesAnUnknownNameWithTheClosestOnes() {
        try (ProgramRunner runner = new ProgramRunner(new SourceFile("shop.wld", SHOP))) {
            WaldoObject shop = runner.create("Shop", runner.host("h"));

            assertThatThrownBy(() -> shop.invoke("tkae", 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Shop has no Public function 'tkae'; did you mean 'take'?");
            assertThatThrownBy(() -> shop.invoke("sell")).hasMessage("Shop has no Public function 'sell'; known:"
                    + " take, divide, swallowAbort, place, restock");
        }
    }

    @Test
    void invokeRefusesAWrongCountOfArgumentsShowingTheSignature() {
        try (ProgramRunner runner = new ProgramRunner(new SourceFile("shop.wld", SHOP))) {
            WaldoObject shop = runner.create("Shop", runner.host("h"));

            assertThatThrownBy(() -> shop.invoke("take")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Shop.take(Number n) returns Number takes 1 argument, got 0");
        }
    }

    @Test
    void invokeRefusesAWrongArgumentNamingTheParameterAndWhereInsideItIsWrong() {
        try (ProgramRunner runner = new ProgramRunner(new SourceFile("shop.wld", SHOP))) {
            WaldoObject shop = runner.create("Shop", runner.host("h"));

            assertThatThrownBy(() -> shop.invoke("take", "two")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Shop.take: argument 1 ('n') should be Number, got String two");
            assertThatThrownBy(() -> shop.invoke("restock", Map.of("lamp", "many")))
                    .hasMessage("Shop.restock: argument 1 ('amounts') should be Map(from: Text, to: Number),"
                            + " but [lamp] is String many (should be Number)");
            assertThatThrownBy(() -> shop.invoke("take", (1L << 53) + 1))  // no double holds it
                    .hasMessageStartingWith("Shop.take: argument 1 ('n') should be Number, got 9007199254740993");
            assertThatThrownBy(() -> shop.invoke("place", (Object) null))
                    .hasMessage("Shop.place: argument 1 ('order') should be Order, got null");
            assertThat(runner.committed(shop, "stock")).isEqualTo(3.0);
        }
    }

    @Test
    void hostCodeReachesNamesJavaReservesThroughTheirMangledSpelling() throws Exception {
        List<String> lines = runHost("""
                Struct record {
                    Text class;
                }

                Service Shop {
                    Number short = 1;
                    Number short_ = 2;

                    Public Function toString() returns Text {
                        return 'shop';
                    }

                    Public Function invoke(Number throw) returns Number {
                        return throw + short + short_;
                    }

                    Public Function kind(record r) returns Text {
                        return r.class;
                    }
                }
                """, """
                Shop shop = Shop.create(host);
                out.add(shop.toString_() + " " + shop.invoke_(10) + " " + shop.kind_(new record_("c")));
                out.add(shop.committed(Shop.SHORT) + " " + shop.committed(Shop.SHORT_));
                out.add(shop.invoke("invoke", 20) + " " + shop.invoke("toString"));
                """);

        assertThat(lines).containsExactly("shop 13.0 c", "1.0 2.0", "23.0 shop");
    }

    /**
     * Compiles {@code waldo} into package {@code shop} and a class {@code HostCode} whose
     * {@code run(host, out)} holds {@code body}, runs it on an in-memory host and returns what it
     * added to {@code out}.
     */
    static List<String> runHost(String waldo, String body) throws Exception {
        WaldoCompiler.Result compiled = WaldoCompiler.compile(List.of(new SourceFile("shop.wld", waldo)), "shop");
        assertThat(compiled.ok()).as(compiled.rendered()).isTrue();
        Map<String, String> sources = new LinkedHashMap<>(compiled.javaSources());
        sources.put("shop/HostCode.java", """
                package shop;

                import dev.waldo.runtime.*;
                import dev.waldo.runtime.lang.*;
                import java.util.List;

                public final class HostCode {
                    public static void run(Host host, List<String> out) {
                %s
                    }
                }
                """.formatted(body.indent(8)));
        ClassLoader loader = JavaCompilation.compile(sources).loader(HostApiTest.class.getClassLoader());
        List<String> out = new ArrayList<>();
        try (InMemoryNetwork network = new InMemoryNetwork();
                Host host = Host.inMemory(network, "h")) {
            loader.loadClass("shop.HostCode").getMethod("run", Host.class, List.class)
                    .invoke(null, host, out);
        }
        return out;
    }
}
