/* Packing the units of one component into k runs: branch and bound, the
 * unit with the fewest runs it can still join first; all empty runs are
 * alike, so only one is tried.  Each unit's fit with each run is kept up to
 * date as units are placed.  Past the plan's step budget the search stops
 * backtracking (docs/alloc.md, "The search", 2 and 4).
 */
#include "alloc_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const struct unit *unit_at(const struct partition *s, int u)
{
    return &s->p->units[s->units[u]];
}

static bool *fit(const struct partition *s, int u, int j)
{
    return &s->fits[u * s->n + j];
}

static bool unit_fits(const struct partition *s, int j, int u)
{
    const struct unit *unit = unit_at(s, u);
    const struct run_members *run = &s->runs[j];
    if (run->n + unit->n > s->p->capacity)
        return false;
    int req[ALLOC_MAX_PER_RUN];
    memcpy(req, run->req, (size_t)run->n * sizeof *req);
    memcpy(req + run->n, s->p->members + unit->first, (size_t)unit->n * sizeof *req);
    return alloc_run_feasible(s->p, req, run->n + unit->n, NULL);
}

/* The runs unit u may go to: the used runs it fits, then one empty run
 * (all empty runs are alike). */
static int unit_choices(const struct partition *s, int u, int *choices)
{
    int n = 0;
    for (int j = 0; j < s->n_used; j++)
        if (*fit(s, u, j))
            choices[n++] = j;
    if (s->n_used < s->k)
        choices[n++] = s->n_used;
    return n;
}

static void place_unit(struct partition *s, int u, int j, bool *saved)
{
    const struct unit *unit = unit_at(s, u);
    bool opened = j == s->n_used;
    for (int v = 0; v < s->n; v++)
        saved[v] = *fit(s, v, j);
    memcpy(s->runs[j].req + s->runs[j].n, s->p->members + unit->first,
           (size_t)unit->n * sizeof(int));
    s->runs[j].n += unit->n;
    s->unit_run[u] = j;
    if (opened)
        s->n_used++;
    for (int v = 0; v < s->n; v++)
        if (s->unit_run[v] < 0)
            *fit(s, v, j) = (opened || *fit(s, v, j)) && unit_fits(s, j, v);
}

static void remove_unit(struct partition *s, int u, int j, const bool *saved)
{
    s->runs[j].n -= unit_at(s, u)->n;
    s->unit_run[u] = -1;
    if (s->runs[j].n == 0)
        s->n_used--;
    for (int v = 0; v < s->n; v++)
        *fit(s, v, j) = saved[v];
}

/* The unplaced unit with the fewest runs to go to (ties: the earlier unit,
 * the units being ordered hardest first), or -1 when all are placed. */
static int most_constrained_unit(const struct partition *s, int *choices, int *n_choices)
{
    int best = -1;
    *n_choices = INT_MAX;
    for (int u = 0; u < s->n; u++) {
        if (s->unit_run[u] >= 0)
            continue;
        int n = unit_choices(s, u, choices);
        if (n < *n_choices) {
            best = u;
            *n_choices = n;
        }
    }
    if (best >= 0)
        unit_choices(s, best, choices);
    return best;
}

static bool pack(struct partition *s, int depth)
{
    int *choices = s->choices + depth * (s->n + 1);
    int n_choices;
    int u = most_constrained_unit(s, choices, &n_choices);
    if (u < 0)
        return true;
    bool *saved = s->saved + depth * s->n;
    for (int c = 0; c < n_choices; c++) {
        if (c > 0 && *s->steps_left <= 0) {
            s->gave_up = true;  /* from here on, first choices only */
            break;
        }
        --*s->steps_left;
        place_unit(s, u, choices[c], saved);
        if (pack(s, depth + 1))
            return true;
        remove_unit(s, u, choices[c], saved);
    }
    return false;
}

/* A partition of `n` units (indices into p->units) drawing on the plan's
 * budget `steps_left`; false when memory runs out (free it all the same). */
bool alloc_partition_init(struct partition *s, const struct planner *p, const int *units, int n,
                          long *steps_left)
{
    size_t m = (size_t)n;
    *s = (struct partition){.p = p, .units = units, .n = n, .steps_left = steps_left};
    s->runs = calloc(m, sizeof *s->runs);
    s->unit_run = malloc(m * sizeof *s->unit_run);
    s->fits = calloc(m * m, sizeof *s->fits);
    s->saved = calloc(m * m, sizeof *s->saved);
    s->choices = calloc(m * (m + 1), sizeof *s->choices);
    return s->runs && s->unit_run && s->fits && s->saved && s->choices;
}

void alloc_partition_free(struct partition *s)
{
    free(s->runs);
    free(s->unit_run);
    free(s->fits);
    free(s->saved);
    free(s->choices);
}

/* Whether the units fit k runs; s->runs[0 .. s->n_used) then hold them. */
bool alloc_pack_into(struct partition *s, int k)
{
    s->k = k;
    s->gave_up = false;
    s->n_used = 0;
    for (int u = 0; u < s->n; u++)
        s->unit_run[u] = -1;
    return pack(s, 0);
}
