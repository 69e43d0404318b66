/**
 * Waldo checking. Drivers call {@link dev.waldo.compiler.check.Frontend#parseAndCheck}; when it
 * succeeds, the {@link dev.waldo.compiler.check.CheckedProgram} gives the emitter:
 * <ul>
 *   <li>{@code typeOf(expr)} — the {@link dev.waldo.compiler.check.Type} of every expression,
 *       and {@code typeOf(typeRef)} for every written type;</li>
 *   <li>{@code symbolOf(node)} — the {@link dev.waldo.compiler.check.Symbol} every name, call and
 *       declaration resolves to (local, parameter, loop or catch variable, endpoint variable,
 *       sequence data, function, sequence, built-in, list/map method, call on an Endpoint
 *       value);</li>
 *   <li>{@code kinds()}, {@code structs()}, {@code sequences()} — per endpoint kind or service
 *       its variables, functions, onCreate and partner kind; per struct its fields; per sequence
 *       its two kinds (the first one calls it), steps in order, data and result.</li>
 * </ul>
 * The rules it enforces are in {@code waldo-compiler/LANGUAGE-NOTES.md}.
 */
package dev.waldo.compiler.check;
