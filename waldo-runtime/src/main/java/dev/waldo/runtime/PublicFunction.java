package dev.waldo.runtime;

import dev.waldo.runtime.lang.ValueType;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The signature of one Public function of a generated class, as {@link WaldoObject#functions()}
 * lists it and {@link WaldoObject#invoke} checks calls against it.
 *
 * @param name       the function's name in the Waldo source (not its mangled Java name)
 * @param parameters its parameters in order
 * @param result     its result type as Waldo spells it ({@code Nothing} for none)
 */
public record PublicFunction(String name, List<Parameter> parameters, String result) {
    /** One parameter: its Waldo name and type. */
    public record Parameter(String name, ValueType type) {
        /** Validates the parts. */
        public Parameter {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }

        @Override
        public String toString() {
            return type + " " + name;
        }
    }

    /** Validates and copies the parts. */
    public PublicFunction {
        Objects.requireNonNull(name, "name");
        parameters = List.copyOf(parameters);
        Objects.requireNonNull(result, "result");
    }

    /** A signature, as generated code declares it. */
    public static PublicFunction of(String name, String result, Parameter... parameters) {
        return new PublicFunction(name, List.of(parameters), result);
    }

    /**
     * {@code args} checked against the parameters and converted as Waldo holds them
     * ({@link ValueType#accept}).
     *
     * @param owner the kind, for the error message
     * @throws IllegalArgumentException on a wrong count of arguments, or naming the first parameter
     *     whose argument does not fit
     */
    Object[] accept(String owner, Object[] args) {
        if (args.length != parameters.size()) {
            throw new IllegalArgumentException(owner + "." + this + " takes " + parameters.size() + " argument"
                    + (parameters.size() == 1 ? "" : "s") + ", got " + args.length);
        }
        Object[] accepted = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            Parameter parameter = parameters.get(i);
            try {
                accepted[i] = parameter.type().accept(args[i]);
            } catch (IllegalArgumentException mismatch) {
                throw new IllegalArgumentException(owner + "." + name + ": argument " + (i + 1) + " ('"
                        + parameter.name() + "') " + mismatch.getMessage());
            }
        }
        return accepted;
    }

    /** The signature as Waldo spells it: {@code take(Number n) returns Number}. */
    @Override
    public String toString() {
        String params = parameters.stream().map(Parameter::toString).collect(Collectors.joining(", "));
        return name + "(" + params + ")" + (result.equals("Nothing") ? "" : " returns " + result);
    }
}
