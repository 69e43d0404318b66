package dev.waldo.compiler.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.WaldoCompiler;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.run.ProgramRunner;
import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.WaldoObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Differential testing: random well-typed programs ({@link ProgramGenerator}) are compiled to
 * Java, run on in-memory hosts, and what each prints is compared with what the
 * {@link ReferenceEvaluator} makes of the same checked program. Along the way every expression
 * that the compiler folds to a constant must evaluate to that constant, and javac must accept
 * every emitted program.
 *
 * <p>The build runs {@code differential.programs} programs (default 200) from seed
 * {@code differential.seed} (default a fixed one, so every build meets the same programs); the
 * module README gives the longer run. Programs are compiled {@value #BATCH} at a time, each as its
 * own endpoint kind, since javac's start dominates the time. A failure names the seed that
 * reproduces it alone, and shows the program and both outputs.
 */
class DifferentialTest {
    private static final long FIRST_SEED = Long.getLong("differential.seed", 20261125L);
    private static final int PROGRAMS = Integer.getInteger("differential.programs", 200);
    private static final int STATEMENTS = 12;
    private static final int BATCH = 20;

    @Test
    void compiledProgramsPrintWhatTheReferenceEvaluatorPrints() {
        int raised = 0;
        for (long batch = FIRST_SEED; batch < FIRST_SEED + PROGRAMS; batch += BATCH) {
            raised += runBatch(batch, (int) Math.min(BATCH, FIRST_SEED + PROGRAMS - batch));
        }
        System.out.printf("differential: %d programs from seed %d, %d raised, 0 disagreements%n",
                PROGRAMS, FIRST_SEED, raised);
        if (PROGRAMS >= 100) {
            // Both paths must be exercised: programs that commit and programs that raise.
            assertThat(raised).isBetween(1, PROGRAMS - 1);
        }
    }

    /** Compiles and runs programs {@code first ..< first + count}; returns how many raised. */
    private static int runBatch(long first, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(ProgramGenerator.program(first + i, STATEMENTS, kind(i)));
        }
        SourceFile source = new SourceFile("generated.wld", text.toString());
        WaldoCompiler.Result checked = WaldoCompiler.compile(List.of(source), ProgramRunner.PACKAGE);
        assertThat(checked.ok()).as("generated programs are well-typed (seeds %d to %d)\n%s\n%s", first,
                first + count - 1, checked.rendered(), text).isTrue();
        int raised = 0;
        try (ProgramRunner runner = new ProgramRunner(source)) {
            for (int i = 0; i < count; i++) {
                String reproduce = "reproduce with: -Ddifferential.seed=" + (first + i)
                        + " -Ddifferential.programs=1\n" + ProgramGenerator.program(first + i, STATEMENTS, kind(0));
                ReferenceEvaluator.Outcome expected = ReferenceEvaluator.runMain(checked.program(), kind(i));
                assertThat(expected.foldingDisagreements())
                        .as("constant folding agrees with evaluation; %s", reproduce).isEmpty();
                List<String> actual = runMain(runner, kind(i));
                assertThat(actual).as("compiled output vs reference evaluator; %s", reproduce)
                        .containsExactlyElementsOf(expected.lines());
                raised += actual.size() == 1 && actual.get(0).startsWith("ApplicationException: ") ? 1 : 0;
            }
        }
        return raised;
    }

    private static String kind(int index) {
        return "P" + index;
    }

    /** Runs {@code kind.main()} on a host of its own: its committed prints, or only its error. */
    private static List<String> runMain(ProgramRunner runner, String kind) {
        WaldoObject program = runner.create(kind, runner.host(kind));
        int before = runner.output().size();
        try {
            runner.call(program, "main");
        } catch (ApplicationException error) {
            return List.of("ApplicationException: " + error.getMessage());
        }
        return new ArrayList<>(runner.output().subList(before, runner.output().size()));
    }
}
