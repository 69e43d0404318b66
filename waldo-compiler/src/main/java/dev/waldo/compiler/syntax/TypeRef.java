package dev.waldo.compiler.syntax;

import dev.waldo.compiler.diag.Span;

/** A type as written in the source (LANGUAGE.md §3); the checker turns it into a type. */
public sealed interface TypeRef permits TypeRef.Basic, TypeRef.ListOf, TypeRef.MapOf, TypeRef.CSetOf,
        TypeRef.Named {

    /** Where the type is written. */
    Span span();

    /** The built-in type names. */
    enum BasicKind { NUMBER, TEXT, TRUE_FALSE, NOTHING, ENDPOINT }

    /** {@code Number}, {@code Text}, {@code TrueFalse}, {@code Nothing} or {@code Endpoint}. */
    record Basic(BasicKind kind, Span span) implements TypeRef {}

    /** {@code List(element: T)} or its other spelling {@code List<T>}. */
    record ListOf(TypeRef element, Span span) implements TypeRef {}

    /** {@code Map(from: K, to: V)}. */
    record MapOf(TypeRef key, TypeRef value, Span span) implements TypeRef {}

    /** {@code CSet(element: T)} or {@code CSet<T>}: a counting set (see {@code LANGUAGE-NOTES.md}). */
    record CSetOf(TypeRef element, Span span) implements TypeRef {}

    /** A struct's name, written {@code Vlan} or {@code Struct Vlan}. */
    record Named(String name, Span span) implements TypeRef {}
}
