/**
 * Waldo syntax: {@link dev.waldo.compiler.syntax.Lexer} turns a file into
 * {@link dev.waldo.compiler.syntax.Token}s and {@link dev.waldo.compiler.syntax.Parser} builds the
 * tree: a {@link dev.waldo.compiler.syntax.Program} of {@link dev.waldo.compiler.syntax.Decl}s,
 * whose bodies are {@link dev.waldo.compiler.syntax.Member}s,
 * {@link dev.waldo.compiler.syntax.Stmt}s, {@link dev.waldo.compiler.syntax.Expr}s and
 * {@link dev.waldo.compiler.syntax.TypeRef}s. All nodes are records under sealed interfaces and
 * carry a {@link dev.waldo.compiler.diag.Span}; later passes switch over them exhaustively.
 */
package dev.waldo.compiler.syntax;
