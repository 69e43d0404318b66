package dev.waldo.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Which participants a prepare names, so that a large change does not cost N² names and queries. */
class NamedPeersTest {

    private static NavigableSet<Integer> hosts(int from, int to) {
        return IntStream.rangeClosed(from, to).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void aSmallTransactionNamesEveryParticipant() {
        NavigableSet<Integer> participants = hosts(1, CoreState.NAMED_PEERS + 1);
        assertThat(CoreState.namedTo(5, participants)).isEqualTo(participants);
    }

    @Test
    void aThousandParticipantsAreEachToldTheirSuccessorsOnTheRingAndEachIsNamedToSomeOthers() {
        NavigableSet<Integer> participants = hosts(2, 1_001);
        Map<Integer, Integer> namedBy = new HashMap<>();
        long names = 0;
        for (int recipient : participants) {
            Set<Integer> named = CoreState.namedTo(recipient, participants);
            assertThat(named).hasSize(CoreState.NAMED_PEERS + 1).contains(recipient);
            assertThat(participants).containsAll(named);
            names += named.size();
            named.stream().filter(peer -> peer != recipient).forEach(peer -> namedBy.merge(peer, 1, Integer::sum));
        }
        assertThat(names).as("names sent for 1,000 participants, against 1,000,000 when each is told all")
                .isEqualTo(1_000L * (CoreState.NAMED_PEERS + 1));
        assertThat(namedBy).as("every participant can be asked by the ones before it on the ring")
                .hasSize(participants.size())
                .allSatisfy((peer, count) -> assertThat(count).isEqualTo(CoreState.NAMED_PEERS));
        assertThat(CoreState.namedTo(1_001, participants)).as("the ring wraps around")
                .containsExactlyInAnyOrderElementsOf(hosts(2, CoreState.NAMED_PEERS + 1).stream()
                        .collect(Collectors.toCollection(() -> new TreeSet<>(Set.of(1_001)))));
    }

    @Test
    void aRecipientNotAmongTheKnownParticipantsIsToldTheOnesAfterItsPlace() {
        NavigableSet<Integer> participants = hosts(10, 100);
        NavigableSet<Integer> withoutFive = new TreeSet<>(participants);
        withoutFive.remove(55);
        assertThat(CoreState.namedTo(55, withoutFive)).containsExactlyElementsOf(
                hosts(55, 55 + CoreState.NAMED_PEERS));
    }
}
