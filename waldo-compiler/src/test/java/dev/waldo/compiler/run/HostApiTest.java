package dev.waldo.compiler.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.Host;
import dev.waldo.runtime.TransactionAbortedException;
import dev.waldo.runtime.WaldoException;
import dev.waldo.runtime.WaldoObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The generated classes as host code meets them (waldo-compiler README, "Using generated code
 * from Java"): the exceptions it catches.
 */
class HostApiTest {
    private static final String SHOP = """
            Service Shop {
                Number stock = 3;

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
            }
            """;

    private final ProgramRunner runner = new ProgramRunner(new SourceFile("shop.wld", SHOP));
    private final Host host = runner.host("h");
    private final WaldoObject shop = runner.create("Shop", host);

    @AfterEach
    void close() {
        runner.close();
    }

    @Test
    void abortReachesTheHostAsAWaldoExceptionThatNamesItsReason() {
        WaldoException raised = catchThrowableOfType(WaldoException.class, () -> runner.call(shop, "take", 5.0));

        assertThat(raised).isInstanceOfSatisfying(TransactionAbortedException.class,
                aborted -> assertThat(aborted.reason()).isEqualTo(TransactionAbortedException.Reason.ABORT_CALLED));
        assertThat(runner.committed(shop, "stock")).isEqualTo(3.0);
    }

    @Test
    void anApplicationErrorIsAWaldoExceptionOfItsOwnKind() {
        WaldoException raised = catchThrowableOfType(WaldoException.class, () -> runner.call(shop, "divide", 0.0));

        assertThat(raised).isInstanceOf(ApplicationException.class).isNotInstanceOf(TransactionAbortedException.class);
    }

    @Test
    void aWaldoCatchOfExceptionStillCannotSwallowAnAbort() {
        assertThat(catchThrowableOfType(TransactionAbortedException.class, () -> runner.call(shop, "swallowAbort")))
                .isNotNull();
        assertThat(runner.committed(shop, "stock")).isEqualTo(3.0);
    }
}
