/**
 * Source files, spans and diagnostics shared by every phase: errors print as
 * {@code file:line:col: error: message} with the source line and a caret under the column.
 */
package dev.waldo.compiler.diag;
