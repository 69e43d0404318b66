package dev.waldo.compiler.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldo.compiler.diag.Diagnostic;
import dev.waldo.compiler.diag.Diagnostics;
import dev.waldo.compiler.diag.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

class LexerTest {
    private final Diagnostics diagnostics = new Diagnostics();

    private List<Token> lex(String text) {
        return new Lexer(new SourceFile("l.wld", text), diagnostics).tokenize();
    }

    private List<TokenType> types(String text) {
        return lex(text).stream().map(Token::type).toList();
    }

    private List<String> errors() {
        return diagnostics.all().stream().map(Diagnostic::headline).toList();
    }

    @Test
    void numbersInEveryForm() {
        List<Token> tokens = lex("12 3.5 1e3 2.5E-1 7e+2 0");
        assertThat(tokens.subList(0, 6)).extracting(Token::value)
                .containsExactly(12.0, 3.5, 1000.0, 0.25, 700.0, 0.0);
        assertThat(errors()).isEmpty();
    }

    @Test
    void aDotWithoutDigitsEndsTheNumber() {
        assertThat(types("1.x")).containsExactly(TokenType.NUMBER, TokenType.DOT, TokenType.IDENT, TokenType.EOF);
    }

    @Test
    void exponentWithoutDigitsIsAnError() {
        assertThat(types("1e+ x")).containsExactly(TokenType.ERROR, TokenType.PLUS, TokenType.IDENT, TokenType.EOF);
        assertThat(errors()).containsExactly("l.wld:1:1: error: malformed number '1e': expected digits after the exponent");
    }

    @Test
    void textEscapesAndBothQuotes() {
        List<Token> tokens = lex("'a\\nb\\t\\\\\\'' \"say \\\"hi\\\" it's\"");
        assertThat(tokens.get(0).value()).isEqualTo("a\nb\t\\'");
        assertThat(tokens.get(1).value()).isEqualTo("say \"hi\" it's");
        assertThat(errors()).isEmpty();
    }

    @Test
    void unknownEscapeIsReportedOnce() {
        List<Token> tokens = lex("'\\q\\z' x");
        assertThat(tokens.get(0).type()).isEqualTo(TokenType.ERROR);
        assertThat(tokens.get(1).type()).isEqualTo(TokenType.IDENT);
        assertThat(errors()).hasSize(1).first().asString().contains("1:2").contains("unknown escape '\\q'");
    }

    @Test
    void unterminatedTextStopsAtTheEndOfTheLine() {
        List<Token> tokens = lex("x = 'open\ny = 2;");
        assertThat(tokens).extracting(Token::type).containsSubsequence(TokenType.ERROR, TokenType.IDENT,
                TokenType.ASSIGN, TokenType.NUMBER);
        assertThat(errors()).containsExactly("l.wld:1:5: error: unterminated text literal: add the closing ' on the same line");
    }

    @Test
    void unterminatedCommentIsReportedWhereItStarts() {
        assertThat(types("a /* never\n closed")).containsExactly(TokenType.IDENT, TokenType.EOF);
        assertThat(errors()).containsExactly("l.wld:1:3: error: unterminated comment: add the closing */");
    }

    @Test
    void docCommentsAreKeptOnTheNextToken() {
        List<Token> tokens = lex("/** Says hello.\n * Twice. */ Endpoint /* plain */ E // line\n");
        assertThat(tokens.get(0).doc()).isEqualTo("Says hello.\n * Twice.");
        assertThat(tokens.get(1).doc()).isNull();
        assertThat(types("/**/ x")).containsExactly(TokenType.IDENT, TokenType.EOF);
    }

    @Test
    void keywordsAreCaseSensitiveAndOperatorsLongestFirst() {
        assertThat(types("Endpoint endpoint elseIf else if")).containsExactly(TokenType.ENDPOINT,
                TokenType.IDENT, TokenType.ELSE_IF, TokenType.ELSE, TokenType.IF, TokenType.EOF);
        assertThat(types("== = != <= < >= > += -= *= /=")).containsExactly(TokenType.EQUAL,
                TokenType.ASSIGN, TokenType.NOT_EQUAL, TokenType.LESS_EQUAL, TokenType.LESS,
                TokenType.GREATER_EQUAL, TokenType.GREATER, TokenType.PLUS_ASSIGN, TokenType.MINUS_ASSIGN,
                TokenType.STAR_ASSIGN, TokenType.SLASH_ASSIGN, TokenType.EOF);
    }

    @Test
    void identifiersMayContainButNotStartWithUnderscore() {
        assertThat(lex("send_data2").get(0).lexeme()).isEqualTo("send_data2");
        assertThat(types("_x")).containsExactly(TokenType.ERROR, TokenType.IDENT, TokenType.EOF);
    }

    @Test
    void spansCountLinesAndColumns() {
        List<Token> tokens = lex("a\n  bb\r\n\tc");
        assertThat(tokens.get(1).span()).satisfies(s -> {
            assertThat(s.line()).isEqualTo(2);
            assertThat(s.col()).isEqualTo(3);
            assertThat(s.end() - s.start()).isEqualTo(2);
        });
        assertThat(tokens.get(2).span().line()).isEqualTo(3);
        assertThat(tokens.get(3).span().line()).isEqualTo(3);
    }

    @Test
    void strayCharactersAreNamedReadably() {
        lex("a $ \u0001 !");
        assertThat(errors()).containsExactly(
                "l.wld:1:3: error: unexpected character '$'",
                "l.wld:1:5: error: unexpected character U+0001",
                "l.wld:1:7: error: unexpected character '!': Waldo writes negation as 'not' and inequality as '!='");
    }

    @Test
    void leadingByteOrderMarkIsSkipped() {
        List<Token> tokens = lex("\uFEFFEndpoint");
        assertThat(tokens.get(0).type()).isEqualTo(TokenType.ENDPOINT);
        assertThat(tokens.get(0).span().col()).isEqualTo(1);
        assertThat(errors()).isEmpty();
    }
}
