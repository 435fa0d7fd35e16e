/* Numbers as pmubench reads them wherever a user writes one: command-line
 * options, bench scripts, PARMS files, experiment files' event strings,
 * model parameters, count sets (README, "Numbers").  One rule: decimal
 * digits, or 0x (0X) and hex digits; no sign, no white space, no leading
 * zero (octal-looking: "010" is refused, "0" is zero, "0x010" is 16), no
 * value outside the caller's range. */
#ifndef UTIL_NUMBER_H
#define UTIL_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* `text` as a number from `min` to `max`: true with *value; false with
 * "bad WHAT 'TEXT' (expected a number: decimal or 0x hex, MIN to MAX)" in
 * `error` (*value untouched). */
bool number_read(const char *what, const char *text, uint64_t min, uint64_t max,
                 uint64_t *value, char *error, size_t error_size);

/* The same rule with no message, for a caller that says what is wrong in
 * its own words (or by a status): true with *value; false otherwise
 * (*value untouched). */
bool number_parse(const char *text, uint64_t min, uint64_t max, uint64_t *value);

#endif
