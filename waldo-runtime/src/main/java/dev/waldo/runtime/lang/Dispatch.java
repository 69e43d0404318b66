package dev.waldo.runtime.lang;

import dev.waldo.runtime.ApplicationException;
import dev.waldo.runtime.WaldoObject;

/**
 * Checks for calls that arrive from other endpoints, where the static checker
 * could not see the target's type (Waldo's {@code Endpoint} is untyped). A bad
 * call raises {@link ApplicationException}, as LANGUAGE.md §4 requires.
 */
public final class Dispatch {
    private Dispatch() {
    }

    /** Fails unless {@code args} has exactly {@code count} entries. */
    public static void expectArity(WaldoObject target, String function, Object[] args, int count) {
        if (args.length != count) {
            throw new ApplicationException(target.kind() + "." + function + " takes " + count
                    + " argument(s), got " + args.length);
        }
    }

    /** Argument {@code index} as {@code type}, or an ApplicationException naming the mismatch. */
    public static <T> T argument(WaldoObject target, String function, Object[] args, int index, Class<T> type) {
        Object value = args[index];
        if (!type.isInstance(value)) {
            throw new ApplicationException(target.kind() + "." + function + ": argument " + (index + 1)
                    + " should be " + waldoTypeName(type) + ", got " + Values.toText(value));
        }
        return type.cast(value);
    }

    /** The error for a call of a function that is missing or not Public on {@code target}. */
    public static ApplicationException noSuchFunction(WaldoObject target, String function) {
        return new ApplicationException(target.kind() + " has no Public function '" + function + "'");
    }

    /** The error for a partner step this endpoint does not have. */
    public static ApplicationException noSuchStep(WaldoObject target, String sequence, int step) {
        return new ApplicationException(target.kind() + " has no step " + step + " of sequence '" + sequence + "'");
    }

    /** Casts a value that crossed an untyped boundary (a call on an Endpoint) to the type the code expects. */
    public static <T> T result(Object value, Class<T> type, String what) {
        if (!type.isInstance(value)) {
            throw new ApplicationException(what + " returned " + Values.toText(value) + ", expected "
                    + waldoTypeName(type));
        }
        return type.cast(value);
    }

    private static String waldoTypeName(Class<?> type) {
        if (type == Double.class) {
            return "Number";
        }
        if (type == String.class) {
            return "Text";
        }
        if (type == Boolean.class) {
            return "TrueFalse";
        }
        if (type == WList.class) {
            return "List";
        }
        if (type == WMap.class) {
            return "Map";
        }
        return type.getSimpleName();
    }
}
