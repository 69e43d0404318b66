package dev.waldo.compiler.syntax;

import java.util.HashMap;
import java.util.Map;

/** The kinds of token the {@link Lexer} produces. Keywords carry their spelling. */
public enum TokenType {
    // Literals and names.
    IDENT(null), NUMBER(null), STRING(null),

    // Keywords (LANGUAGE.md §1).
    ENDPOINT("Endpoint"), SERVICE("Service"), SEQUENCE("Sequence"), STRUCT("Struct"),
    PUBLIC("Public"), PRIVATE("Private"), FUNCTION("Function"), RETURNS("returns"),
    ON_CREATE("onCreate"), NUMBER_TYPE("Number"), TEXT_TYPE("Text"), TRUE_FALSE("TrueFalse"),
    LIST("List"), MAP("Map"), CSET("CSet"), ELEMENT("element"), FROM("from"), TO("to"), NOTHING("Nothing"),
    TRUE("True"), FALSE("False"), IF("if"), ELSE("else"), ELSE_IF("elseIf"), WHILE("while"),
    FOR("for"), IN("in"), BREAK("break"), CONTINUE("continue"), RETURN("return"), TRY("try"),
    CATCH("catch"), FINALLY("finally"), ABORT("abort"), AND("and"), OR("or"), NOT("not"),
    SELF("self"),

    // Punctuation and operators.
    LEFT_PAREN("("), RIGHT_PAREN(")"), LEFT_BRACE("{"), RIGHT_BRACE("}"),
    LEFT_BRACKET("["), RIGHT_BRACKET("]"), COMMA(","), SEMICOLON(";"), DOT("."), COLON(":"),
    AT("@"), ASSIGN("="), PLUS_ASSIGN("+="), MINUS_ASSIGN("-="), STAR_ASSIGN("*="),
    SLASH_ASSIGN("/="), EQUAL("=="), NOT_EQUAL("!="), LESS("<"), LESS_EQUAL("<="),
    GREATER(">"), GREATER_EQUAL(">="), PLUS("+"), MINUS("-"), STAR("*"), SLASH("/"),
    PERCENT("%"),

    /** A character sequence the lexer could not read; it has already reported why. */
    ERROR(null),
    /** The end of the file. */
    EOF(null);

    private static final Map<String, TokenType> KEYWORDS = new HashMap<>();

    static {
        for (TokenType type : values()) {
            if (type.spelling != null && Character.isLetter(type.spelling.charAt(0))) {
                KEYWORDS.put(type.spelling, type);
            }
        }
    }

    private final String spelling;

    TokenType(String spelling) {
        this.spelling = spelling;
    }

    /** Returns the fixed spelling of a keyword or operator, or null for the other kinds. */
    public String spelling() {
        return spelling;
    }

    /** Returns the keyword spelled {@code word}, or null if it is not a keyword. */
    public static TokenType keyword(String word) {
        return KEYWORDS.get(word);
    }

    /** Returns how error messages name this kind of token when no lexeme is at hand. */
    public String describe() {
        return switch (this) {
            case IDENT -> "a name";
            case NUMBER -> "a number";
            case STRING -> "a text literal";
            case ERROR -> "an unreadable character";
            case EOF -> "end of file";
            default -> "'" + spelling + "'";
        };
    }
}
