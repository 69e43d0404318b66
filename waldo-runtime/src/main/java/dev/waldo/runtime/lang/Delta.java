package dev.waldo.runtime.lang;

import java.util.List;

/**
 * A commuting update a transaction made without reading the value it
 * updates: what it adds to a Number or appends to a List. Deltas of
 * concurrent transactions are applied to the committed value one after the
 * other as they install, in any order, so every one of them counts.
 */
public sealed interface Delta {
    /** The value {@code committed} becomes with this delta applied; {@code committed} is left as it was. */
    Object applyTo(Object committed);

    /** This delta followed by {@code later} (a transaction that adds twice installs the sum). */
    Delta then(Delta later);

    /** Adds {@code amount} to a Number ({@code +=}, and {@code -=} with the amount negated). */
    record Add(double amount) implements Delta {
        @Override
        public Object applyTo(Object committed) {
            if (!(committed instanceof Double number)) {
                throw new IllegalStateException("+= on a value that is not a Number: " + committed);
            }
            return number + amount;
        }

        @Override
        public Delta then(Delta later) {
            return new Add(amount + ((Add) later).amount);
        }
    }

    /** Appends {@code elements} (copies the transaction owns) to a List, in order. */
    record Append(List<Object> elements) implements Delta {
        /** Copies the list of elements, not the elements: they already belong to the delta. */
        public Append {
            elements = List.copyOf(elements);
        }

        @Override
        public Object applyTo(Object committed) {
            if (!(committed instanceof WList<?> list)) {
                throw new IllegalStateException("append to a value that is not a List: " + committed);
            }
            // Shallow: committed values are never mutated, and each install takes its own copies.
            WList<Object> result = new WList<>(list);
            for (Object element : elements) {
                result.add(Values.copy(element));
            }
            return result;
        }

        @Override
        public Delta then(Delta later) {
            List<Object> all = new java.util.ArrayList<>(elements);
            all.addAll(((Append) later).elements);
            return new Append(all);
        }
    }
}
