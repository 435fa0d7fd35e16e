/* "Did you mean": the known name nearest a mistyped one, wherever a name
 * the user typed is refused (a command, a model, a preset, an event, a
 * sub-event, a model parameter).  Nearness is the optimal-string-alignment
 * Damerau-Levenshtein distance (insertions, deletions, substitutions and
 * transpositions of adjacent characters each cost 1; Damerau 1964), letters
 * compared without case.  A name is suggested only when it is near: a
 * distance of at most 2 and at most a third of the typed name's length
 * (at least 1), so that a short or unrelated word gets no guess; an empty
 * name gets none. */
#ifndef UTIL_SUGGEST_H
#define UTIL_SUGGEST_H

#include <stdbool.h>

/* The candidates seen so far for one typed name; start with
 * suggestion_start, offer each known name with suggestion_consider. */
struct suggestion {
    const char *typed;
    const char *best;  /* the nearest near candidate, the first among equals; NULL: none */
    int distance;
};

void suggestion_start(struct suggestion *s, const char *typed);

/* Offers `name` (kept by pointer); ignored unless near and nearer than
 * the best so far. */
void suggestion_consider(struct suggestion *s, const char *name);

/* The distance between `a` and `b` as defined above, capped at 255
 * (a name longer than 255 characters is as far as can be). */
int suggestion_distance(const char *a, const char *b);

#endif
