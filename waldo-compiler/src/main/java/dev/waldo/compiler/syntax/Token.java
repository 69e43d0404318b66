package dev.waldo.compiler.syntax;

import dev.waldo.compiler.diag.Span;

/**
 * One token of a source file.
 *
 * @param type   what kind of token it is
 * @param lexeme the exact source text of the token
 * @param value  the token's value: a {@code Double} for numbers, the unescaped {@code String}
 *               for text literals, null otherwise
 * @param span   where it is
 * @param doc    the text of the {@code /** ... *&#47;} doc comment right before it, or null
 */
public record Token(TokenType type, String lexeme, Object value, Span span, String doc) {

    /** Returns how error messages quote this token: {@code 'foo'} or {@code end of file}. */
    public String describe() {
        return switch (type) {
            case EOF, ERROR -> type.describe();
            case STRING -> "text literal " + lexeme;
            default -> "'" + lexeme + "'";
        };
    }
}
