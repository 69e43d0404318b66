package dev.waldo.compiler.syntax;

import dev.waldo.compiler.diag.Diagnostics;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.diag.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns one source file into tokens (LANGUAGE.md §1). Errors are reported to the shared
 * {@link Diagnostics}; an unreadable stretch becomes one {@link TokenType#ERROR} token so the
 * parser can skip it without reporting a second error for the same mistake.
 */
public final class Lexer {
    private final SourceFile source;
    private final String text;
    private final Diagnostics diagnostics;
    private final List<Token> tokens = new ArrayList<>();
    private int offset;
    private int line = 1;
    private int lineStart;
    private int tokenStart;
    private int tokenLine;
    private int tokenCol;
    private String pendingDoc;

    /** Creates a lexer for {@code source} that reports errors to {@code diagnostics}. */
    public Lexer(SourceFile source, Diagnostics diagnostics) {
        this.source = source;
        this.text = source.text();
        this.diagnostics = diagnostics;
    }

    /** Reads the whole file; the list always ends with one {@link TokenType#EOF} token. */
    public List<Token> tokenize() {
        if (text.startsWith("\uFEFF")) {
            offset = 1; // Editors on some systems start UTF-8 files with a byte order mark.
            lineStart = 1;
        }
        while (true) {
            skipSpaceAndComments();
            markStart();
            if (offset >= text.length()) {
                add(TokenType.EOF, null);
                return tokens;
            }
            scanToken();
        }
    }

    private void scanToken() {
        char c = advance();
        if (isLetter(c)) {
            identifier();
        } else if (isDigit(c)) {
            number();
        } else if (c == '\'' || c == '"') {
            string(c);
        } else {
            operator(c);
        }
    }

    private void identifier() {
        while (offset < text.length() && (isLetter(peek()) || isDigit(peek()) || peek() == '_')) {
            offset++;
        }
        TokenType keyword = TokenType.keyword(text.substring(tokenStart, offset));
        add(keyword == null ? TokenType.IDENT : keyword, null);
    }

    // number = DIGIT+ [ "." DIGIT+ ] [ ("e" | "E") [ "+" | "-" ] DIGIT+ ] ;
    private void number() {
        skipDigits();
        if (peek() == '.' && isDigit(peekNext())) {
            offset++;
            skipDigits();
        }
        if (peek() == 'e' || peek() == 'E') {
            int exponentStart = offset;
            offset++;
            if (peek() == '+' || peek() == '-') {
                offset++;
            }
            if (!isDigit(peek())) {
                offset = exponentStart + 1;
                errorToken("malformed number '" + text.substring(tokenStart, offset)
                        + "': expected digits after the exponent");
                return;
            }
            skipDigits();
        }
        String lexeme = text.substring(tokenStart, offset);
        double value = Double.parseDouble(lexeme);
        if (Double.isInfinite(value)) {
            errorToken("number '" + lexeme + "' is too large for a Number");
            return;
        }
        add(TokenType.NUMBER, value);
    }

    private void skipDigits() {
        while (isDigit(peek())) {
            offset++;
        }
    }

    // string = "'" { CHAR | ESCAPE } "'" | '"' { CHAR | ESCAPE } '"' ;
    private void string(char quote) {
        StringBuilder value = new StringBuilder();
        boolean badEscape = false;
        while (offset < text.length() && peek() != quote && peek() != '\n') {
            char c = advance();
            if (c == '\\' && offset < text.length() && peek() != '\n') {
                char escaped = advance();
                switch (escaped) {
                    case 'n' -> value.append('\n');
                    case 't' -> value.append('\t');
                    case '\\', '\'', '"' -> value.append(escaped);
                    default -> {
                        if (!badEscape) {
                            reportAt(offset - 2, "unknown escape '\\" + escaped
                                    + "' in text literal; use \\n, \\t, \\\\, \\' or \\\"");
                        }
                        badEscape = true;
                    }
                }
            } else {
                value.append(c);
            }
        }
        if (offset >= text.length() || peek() == '\n') {
            errorToken("unterminated text literal: add the closing " + quote + " on the same line");
            return;
        }
        offset++;
        add(badEscape ? TokenType.ERROR : TokenType.STRING, value.toString());
    }

    private void operator(char c) {
        TokenType type = switch (c) {
            case '(' -> TokenType.LEFT_PAREN;
            case ')' -> TokenType.RIGHT_PAREN;
            case '{' -> TokenType.LEFT_BRACE;
            case '}' -> TokenType.RIGHT_BRACE;
            case '[' -> TokenType.LEFT_BRACKET;
            case ']' -> TokenType.RIGHT_BRACKET;
            case ',' -> TokenType.COMMA;
            case ';' -> TokenType.SEMICOLON;
            case '.' -> TokenType.DOT;
            case ':' -> TokenType.COLON;
            case '@' -> TokenType.AT;
            case '%' -> TokenType.PERCENT;
            case '=' -> match('=') ? TokenType.EQUAL : TokenType.ASSIGN;
            case '+' -> match('=') ? TokenType.PLUS_ASSIGN : TokenType.PLUS;
            case '-' -> match('=') ? TokenType.MINUS_ASSIGN : TokenType.MINUS;
            case '*' -> match('=') ? TokenType.STAR_ASSIGN : TokenType.STAR;
            case '/' -> match('=') ? TokenType.SLASH_ASSIGN : TokenType.SLASH;
            case '<' -> match('=') ? TokenType.LESS_EQUAL : TokenType.LESS;
            case '>' -> match('=') ? TokenType.GREATER_EQUAL : TokenType.GREATER;
            case '!' -> match('=') ? TokenType.NOT_EQUAL : null;
            default -> null;
        };
        if (type != null) {
            add(type, null);
        } else if (c == '!') {
            errorToken("unexpected character '!': Waldo writes negation as 'not' and inequality as '!='");
        } else {
            errorToken("unexpected character " + quoteChar(c));
        }
    }

    private void skipSpaceAndComments() {
        while (offset < text.length()) {
            char c = peek();
            if (c == '\n') {
                offset++;
                line++;
                lineStart = offset;
            } else if (Character.isWhitespace(c)) {
                offset++;
            } else if (c == '/' && peekNext() == '/') {
                while (offset < text.length() && peek() != '\n') {
                    offset++;
                }
            } else if (c == '/' && peekNext() == '*') {
                blockComment();
            } else {
                return;
            }
        }
    }

    // A "/** ... */" comment is kept and attached to the next token, for tools and the emitter.
    private void blockComment() {
        markStart();
        boolean isDoc = text.startsWith("/**", offset) && !text.startsWith("/**/", offset);
        offset += 2;
        int bodyStart = offset;
        while (offset < text.length() && !text.startsWith("*/", offset)) {
            if (advance() == '\n') {
                line++;
                lineStart = offset;
            }
        }
        if (offset >= text.length()) {
            diagnostics.error(startSpan(), "unterminated comment: add the closing */");
            return;
        }
        if (isDoc) {
            pendingDoc = text.substring(bodyStart + 1, offset).strip();
        }
        offset += 2;
    }

    private void errorToken(String message) {
        diagnostics.error(startSpan(), message);
        add(TokenType.ERROR, null);
    }

    private void reportAt(int at, String message) {
        diagnostics.error(new Span(source.name(), line, at - lineStart + 1, at, at + 1), message);
    }

    private void markStart() {
        tokenStart = offset;
        tokenLine = line;
        tokenCol = offset - lineStart + 1;
    }

    private Span startSpan() {
        return new Span(source.name(), tokenLine, tokenCol, tokenStart, Math.max(offset, tokenStart + 1));
    }

    private void add(TokenType type, Object value) {
        Span span = new Span(source.name(), tokenLine, tokenCol, tokenStart, offset);
        tokens.add(new Token(type, text.substring(tokenStart, offset), value, span, pendingDoc));
        pendingDoc = null;
    }

    private char advance() {
        return text.charAt(offset++);
    }

    private boolean match(char expected) {
        if (peek() != expected) {
            return false;
        }
        offset++;
        return true;
    }

    private char peek() {
        return offset < text.length() ? text.charAt(offset) : '\0';
    }

    private char peekNext() {
        return offset + 1 < text.length() ? text.charAt(offset + 1) : '\0';
    }

    private static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String quoteChar(char c) {
        if (c < ' ' || c > '~') {
            return String.format("U+%04X", (int) c);
        }
        return "'" + c + "'";
    }
}
