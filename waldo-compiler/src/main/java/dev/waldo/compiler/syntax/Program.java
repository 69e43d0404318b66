package dev.waldo.compiler.syntax;

import java.util.List;

/**
 * A whole Waldo program: the top-level declarations of every source file, in the order the
 * files were given and, within a file, in source order. Each declaration's span names its file.
 *
 * @param decls the top-level declarations
 */
public record Program(List<Decl> decls) {}
