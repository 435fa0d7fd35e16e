/* Pairs the counts of two sets, event by event, and the arithmetic of the
 * Table 5.6 layout (Safford 1997): difference = measured - simulated, and as a
 * percentage of measured (docs/compare.md). */
#ifndef APPS_COMPARE_COMPARE_H
#define APPS_COMPARE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "count_set.h"
#include "event_map.h"

struct compare_row {
    const struct count *simulated, *measured; /* NULL: not in that set */
    const struct event_mapping *mapping;      /* pairs a P5 event with a generic one, or NULL */
};

struct compare_table {
    struct compare_row *rows; /* the simulated set's order, then counts only measured */
    size_t n_rows;
    size_t examined;          /* pairs of counts compare_pair examined: its work, for
                                 tests (linear in the sets' sizes, not their product) */
};

/* Pairs each simulated count with the measured counts of the same event:
 * the same name when both sets name events alike, a row of the mapping
 * when one has P5 names and the other generic names.  False when out of
 * memory. */
bool compare_pair(const struct count_set *simulated, const struct count_set *measured,
                  struct compare_table *table);
void compare_table_free(struct compare_table *table);

/* The two count the same thing: no mapping row says otherwise. */
bool compare_like_for_like(const struct compare_row *row);

struct compare_difference {
    bool defined;           /* both counted */
    bool negative;          /* measured - simulated is below 0 ... */
    uint64_t whole;         /* ... and its magnitude, exact: the whole part ... */
    uint32_t fraction;      /* ... and the fraction, in billionths */
    int decimals;           /* the more precise of the two */
    bool percent_defined;   /* measured is not 0, or both are */
    double percent;         /* 100 * difference / measured */
};

struct compare_difference compare_difference(const struct compare_row *row);

/* A count's number as its source gave it, exact: "441127", "448702.5". */
void compare_format_count(const struct count *count, char *out, size_t size);

/* The difference, exact: "-7575.5". */
void compare_format_difference(const struct compare_difference *d, char *out, size_t size);

#endif
