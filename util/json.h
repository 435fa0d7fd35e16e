#ifndef UTIL_JSON_H
#define UTIL_JSON_H

#include <stdio.h>

/* Prints `text` to `out` as a JSON string literal, quotes included. */
void json_fprint_string(FILE *out, const char *text);

/* The same, to stdout. */
void json_print_string(const char *text);

#endif
