/* Pairing two count sets and the differences (compare.h). */
#include "compare.h"

#include <stdlib.h>

/* The two counts are of the same event; *mapping the row pairing them.
 * Sets that name events alike pair equal names first (a P5 result and a
 * run_p5mon file both have "branches"), sets that do not the mapping
 * first (P5 "branches" is perf's "branches" with a note). */
static bool counts_match(const struct count_set *simulated, const struct count *s,
                         const struct count_set *measured, const struct count *m,
                         const struct event_mapping **mapping)
{
    *mapping = NULL;
    if (s->region != m->region)
        return false;
    bool alike = simulated->p5_names == measured->p5_names;
    if (alike && event_same_name(s->name, m->name))
        return true;
    *mapping = event_mapping_find(s->name, m->name);
    return *mapping || event_same_name(s->name, m->name);
}

static bool add_row(struct compare_table *table, size_t *capacity, struct compare_row row)
{
    if (table->n_rows == *capacity) {
        size_t bigger = *capacity ? 2 * *capacity : 16;
        struct compare_row *rows = realloc(table->rows, bigger * sizeof *rows);
        if (!rows)
            return false;
        table->rows = rows;
        *capacity = bigger;
    }
    table->rows[table->n_rows++] = row;
    return true;
}

bool compare_pair(const struct count_set *simulated, const struct count_set *measured,
                  struct compare_table *table)
{
    *table = (struct compare_table){0};
    size_t capacity = 0;
    bool *paired = calloc(measured->n_counts + 1, sizeof *paired);
    bool ok = paired != NULL;
    for (size_t i = 0; ok && i < simulated->n_counts; i++) {
        const struct count *s = &simulated->counts[i];
        bool found = false;
        for (size_t j = 0; ok && j < measured->n_counts; j++) {
            struct compare_row row = {.simulated = s, .measured = &measured->counts[j]};
            if (counts_match(simulated, s, measured, row.measured, &row.mapping)) {
                ok = add_row(table, &capacity, row);
                paired[j] = found = true;
            }
        }
        if (ok && !found)
            ok = add_row(table, &capacity, (struct compare_row){.simulated = s});
    }
    for (size_t j = 0; ok && j < measured->n_counts; j++)
        if (!paired[j])
            ok = add_row(table, &capacity, (struct compare_row){.measured = &measured->counts[j]});
    free(paired);
    if (!ok)
        compare_table_free(table);
    return ok;
}

void compare_table_free(struct compare_table *table)
{
    free(table->rows);
    *table = (struct compare_table){0};
}

bool compare_like_for_like(const struct compare_row *row)
{
    return !row->mapping || row->mapping->like_for_like;
}

struct compare_difference compare_difference(const struct compare_row *row)
{
    struct compare_difference d = {0};
    const struct count *s = row->simulated, *m = row->measured;
    if (!s || !m || s->status != COUNT_COUNTED || m->status != COUNT_COUNTED)
        return d;
    d.defined = true;
    d.difference = m->value - s->value;
    d.decimals = s->decimals > m->decimals ? s->decimals : m->decimals;
    d.percent_defined = m->value != 0 || d.difference == 0;
    d.percent = m->value != 0 ? 100 * d.difference / m->value : 0;
    return d;
}
