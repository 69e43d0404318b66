package dev.waldo.compiler.syntax;

import dev.waldo.compiler.diag.Span;
import java.util.List;

/** A top-level declaration (LANGUAGE.md §2). */
public sealed interface Decl permits Decl.EndpointDecl, Decl.ServiceDecl, Decl.StructDecl, Decl.SequenceDecl {

    /** The declared name. */
    String name();

    /** Where the declared name is written; errors about the declaration point here. */
    Span nameSpan();

    /** From the keyword to the closing brace. */
    Span span();

    /**
     * {@code Endpoint Name { members }}: one kind of endpoint.
     *
     * @param doc the doc comment before the declaration, or null
     */
    record EndpointDecl(String name, List<Member> members, String doc, Span nameSpan, Span span)
            implements Decl {}

    /**
     * {@code Service Name { members }}: state and code on one host that drives many endpoints.
     *
     * @param doc the doc comment before the declaration, or null
     */
    record ServiceDecl(String name, List<Member> members, String doc, Span nameSpan, Span span)
            implements Decl {}

    /**
     * {@code Struct Name { Type field; ... }}. Fields are {@link VarDecl}s; an initializer on a
     * field is a syntax error reported by the parser, so {@code init()} is always null here.
     *
     * @param doc the doc comment before the declaration, or null
     */
    record StructDecl(String name, List<VarDecl> fields, String doc, Span nameSpan, Span span)
            implements Decl {}

    /**
     * {@code Sequence Name(params) [returns Type [resultName]] { data steps }}.
     *
     * @param params     the arguments, which are sequence data
     * @param returnType the declared result type, or null when the sequence returns Nothing
     * @param resultName the named result variable (itself sequence data), or null
     * @param data       the data declarations before the steps
     * @param steps      the steps in source order
     * @param doc        the doc comment before the declaration, or null
     */
    record SequenceDecl(String name, List<Param> params, TypeRef returnType, String resultName,
                        List<VarDecl> data, List<Step> steps, String doc, Span nameSpan, Span span)
            implements Decl {}

    /**
     * One step of a sequence, {@code Kind.stepName { body }}.
     *
     * @param kind     the endpoint kind that runs the step
     * @param kindSpan where the kind is written
     * @param name     the step's name
     */
    record Step(String kind, Span kindSpan, String name, Stmt.Block body, Span span) {}
}
