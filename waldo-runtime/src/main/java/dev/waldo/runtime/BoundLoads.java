package dev.waldo.runtime;

/**
 * Asks a host's bindings for the value a transaction starts a bound variable
 * from ({@link Binding#load}): the runtime's half of reading an outside
 * system inside a transaction. A load happens under the variable's lock,
 * which an earlier transaction whose bindings took part on this host keeps
 * until their commit or abort returned: so a load never reads the outside
 * system in the middle of another transaction's commit or undo.
 */
final class BoundLoads {
    private BoundLoads() {
    }

    /** Whether some binding of {@code host} is bound to one of {@code cell}'s annotations. */
    static boolean bound(Host host, Cell cell) {
        for (Annotation annotation : cell.annotations()) {
            if (host.binding(annotation.name()) != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code cell} is a Map that a binding of {@code host} locks per key ({@link
     * Binding#keyed}) rather than as a whole.
     */
    static boolean keyed(Host host, Cell cell) {
        for (Annotation annotation : cell.annotations()) {
            Binding binding = host.binding(annotation.name());
            if (binding != null && binding.keyed(annotation)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The value the first binding that loads {@code cell} returns for attempt {@code transaction},
     * or null when none does.
     *
     * @throws ApplicationException when a binding fails to load, with its message
     */
    static Object load(Host host, Cell cell, String transaction) {
        for (Annotation annotation : cell.annotations()) {
            Binding binding = host.binding(annotation.name());
            if (binding == null) {
                continue;
            }
            Object loaded;
            try {
                loaded = binding.load(cell.owner(), cell.name(), annotation, transaction);
            } catch (AbortSignal | WaldoException e) {
                throw e;
            } catch (Exception e) {
                throw new ApplicationException(e.getMessage() == null ? e.toString() : e.getMessage());
            }
            if (loaded != null) {
                return loaded;
            }
        }
        return null;
    }
}
