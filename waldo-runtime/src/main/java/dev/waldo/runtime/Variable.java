package dev.waldo.runtime;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A typed handle on one variable of a generated endpoint or service class. waldoc emits one
 * public constant per variable ({@code SystemGroup.LOCATION} for variable {@code location} of
 * Service {@code SystemGroup}), so host code and bindings never name a Waldo variable by a
 * string: they read its committed value with {@link WaldoObject#committed(Variable)}, find what a
 * transaction changed with {@link BoundTransaction#change(WaldoObject, Variable)} and
 * {@link #after(BoundTransaction.Change)}, and read the device mapping from {@link #annotation}.
 *
 * @param <T> the variable's Java value type ({@code String}, {@code Double}, {@code Boolean},
 *     {@code WList<...>}, {@code WMap<...>}, a struct class or {@code EndpointRef})
 */
public final class Variable<T> {
    private final Class<? extends WaldoObject> owner;
    private final String name;
    private final Class<? super T> type;
    private final List<Annotation> annotations;

    private Variable(Class<? extends WaldoObject> owner, String name, Class<? super T> type,
            List<Annotation> annotations) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.annotations = List.copyOf(annotations);
    }

    /**
     * Describes variable {@code name} of the generated class {@code owner}; called by generated
     * code (and by hand-written objects in tests).
     *
     * @param type the value's raw Java class, checked when a value is read through the handle
     * @param annotations the annotations written on the declaration, in source order
     */
    public static <T> Variable<T> of(Class<? extends WaldoObject> owner, String name, Class<? super T> type,
            Annotation... annotations) {
        return new Variable<>(owner, name, type, List.of(annotations));
    }

    /** The generated class that declares the variable. */
    public Class<? extends WaldoObject> owner() {
        return owner;
    }

    /** The variable's name in the Waldo source (for messages; code should hold the handle instead). */
    public String name() {
        return name;
    }

    /** The raw Java class of the variable's values. */
    public Class<? super T> type() {
        return type;
    }

    /** The annotations written on the declaration, in source order. */
    public List<Annotation> annotations() {
        return annotations;
    }

    /** The annotation named {@code annotationName} (without '@') on the declaration, if there is one. */
    public Optional<Annotation> annotation(String annotationName) {
        return annotations.stream().filter(a -> a.name().equals(annotationName)).findFirst();
    }

    /** Whether {@code change} is a change of this variable (of any object of the owner class). */
    public boolean matches(BoundTransaction.Change change) {
        return owner.isInstance(change.owner()) && name.equals(change.variable());
    }

    /** The value {@code change} found committed before the transaction. */
    public T before(BoundTransaction.Change change) {
        return cast(own(change).before());
    }

    /** The value the transaction of {@code change} commits. */
    public T after(BoundTransaction.Change change) {
        return cast(own(change).after());
    }

    private BoundTransaction.Change own(BoundTransaction.Change change) {
        if (!matches(change)) {
            throw new IllegalArgumentException("a change of " + change.owner().kind() + "." + change.variable()
                    + " is not a change of " + this);
        }
        return change;
    }

    /**
     * {@code value} as this variable's type; a mismatch is a bug in the generated code or the
     * runtime. Null passes: an Endpoint variable that was never set holds none.
     */
    @SuppressWarnings("unchecked")
    T cast(Object value) {
        if (value != null && !type.isInstance(value)) {
            throw new IllegalStateException(this + " holds a " + (value == null ? "null" : value.getClass().getName())
                    + ", not a " + type.getName());
        }
        return (T) value;
    }

    /** {@code Kind.name}, e.g. {@code SystemGroup.location}. */
    @Override
    public String toString() {
        return owner.getSimpleName() + "." + name;
    }
}
