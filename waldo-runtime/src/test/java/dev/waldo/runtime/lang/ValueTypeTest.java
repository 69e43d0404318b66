package dev.waldo.runtime.lang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Values host code passes untyped are checked all the way down and converted as Waldo holds them. */
class ValueTypeTest {
    private static final ValueType GRID = ValueType.list(ValueType.list(ValueType.NUMBER));

    @Test
    void javaCollectionsOfJavaNumbersBecomeWaldoListsOfDoubles() {
        Object accepted = GRID.accept(List.of(List.of(1, 2L), List.of(3.5f)));

        assertThat(accepted).isInstanceOf(WList.class).isEqualTo(WList.of(WList.of(1.0, 2.0), WList.of(3.5)));
    }

    @Test
    void theCallersContainerIsCopiedNotKept() {
        List<Object> row = new ArrayList<>(List.of(1.0));
        @SuppressWarnings("unchecked")
        WList<WList<Double>> accepted = (WList<WList<Double>>) GRID.accept(List.of(row));
        row.add(2.0);

        assertThat(accepted.get(0)).containsExactly(1.0);
    }

    @Test
    void aMismatchInsideAContainerSaysWhere() {
        assertThatThrownBy(() -> GRID.accept(List.of(List.of(1), List.of(2, "three"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("should be List(element: List(element: Number)), but [1][1] is String three"
                        + " (should be Number)");
        ValueType counts = ValueType.map(ValueType.TEXT, ValueType.NUMBER);
        assertThatThrownBy(() -> counts.accept(Map.of('x', 1)))
                .hasMessage("should be Map(from: Text, to: Number), but key x is Character x (should be Text)");
    }

    @Test
    void scalarsAreNotConvertedBetweenKinds() {
        assertThatThrownBy(() -> ValueType.TEXT.accept('c')).hasMessage("should be Text, got Character c");
        assertThatThrownBy(() -> ValueType.TRUE_FALSE.accept(1)).hasMessage("should be TrueFalse, got Integer 1");
        assertThatThrownBy(() -> ValueType.NUMBER.accept(null)).hasMessage("should be Number, got null");
        assertThat(ValueType.ENDPOINT.accept(null)).isNull();
    }
}
