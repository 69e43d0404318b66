package dev.waldo.compiler.check;

import dev.waldo.compiler.syntax.Decl;
import dev.waldo.compiler.syntax.Member;
import java.util.Map;

/**
 * A checked endpoint kind or service.
 *
 * @param name      the kind's name
 * @param isService whether it is a {@code Service} rather than an {@code Endpoint}
 * @param decl      its declaration ({@link Decl.EndpointDecl} or {@link Decl.ServiceDecl})
 * @param variables its variables in declaration order
 * @param functions its functions in declaration order
 * @param onCreate  its onCreate, or null
 * @param partner   the endpoint kind its sequences connect it to, or null if it takes part in
 *                  no sequence (always null for services)
 */
public record KindInfo(String name, boolean isService, Decl decl,
                       Map<String, Symbol.MemberVar> variables,
                       Map<String, Symbol.FunctionSym> functions,
                       Member.OnCreate onCreate, String partner) {}
