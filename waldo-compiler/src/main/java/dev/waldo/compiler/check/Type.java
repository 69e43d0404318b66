package dev.waldo.compiler.check;

/**
 * A checked type (LANGUAGE.md §3). Types compare by value: two {@code ListType}s with equal
 * element types are the same type, and struct types are equal when their names are.
 */
public sealed interface Type permits Type.NumberType, Type.TextType, Type.BoolType,
        Type.NothingType, Type.EndpointType, Type.ListType, Type.MapType, Type.CSetType, Type.StructType,
        Type.DynamicType, Type.ErrorType {

    /** {@code Number}. */
    NumberType NUMBER = new NumberType();
    /** {@code Text}. */
    TextType TEXT = new TextType();
    /** {@code TrueFalse}. */
    BoolType BOOL = new BoolType();
    /** {@code Nothing}. */
    NothingType NOTHING = new NothingType();
    /** {@code Endpoint}. */
    EndpointType ENDPOINT = new EndpointType();
    /** See {@link DynamicType}. */
    DynamicType DYNAMIC = new DynamicType();
    /** See {@link ErrorType}. */
    ErrorType ERROR = new ErrorType();

    /** Returns the type as the user writes it, for error messages. */
    String display();

    /** IEEE double. */
    record NumberType() implements Type {
        @Override
        public String display() {
            return "Number";
        }
    }

    /** A string. */
    record TextType() implements Type {
        @Override
        public String display() {
            return "Text";
        }
    }

    /** {@code TrueFalse}: a boolean. */
    record BoolType() implements Type {
        @Override
        public String display() {
            return "TrueFalse";
        }
    }

    /** No value: the result of procedures and of calls used as statements. */
    record NothingType() implements Type {
        @Override
        public String display() {
            return "Nothing";
        }
    }

    /** A reference to an endpoint or service, of any kind. */
    record EndpointType() implements Type {
        @Override
        public String display() {
            return "Endpoint";
        }
    }

    /** {@code List(element: T)}. */
    record ListType(Type element) implements Type {
        @Override
        public String display() {
            return "List(element: " + element.display() + ")";
        }
    }

    /** {@code Map(from: K, to: V)}; K is Number, Text or TrueFalse. */
    record MapType(Type key, Type value) implements Type {
        @Override
        public String display() {
            return "Map(from: " + key.display() + ", to: " + value.display() + ")";
        }
    }

    /**
     * {@code CSet(element: T)}, a counting set; T is Number, Text or TrueFalse. Only endpoint and
     * service variables have it: its adds and removes commute across transactions.
     */
    record CSetType(Type element) implements Type {
        @Override
        public String display() {
            return "CSet(element: " + element.display() + ")";
        }
    }

    /** A struct, by name; its fields are in {@link CheckedProgram#structs()}. */
    record StructType(String name) implements Type {
        @Override
        public String display() {
            return name;
        }
    }

    /**
     * The result of a call on an {@code Endpoint} value whose possible targets disagree on the
     * result type. It is checked at run time. The checker replaces it with the type the context
     * needs wherever the value is used, so in a checked program only a call whose value is
     * thrown away (an expression statement) still has this type.
     */
    record DynamicType() implements Type {
        @Override
        public String display() {
            return "a value of unknown type";
        }
    }

    /**
     * The type of an expression that already has an error reported. It is compatible with
     * everything so one mistake does not cause follow-on errors; it never appears in a program
     * that checked without errors.
     */
    record ErrorType() implements Type {
        @Override
        public String display() {
            return "<error>";
        }
    }
}
