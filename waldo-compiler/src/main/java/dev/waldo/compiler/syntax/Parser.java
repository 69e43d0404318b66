package dev.waldo.compiler.syntax;

import dev.waldo.compiler.diag.Diagnostics;
import dev.waldo.compiler.diag.SourceFile;
import dev.waldo.compiler.diag.Span;
import dev.waldo.compiler.syntax.Member.Visibility;
import dev.waldo.compiler.syntax.TypeRef.BasicKind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Recursive-descent parser for one file's tokens. Each parse method has its grammar rule as a
 * comment above it. On a syntax error it reports once, skips to the next statement or member,
 * and goes on, so one run reports many independent errors but no follow-on errors.
 */
public final class Parser {
    /** Deeper nesting than this is reported instead of risking the Java stack. */
    private static final int MAX_DEPTH = 150;
    /** Longer chains of binary operators than this are reported, for the same reason. */
    private static final int MAX_CHAIN = 1000;

    private static final Set<TokenType> TYPE_KEYWORDS = EnumSet.of(TokenType.NUMBER_TYPE,
            TokenType.TEXT_TYPE, TokenType.TRUE_FALSE, TokenType.NOTHING, TokenType.ENDPOINT,
            TokenType.LIST, TokenType.MAP, TokenType.CSET, TokenType.STRUCT);
    private static final Set<TokenType> MEMBER_STARTS = EnumSet.of(TokenType.PUBLIC,
            TokenType.PRIVATE, TokenType.FUNCTION, TokenType.ON_CREATE, TokenType.AT,
            TokenType.SERVICE, TokenType.SEQUENCE);
    private static final Set<TokenType> STATEMENT_STARTS = EnumSet.of(TokenType.IF,
            TokenType.WHILE, TokenType.FOR, TokenType.RETURN, TokenType.BREAK,
            TokenType.CONTINUE, TokenType.TRY, TokenType.ABORT, TokenType.PUBLIC,
            TokenType.PRIVATE, TokenType.FUNCTION, TokenType.ON_CREATE);

    /** Thrown to unwind to the nearest recovery point; the error is already reported. */
    private static final class ParseError extends RuntimeException {
        ParseError() {
            super(null, null, false, false);
        }
    }

    private final List<Token> tokens;
    private final Diagnostics diagnostics;
    private int current;
    private int depth;
    private int lastErrorOffset = -1;

    /** Creates a parser over {@code tokens}, which must end with an EOF token. */
    public Parser(List<Token> tokens, Diagnostics diagnostics) {
        this.tokens = tokens;
        this.diagnostics = diagnostics;
    }

    /** Lexes and parses {@code source}, reporting every error to {@code diagnostics}. */
    public static List<Decl> parse(SourceFile source, Diagnostics diagnostics) {
        return new Parser(new Lexer(source, diagnostics).tokenize(), diagnostics).parseFile();
    }

    // file = { decl } EOF ;
    /** Parses the whole file; declarations with syntax errors are left out. */
    public List<Decl> parseFile() {
        List<Decl> decls = new ArrayList<>();
        while (!check(TokenType.EOF)) {
            int before = current;
            try {
                decls.add(declaration());
            } catch (ParseError e) {
                synchronizeTopLevel(before);
            }
        }
        return decls;
    }

    // decl = endpoint | service | struct | sequence ;
    private Decl declaration() {
        return switch (peek().type()) {
            case ENDPOINT -> endpoint();
            case SERVICE -> service();
            case STRUCT -> struct();
            case SEQUENCE -> sequence();
            default -> throw error(peek(), "expected 'Endpoint', 'Service', 'Struct' or 'Sequence' "
                    + "at top level, found " + peek().describe());
        };
    }

    // endpoint = "Endpoint" IDENT "{" { member } "}" ;
    private Decl endpoint() {
        Token keyword = advance();
        Token name = expect(TokenType.IDENT, "after 'Endpoint'");
        List<Member> members = memberBlock();
        return new Decl.EndpointDecl(name.lexeme(), members, keyword.doc(), name.span(), spanFrom(keyword));
    }

    // service = "Service" IDENT "{" { member } "}" ;
    private Decl service() {
        Token keyword = advance();
        Token name = expect(TokenType.IDENT, "after 'Service'");
        List<Member> members = memberBlock();
        return new Decl.ServiceDecl(name.lexeme(), members, keyword.doc(), name.span(), spanFrom(keyword));
    }

    // struct = "Struct" IDENT "{" { type IDENT ";" } "}" ;
    private Decl struct() {
        Token keyword = advance();
        Token name = expect(TokenType.IDENT, "after 'Struct'");
        expect(TokenType.LEFT_BRACE, "to open the struct's fields");
        List<VarDecl> fields = new ArrayList<>();
        while (!check(TokenType.RIGHT_BRACE) && !check(TokenType.EOF)) {
            int before = current;
            try {
                fields.add(field());
            } catch (ParseError e) {
                synchronizeMember(before);
            }
        }
        expect(TokenType.RIGHT_BRACE, "to close struct '" + name.lexeme() + "'");
        return new Decl.StructDecl(name.lexeme(), fields, keyword.doc(), name.span(), spanFrom(keyword));
    }

    // field = type IDENT ";" ;
    private VarDecl field() {
        Token first = peek();
        TypeRef type = type();
        Token name = expect(TokenType.IDENT, "for the field's name");
        if (check(TokenType.ASSIGN)) {
            throw error(peek(), "struct fields cannot have initial values; they start at their type's default");
        }
        expect(TokenType.SEMICOLON, "after the field");
        return new VarDecl(List.of(), type, name.lexeme(), null, first.doc(), name.span(), spanFrom(first));
    }

    // sequence = "Sequence" IDENT params [ "returns" type [ IDENT ] ] "{" { varDecl } { step } "}" ;
    private Decl sequence() {
        Token keyword = advance();
        Token name = expect(TokenType.IDENT, "after 'Sequence'");
        List<Param> params = params();
        TypeRef returnType = null;
        String resultName = null;
        if (match(TokenType.RETURNS)) {
            returnType = type();
            if (check(TokenType.IDENT)) {
                resultName = advance().lexeme();
            }
        }
        expect(TokenType.LEFT_BRACE, "to open the sequence's body");
        List<VarDecl> data = new ArrayList<>();
        List<Decl.Step> steps = new ArrayList<>();
        while (!check(TokenType.RIGHT_BRACE) && !check(TokenType.EOF)) {
            int before = current;
            try {
                sequenceItem(data, steps);
            } catch (ParseError e) {
                synchronizeMember(before);
            }
        }
        expect(TokenType.RIGHT_BRACE, "to close sequence '" + name.lexeme() + "'");
        return new Decl.SequenceDecl(name.lexeme(), params, returnType, resultName, data, steps,
                keyword.doc(), name.span(), spanFrom(keyword));
    }

    // sequenceItem = step | varDecl ;   (all data declarations come before the first step)
    private void sequenceItem(List<VarDecl> data, List<Decl.Step> steps) {
        if (check(TokenType.IDENT) && checkNext(TokenType.DOT)) {
            steps.add(step());
        } else if (!steps.isEmpty() && isTypeStart()) {
            throw error(peek(), "sequence data must be declared before the first step");
        } else if (isTypeStart()) {
            data.add(varDecl(List.of(), peek()));
        } else {
            throw error(peek(), "expected sequence data or a step 'Kind.name { ... }', found "
                    + peek().describe());
        }
    }

    // step = IDENT "." IDENT block ;
    private Decl.Step step() {
        Token kind = advance();
        advance();
        Token name = expect(TokenType.IDENT, "for the step's name after '" + kind.lexeme() + ".'");
        Stmt.Block body = block();
        return new Decl.Step(kind.lexeme(), kind.span(), name.lexeme(), body, spanFrom(kind));
    }

    // memberBlock = "{" { member } "}" ;
    private List<Member> memberBlock() {
        expect(TokenType.LEFT_BRACE, "to open the body");
        List<Member> members = new ArrayList<>();
        while (!check(TokenType.RIGHT_BRACE) && !check(TokenType.EOF)) {
            int before = current;
            try {
                members.add(member());
            } catch (ParseError e) {
                synchronizeMember(before);
            }
        }
        expect(TokenType.RIGHT_BRACE, "to close the body");
        return members;
    }

    // member = { annotation } varDecl | function | onCreate ;
    private Member member() {
        Token first = peek();
        List<Annotation> annotations = new ArrayList<>();
        while (check(TokenType.AT)) {
            annotations.add(annotation());
        }
        if (!annotations.isEmpty()) {
            if (!isTypeStart()) {
                throw error(peek(), "annotations go only on variables; expected a type, found "
                        + peek().describe());
            }
            return varDecl(annotations, first);
        }
        TokenType type = peek().type();
        if (type == TokenType.PUBLIC || type == TokenType.PRIVATE || type == TokenType.FUNCTION
                || (type == TokenType.IDENT && checkNext(TokenType.LEFT_PAREN))) {
            return function();
        }
        if (type == TokenType.ON_CREATE) {
            return onCreate();
        }
        if (isTypeStart()) {
            return varDecl(List.of(), first);
        }
        throw error(peek(), "expected a variable, function or onCreate, found " + peek().describe());
    }

    // annotation = "@" IDENT [ "(" [ annotationArg { "," annotationArg } ] ")" ] ;
    private Annotation annotation() {
        Token at = advance();
        Token name = expect(TokenType.IDENT, "for the annotation's name after '@'");
        List<Annotation.Arg> args = new ArrayList<>();
        if (match(TokenType.LEFT_PAREN)) {
            if (!check(TokenType.RIGHT_PAREN)) {
                do {
                    args.add(annotationArg());
                } while (match(TokenType.COMMA));
            }
            expect(TokenType.RIGHT_PAREN, "after the annotation's arguments");
        }
        return new Annotation(name.lexeme(), args, spanFrom(at));
    }

    // annotationArg = IDENT ":" ( NUMBER | "-" NUMBER | STRING | "True" | "False" ) ;
    private Annotation.Arg annotationArg() {
        Token key = expect(TokenType.IDENT, "for the annotation argument's name");
        expect(TokenType.COLON, "after '" + key.lexeme() + "'");
        Token start = peek();
        Expr value = switch (start.type()) {
            case NUMBER, STRING, TRUE, FALSE -> primary();
            case MINUS -> {
                advance();
                Token number = expect(TokenType.NUMBER, "after '-' in an annotation");
                yield new Expr.NumberLit(-(Double) number.value(), spanFrom(start));
            }
            default -> throw error(start, "annotation values must be literals (number, text, True "
                    + "or False), found " + start.describe());
        };
        return new Annotation.Arg(key.lexeme(), value, spanFrom(key));
    }

    // function = [ "Public" | "Private" ] [ "Function" ] IDENT params [ "returns" type ] block ;
    private Member function() {
        Token first = peek();
        Visibility visibility = Visibility.PRIVATE;
        if (match(TokenType.PUBLIC)) {
            visibility = Visibility.PUBLIC;
        } else {
            match(TokenType.PRIVATE);
        }
        match(TokenType.FUNCTION);
        Token name = expect(TokenType.IDENT, "for the function's name");
        List<Param> params = params();
        TypeRef returnType = match(TokenType.RETURNS)
                ? type() : new TypeRef.Basic(BasicKind.NOTHING, name.span());
        Stmt.Block body = block();
        return new Member.FunctionDecl(visibility, name.lexeme(), params, returnType, body,
                first.doc(), name.span(), spanFrom(first));
    }

    // onCreate = "onCreate" params block ;
    private Member onCreate() {
        Token keyword = advance();
        List<Param> params = params();
        Stmt.Block body = block();
        return new Member.OnCreate(params, body, spanFrom(keyword));
    }

    // params = "(" [ type IDENT { "," type IDENT } ] ")" ;
    private List<Param> params() {
        expect(TokenType.LEFT_PAREN, "to open the parameter list");
        List<Param> params = new ArrayList<>();
        if (!check(TokenType.RIGHT_PAREN)) {
            do {
                TypeRef type = type();
                Token name = expect(TokenType.IDENT, "for the parameter's name");
                params.add(new Param(type, name.lexeme(), name.span()));
            } while (match(TokenType.COMMA));
        }
        expect(TokenType.RIGHT_PAREN, "after the parameters");
        return params;
    }

    // varDecl = type IDENT [ "=" expression ] ";" ;
    private VarDecl varDecl(List<Annotation> annotations, Token first) {
        TypeRef type = type();
        Token name = expect(TokenType.IDENT, "for the variable's name");
        Expr init = match(TokenType.ASSIGN) ? expression() : null;
        expect(TokenType.SEMICOLON, "after the declaration of '" + name.lexeme() + "'");
        return new VarDecl(annotations, type, name.lexeme(), init, first.doc(), name.span(), spanFrom(first));
    }

    // type = "Number" | "Text" | "TrueFalse" | "Nothing" | "Endpoint" | listType | mapType
    //      | csetType | [ "Struct" ] IDENT ;
    private TypeRef type() {
        Token first = peek();
        BasicKind basic = switch (first.type()) {
            case NUMBER_TYPE -> BasicKind.NUMBER;
            case TEXT_TYPE -> BasicKind.TEXT;
            case TRUE_FALSE -> BasicKind.TRUE_FALSE;
            case NOTHING -> BasicKind.NOTHING;
            case ENDPOINT -> BasicKind.ENDPOINT;
            default -> null;
        };
        if (basic != null) {
            advance();
            return new TypeRef.Basic(basic, first.span());
        }
        enter(first);
        try {
            return switch (first.type()) {
                case LIST -> listType();
                case MAP -> mapType();
                case CSET -> csetType();
                case STRUCT -> {
                    advance();
                    Token name = expect(TokenType.IDENT, "for the struct's name after 'Struct'");
                    yield new TypeRef.Named(name.lexeme(), spanFrom(first));
                }
                case IDENT -> new TypeRef.Named(advance().lexeme(), first.span());
                default -> throw error(first, "expected a type, found " + first.describe());
            };
        } finally {
            depth--;
        }
    }

    // listType = "List" elementType ;
    private TypeRef listType() {
        Token keyword = advance();
        return new TypeRef.ListOf(elementType("List"), spanFrom(keyword));
    }

    // mapType = "Map" ( "(" "from" ":" type "," "to" ":" type ")" | "<" type "," type ">" ) ;
    private TypeRef mapType() {
        Token keyword = advance();
        TypeRef key;
        TypeRef value;
        if (match(TokenType.LESS)) {
            key = type();
            expect(TokenType.COMMA, "between the key and value types of 'Map<K, V>'");
            value = type();
            expect(TokenType.GREATER, "to close 'Map<'");
        } else {
            expect(TokenType.LEFT_PAREN, "after 'Map' (write Map(from: K, to: V))");
            expect(TokenType.FROM, "in 'Map(from: K, to: V)'");
            expect(TokenType.COLON, "after 'from'");
            key = type();
            expect(TokenType.COMMA, "after the key type");
            expect(TokenType.TO, "in 'Map(from: K, to: V)'");
            expect(TokenType.COLON, "after 'to'");
            value = type();
            expect(TokenType.RIGHT_PAREN, "to close 'Map('");
        }
        return new TypeRef.MapOf(key, value, spanFrom(keyword));
    }

    // csetType = "CSet" elementType ;
    private TypeRef csetType() {
        Token keyword = advance();
        return new TypeRef.CSetOf(elementType("CSet"), spanFrom(keyword));
    }

    // elementType = "(" "element" ":" type ")" | "<" type ">" ;   (after 'List' or 'CSet')
    private TypeRef elementType(String container) {
        TypeRef element;
        if (match(TokenType.LESS)) {
            element = type();
            expect(TokenType.GREATER, "to close '" + container + "<'");
        } else {
            expect(TokenType.LEFT_PAREN, "after '" + container + "' (write " + container + "(element: T) or "
                    + container + "<T>)");
            expect(TokenType.ELEMENT, "in '" + container + "(element: T)'");
            expect(TokenType.COLON, "after 'element'");
            element = type();
            expect(TokenType.RIGHT_PAREN, "to close '" + container + "('");
        }
        return element;
    }

    // block = "{" { statement } "}" ;
    private Stmt.Block block() {
        Token open = expect(TokenType.LEFT_BRACE, "to open a block");
        List<Stmt> stmts = new ArrayList<>();
        while (!check(TokenType.RIGHT_BRACE) && !check(TokenType.EOF)) {
            int before = current;
            try {
                stmts.add(statement());
            } catch (ParseError e) {
                synchronizeStatement(before);
            }
        }
        expect(TokenType.RIGHT_BRACE, "to close the block opened at line " + open.span().line());
        return new Stmt.Block(stmts, spanFrom(open));
    }

    // statement = block | if | while | for | break | continue | return | try | abort
    //           | varDecl | simpleStatement ;
    private Stmt statement() {
        Token first = peek();
        enter(first);
        try {
            return switch (first.type()) {
                case LEFT_BRACE -> block();
                case IF -> ifStatement();
                case WHILE -> whileStatement();
                case FOR -> forStatement();
                case BREAK -> jump(new Stmt.Break(advance().span()));
                case CONTINUE -> jump(new Stmt.Continue(advance().span()));
                case RETURN -> returnStatement();
                case TRY -> tryStatement();
                case ABORT -> abortStatement();
                case AT -> throw error(first, "annotations are allowed only on endpoint and service variables");
                default -> isTypeStart() ? varDecl(List.of(), first) : simpleStatement();
            };
        } finally {
            depth--;
        }
    }

    private Stmt jump(Stmt stmt) {
        expect(TokenType.SEMICOLON, "after '" + previous().lexeme() + "'");
        return stmt;
    }

    // if = "if" "(" expression ")" statement [ ( "elseIf" | "else" "if" ) ... | "else" statement ] ;
    private Stmt ifStatement() {
        Token keyword = advance();
        Expr cond = condition("if");
        Stmt then = statement();
        Stmt otherwise = null;
        if (check(TokenType.ELSE_IF)) {
            enter(peek());
            try {
                otherwise = ifStatement();
            } finally {
                depth--;
            }
        } else if (match(TokenType.ELSE)) {
            otherwise = statement();
        }
        return new Stmt.If(cond, then, otherwise, spanFrom(keyword));
    }

    // condition = "(" expression ")" ;
    private Expr condition(String keyword) {
        expect(TokenType.LEFT_PAREN, "after '" + keyword + "'");
        Expr cond = expression();
        expect(TokenType.RIGHT_PAREN, "after the condition of '" + keyword + "'");
        return cond;
    }

    // while = "while" "(" expression ")" statement ;
    private Stmt whileStatement() {
        Token keyword = advance();
        Expr cond = condition("while");
        Stmt body = statement();
        return new Stmt.While(cond, body, spanFrom(keyword));
    }

    // for = "for" "(" [ type ] IDENT "in" expression ")" statement ;
    private Stmt forStatement() {
        Token keyword = advance();
        expect(TokenType.LEFT_PAREN, "after 'for'");
        TypeRef varType = null;
        if (!(check(TokenType.IDENT) && checkNext(TokenType.IN))) {
            varType = type();
        }
        Token var = expect(TokenType.IDENT, "for the loop variable");
        expect(TokenType.IN, "after the loop variable (write 'for (x in items)')");
        Expr iterable = expression();
        expect(TokenType.RIGHT_PAREN, "after the loop header");
        Stmt body = statement();
        return new Stmt.For(varType, var.lexeme(), var.span(), iterable, body, spanFrom(keyword));
    }

    // return = "return" [ expression ] ";" ;
    private Stmt returnStatement() {
        Token keyword = advance();
        Expr value = check(TokenType.SEMICOLON) ? null : expression();
        expect(TokenType.SEMICOLON, "after the return statement");
        return new Stmt.Return(value, spanFrom(keyword));
    }

    // try = "try" block { "catch" "(" IDENT IDENT ")" block } [ "finally" block ] ;
    private Stmt tryStatement() {
        Token keyword = advance();
        Stmt.Block body = block();
        List<Stmt.Catch> catches = new ArrayList<>();
        while (check(TokenType.CATCH)) {
            catches.add(catchClause());
        }
        Stmt.Block finallyBlock = match(TokenType.FINALLY) ? block() : null;
        if (catches.isEmpty() && finallyBlock == null) {
            throw error(peek(), "expected 'catch' or 'finally' after the try block, found "
                    + peek().describe());
        }
        return new Stmt.Try(body, catches, finallyBlock, spanFrom(keyword));
    }

    // catch = "catch" "(" ( "NetworkException" | "ApplicationException" | "Exception" ) IDENT ")" block ;
    private Stmt.Catch catchClause() {
        Token keyword = advance();
        expect(TokenType.LEFT_PAREN, "after 'catch'");
        Token kindToken = expect(TokenType.IDENT, "for the kind of error to catch");
        Stmt.CatchKind kind = switch (kindToken.lexeme()) {
            case "NetworkException" -> Stmt.CatchKind.NETWORK;
            case "ApplicationException" -> Stmt.CatchKind.APPLICATION;
            case "Exception" -> Stmt.CatchKind.ANY;
            default -> throw error(kindToken, "cannot catch '" + kindToken.lexeme()
                    + "': expected NetworkException, ApplicationException or Exception");
        };
        Token name = expect(TokenType.IDENT, "for the caught error's name");
        expect(TokenType.RIGHT_PAREN, "after the caught error's name");
        Stmt.Block body = block();
        return new Stmt.Catch(kind, name.lexeme(), name.span(), body, spanFrom(keyword));
    }

    // abort = "abort" "(" ")" ";" ;
    private Stmt abortStatement() {
        Token keyword = advance();
        expect(TokenType.LEFT_PAREN, "after 'abort'");
        expect(TokenType.RIGHT_PAREN, "after 'abort(' (abort takes no arguments)");
        expect(TokenType.SEMICOLON, "after 'abort()'");
        return new Stmt.Abort(spanFrom(keyword));
    }

    // simpleStatement = expression [ ( "=" | "+=" | "-=" | "*=" | "/=" ) expression ] ";" ;
    private Stmt simpleStatement() {
        Token first = peek();
        Expr expr = expression();
        Stmt.AssignOp op = assignOp(peek().type());
        if (op == null) {
            expect(TokenType.SEMICOLON, "after the expression");
            return new Stmt.ExprStmt(expr, spanFrom(first));
        }
        Token opToken = advance();
        if (!(expr instanceof Expr.Name || expr instanceof Expr.Field || expr instanceof Expr.Index)) {
            throw error(opToken, "cannot assign to this expression; the left side of '"
                    + op.symbol() + "' must be a variable, a field or an element");
        }
        Expr value = expression();
        expect(TokenType.SEMICOLON, "after the assignment");
        return new Stmt.Assign(expr, op, value, spanFrom(first));
    }

    private static Stmt.AssignOp assignOp(TokenType type) {
        return switch (type) {
            case ASSIGN -> Stmt.AssignOp.ASSIGN;
            case PLUS_ASSIGN -> Stmt.AssignOp.ADD;
            case MINUS_ASSIGN -> Stmt.AssignOp.SUB;
            case STAR_ASSIGN -> Stmt.AssignOp.MUL;
            case SLASH_ASSIGN -> Stmt.AssignOp.DIV;
            default -> null;
        };
    }

    // expression = or ;
    private Expr expression() {
        enter(peek());
        try {
            return or();
        } finally {
            depth--;
        }
    }

    // or = and { "or" and } ;
    private Expr or() {
        Expr left = and();
        for (int links = 1; match(TokenType.OR); links++) {
            chain(links);
            left = binary(left, Expr.BinaryOp.OR, and());
        }
        return left;
    }

    // and = not { "and" not } ;
    private Expr and() {
        Expr left = not();
        for (int links = 1; match(TokenType.AND); links++) {
            chain(links);
            left = binary(left, Expr.BinaryOp.AND, not());
        }
        return left;
    }

    // not = "not" not | comparison ;
    private Expr not() {
        if (check(TokenType.NOT) && !checkNext(TokenType.IN)) {
            Token keyword = advance();
            enter(keyword);
            try {
                return new Expr.Unary(Expr.UnaryOp.NOT, not(), spanFrom(keyword));
            } finally {
                depth--;
            }
        }
        return comparison();
    }

    // comparison = additive { ( "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in" ) additive } ;
    private Expr comparison() {
        Expr left = additive();
        for (int links = 1; ; links++) {
            Expr.BinaryOp op = switch (peek().type()) {
                case EQUAL -> Expr.BinaryOp.EQ;
                case NOT_EQUAL -> Expr.BinaryOp.NE;
                case LESS -> Expr.BinaryOp.LT;
                case LESS_EQUAL -> Expr.BinaryOp.LE;
                case GREATER -> Expr.BinaryOp.GT;
                case GREATER_EQUAL -> Expr.BinaryOp.GE;
                case IN -> Expr.BinaryOp.IN;
                case NOT -> checkNext(TokenType.IN) ? Expr.BinaryOp.NOT_IN : null;
                default -> null;
            };
            if (op == null) {
                return left;
            }
            chain(links);
            advance();
            if (op == Expr.BinaryOp.NOT_IN) {
                advance();
            }
            left = binary(left, op, additive());
        }
    }

    // additive = multiplicative { ( "+" | "-" ) multiplicative } ;
    private Expr additive() {
        Expr left = multiplicative();
        for (int links = 1; check(TokenType.PLUS) || check(TokenType.MINUS); links++) {
            chain(links);
            Expr.BinaryOp op = advance().type() == TokenType.PLUS ? Expr.BinaryOp.ADD : Expr.BinaryOp.SUB;
            left = binary(left, op, multiplicative());
        }
        return left;
    }

    // multiplicative = unary { ( "*" | "/" | "%" ) unary } ;
    private Expr multiplicative() {
        Expr left = unary();
        for (int links = 1; check(TokenType.STAR) || check(TokenType.SLASH) || check(TokenType.PERCENT); links++) {
            chain(links);
            Expr.BinaryOp op = switch (advance().type()) {
                case STAR -> Expr.BinaryOp.MUL;
                case SLASH -> Expr.BinaryOp.DIV;
                default -> Expr.BinaryOp.MOD;
            };
            left = binary(left, op, unary());
        }
        return left;
    }

    private Expr binary(Expr left, Expr.BinaryOp op, Expr right) {
        return new Expr.Binary(left, op, right, left.span().to(right.span()));
    }

    // A chain of thousands of operators would make a left-leaning tree deeper than later passes
    // can walk recursively, so very long chains are reported instead.
    private void chain(int links) {
        if (links > MAX_CHAIN) {
            throw error(peek(), "expression has too many operators; split it into smaller ones");
        }
    }

    // unary = "-" unary | postfix ;
    private Expr unary() {
        if (check(TokenType.MINUS)) {
            Token minus = advance();
            enter(minus);
            try {
                return new Expr.Unary(Expr.UnaryOp.NEG, unary(), spanFrom(minus));
            } finally {
                depth--;
            }
        }
        return postfix();
    }

    // postfix = primary { "(" args ")" | "." IDENT [ "(" args ")" ] | "[" expression "]" } ;
    private Expr postfix() {
        Token first = peek();
        Expr expr = primary();
        for (int links = 0; ; links++) {
            if (links > MAX_DEPTH) {
                throw error(peek(), "expression is nested too deeply; split it into smaller ones");
            }
            if (check(TokenType.LEFT_PAREN)) {
                expr = call(expr, first);
            } else if (match(TokenType.DOT)) {
                Token name = expect(TokenType.IDENT, "after '.'");
                expr = check(TokenType.LEFT_PAREN)
                        ? new Expr.MethodCall(expr, name.lexeme(), name.span(), arguments(), spanFrom(first))
                        : new Expr.Field(expr, name.lexeme(), name.span(), spanFrom(first));
            } else if (match(TokenType.LEFT_BRACKET)) {
                Expr index = expression();
                expect(TokenType.RIGHT_BRACKET, "after the index");
                expr = new Expr.Index(expr, index, spanFrom(first));
            } else {
                return expr;
            }
        }
    }

    private Expr call(Expr callee, Token first) {
        if (callee instanceof Expr.Name name) {
            return new Expr.Call(name.name(), name.span(), arguments(), spanFrom(first));
        }
        throw error(peek(), "only functions can be called: write name(...) or value.name(...)");
    }

    // args = "(" [ expression { "," expression } ] ")" ;
    private List<Expr> arguments() {
        expect(TokenType.LEFT_PAREN, "to open the arguments");
        List<Expr> args = new ArrayList<>();
        if (!check(TokenType.RIGHT_PAREN)) {
            do {
                args.add(expression());
            } while (match(TokenType.COMMA));
        }
        expect(TokenType.RIGHT_PAREN, "after the arguments");
        return args;
    }

    // primary = NUMBER | STRING | "True" | "False" | "self" | IDENT | "(" expression ")"
    //         | listLiteral | mapLiteral ;
    private Expr primary() {
        Token token = peek();
        switch (token.type()) {
            case NUMBER -> {
                advance();
                return new Expr.NumberLit((Double) token.value(), token.span());
            }
            case STRING -> {
                advance();
                return new Expr.TextLit((String) token.value(), token.span());
            }
            case TRUE, FALSE -> {
                advance();
                return new Expr.BoolLit(token.type() == TokenType.TRUE, token.span());
            }
            case SELF -> {
                advance();
                return new Expr.Self(token.span());
            }
            case IDENT -> {
                advance();
                return new Expr.Name(token.lexeme(), token.span());
            }
            case LEFT_PAREN -> {
                advance();
                Expr inner = expression();
                expect(TokenType.RIGHT_PAREN, "to close the parenthesis");
                return inner;
            }
            case LEFT_BRACKET -> {
                return listLiteral();
            }
            case LEFT_BRACE -> {
                return mapLiteral();
            }
            default -> throw error(token, "expected an expression, found " + token.describe());
        }
    }

    // listLiteral = "[" [ expression { "," expression } ] "]" ;
    private Expr listLiteral() {
        Token open = advance();
        List<Expr> elements = new ArrayList<>();
        if (!check(TokenType.RIGHT_BRACKET)) {
            do {
                elements.add(expression());
            } while (match(TokenType.COMMA));
        }
        expect(TokenType.RIGHT_BRACKET, "to close the list");
        return new Expr.ListLit(elements, spanFrom(open));
    }

    // mapLiteral = "{" [ expression ":" expression { "," expression ":" expression } ] "}" ;
    private Expr mapLiteral() {
        Token open = advance();
        List<Expr.MapEntry> entries = new ArrayList<>();
        if (!check(TokenType.RIGHT_BRACE)) {
            do {
                Expr key = expression();
                expect(TokenType.COLON, "between a map key and its value");
                entries.add(new Expr.MapEntry(key, expression()));
            } while (match(TokenType.COMMA));
        }
        expect(TokenType.RIGHT_BRACE, "to close the map");
        return new Expr.MapLit(entries, spanFrom(open));
    }

    // ---- helpers -------------------------------------------------------------------------

    /** Whether the next tokens start a declaration: a type keyword, or a struct name and a name. */
    private boolean isTypeStart() {
        return TYPE_KEYWORDS.contains(peek().type())
                || (check(TokenType.IDENT) && checkNext(TokenType.IDENT));
    }

    private void enter(Token at) {
        if (++depth > MAX_DEPTH) {
            depth--;
            throw error(at, "program is nested too deeply here; split it into smaller pieces");
        }
    }

    private Token expect(TokenType type, String context) {
        if (check(type)) {
            return advance();
        }
        Token found = peek();
        throw report(found, where(found), "expected " + type.describe() + " " + context + ", found "
                + found.describe());
    }

    /**
     * Reports an error at {@code token} and returns the exception to unwind with. A token the
     * lexer already complained about, or a second error at the same place, is not reported again.
     */
    private ParseError error(Token token, String message) {
        return report(token, token.span(), message);
    }

    private ParseError report(Token token, Span at, String message) {
        if (token.type() != TokenType.ERROR && token.span().start() != lastErrorOffset) {
            lastErrorOffset = token.span().start();
            diagnostics.error(at, message);
        }
        return new ParseError();
    }

    /**
     * Where a missing token is reported: when the token found instead starts a later line than
     * the previous token (a forgotten ';' or ')'), just past the previous token, where the fix
     * belongs; otherwise at the token found.
     */
    private Span where(Token found) {
        if (current == 0 || found.type() == TokenType.EOF
                || previous().span().line() >= found.span().line()) {
            return found.span();
        }
        Span last = previous().span();
        int length = last.end() - last.start();
        return new Span(last.file(), last.line(), last.col() + length, last.end(), last.end() + 1);
    }

    // Skips to the start of the next top-level declaration after an error.
    private void synchronizeTopLevel(int before) {
        if (current == before) {
            advance();
        }
        while (!check(TokenType.EOF)) {
            TokenType type = peek().type();
            if ((type == TokenType.ENDPOINT || type == TokenType.SERVICE || type == TokenType.STRUCT
                    || type == TokenType.SEQUENCE) && checkNext(TokenType.IDENT) && atLineStart()) {
                return;
            }
            advance();
        }
    }

    private boolean atLineStart() {
        return current == 0 || previous().span().line() < peek().span().line();
    }

    // Skips past the broken member: to after its ';' or its body, or to the enclosing '}'.
    private void synchronizeMember(int before) {
        skipTo(MEMBER_STARTS, before);
    }

    // Skips past the broken statement: to after its ';' or its block, or to the enclosing '}'.
    private void synchronizeStatement(int before) {
        skipTo(STATEMENT_STARTS, before);
    }

    private void skipTo(Set<TokenType> starts, int before) {
        while (!check(TokenType.EOF)) {
            TokenType type = peek().type();
            if (type == TokenType.RIGHT_BRACE) {
                if (current == before) {
                    advance();
                }
                return;
            }
            if (starts.contains(type) && current != before) {
                return;
            }
            if (type == TokenType.LEFT_BRACE) {
                skipBalanced();
                return;
            }
            if (advance().type() == TokenType.SEMICOLON) {
                return;
            }
        }
    }

    // Skips a '{ ... }' group with everything nested inside it.
    private void skipBalanced() {
        int open = 0;
        do {
            TokenType type = advance().type();
            if (type == TokenType.LEFT_BRACE) {
                open++;
            } else if (type == TokenType.RIGHT_BRACE) {
                open--;
            }
        } while (open > 0 && !check(TokenType.EOF));
    }

    private Span spanFrom(Token first) {
        return first.span().to(previous().span());
    }

    private boolean match(TokenType type) {
        if (!check(type)) {
            return false;
        }
        advance();
        return true;
    }

    private boolean check(TokenType type) {
        return peek().type() == type;
    }

    private boolean checkNext(TokenType type) {
        return current + 1 < tokens.size() && tokens.get(current + 1).type() == type;
    }

    private Token peek() {
        return tokens.get(current);
    }

    private Token previous() {
        return tokens.get(Math.max(0, current - 1));
    }

    private Token advance() {
        Token token = tokens.get(current);
        if (token.type() != TokenType.EOF) {
            current++;
        }
        return token;
    }
}
