/* What the line-based count readers (perf CSV, run_p5mon) share: lines,
 * numbers and "PATH: line N: ..." messages.  Internal to apps/compare. */
#ifndef APPS_COMPARE_COUNT_PARSE_H
#define APPS_COMPARE_COUNT_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "count_set.h"

struct line_reader {
    const char *text;
    size_t size, pos;
    unsigned long number;   /* of the line last read, from 1 */
    char *line;             /* that line, NUL-terminated, without its "\r\n" */
    size_t capacity;
    const char *path;
    char *error;
    size_t error_size;
};

void line_reader_init(struct line_reader *r, const char *text, size_t size, const char *path,
                      char *error, size_t error_size);
void line_reader_free(struct line_reader *r);

/* Reads the next line into r->line; false at the end of the text or, with
 * a message, on a NUL byte or when out of memory (line_reader_failed()). */
bool line_reader_next(struct line_reader *r);
bool line_reader_failed(const struct line_reader *r);

/* Formats "PATH: line N: " and the message into the error; returns false. */
__attribute__((format(printf, 2, 3))) bool line_fail(struct line_reader *r, const char *format,
                                                     ...);

/* `text` as a whole is a non-negative decimal number, "123" or "12.5":
 * its value and how many digits follow the point. */
bool parse_decimal(const char *text, double *value, int *decimals);

enum count_parse { COUNT_PARSED, COUNT_MALFORMED, COUNT_OUT_OF_RANGE };

/* `text` as a whole is a non-negative decimal number, "123" or "12.5":
 * count->value, ->fraction and ->decimals get it exactly (a fraction of
 * more than 9 digits rounded to 9).  COUNT_OUT_OF_RANGE above 2^64 - 1
 * (COUNT_TOO_BIG). */
enum count_parse parse_count(const char *text, struct count *count);

/* Adds `part`'s number to `sum`'s, exactly; false when the sum is above
 * 2^64 - 1. */
bool count_add(struct count *sum, const struct count *part);

/* Adds a count; false with "out of memory" in the reader's error. */
bool add_count(struct line_reader *r, struct count_set *set, const struct count *count);

#endif
