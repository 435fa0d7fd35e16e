/* User text echoed back (paths, arguments, tokens, a trace header's
 * strings): printed with every byte that is not printable text as \xNN,
 * so that a message or a summary stays one line of valid UTF-8 whatever
 * bytes it quotes. */
#ifndef UTIL_TEXT_H
#define UTIL_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* The length of the valid UTF-8 sequence of a printable character at `p`
 * (1 for printable ASCII), or 0 for a control character, DEL, or a byte
 * that does not start a valid sequence (overlong forms and surrogates
 * included). */
size_t text_printable_length(const char *p);

/* `text` with each byte text_printable_length() refuses as \xNN. */
void text_print_escaped(FILE *out, const char *text);

/* The same into `out` (truncated to `size`, always terminated). */
void text_escape(char *out, size_t size, const char *text);

/* `text` as a field of separated values (CSV, perf stat -x): quoted when
 * it holds `separator`, a quote or a line break (CR or LF), a quote inside
 * doubled (RFC 4180). */
void text_print_field(FILE *out, const char *text, const char *separator);

#endif
