/* Pairing two count sets and the differences (compare.h). */
#include "compare.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/grow_array.h"

/* The two counts are of the same event; *mapping the row pairing them.
 * Sets that name events alike pair equal names first (a P5 result and a
 * run_p5mon file both have "branches"), sets that do not the mapping
 * first (P5 "branches" is perf's "branches" with a note).  A count with a
 * twin (`twin`: either has one) pairs with its twin only. */
static bool counts_match(const struct count_set *simulated, const struct count *s,
                         const struct count_set *measured, const struct count *m, bool twin,
                         const struct event_mapping **mapping)
{
    *mapping = NULL;
    if (s->region != m->region || (twin && strcasecmp(s->name, m->name) != 0))
        return false;
    bool alike = simulated->p5_names == measured->p5_names;
    bool same = twin || event_same_name(s->name, m->name);
    if (alike && same)
        return true;
    *mapping = event_mapping_find(s->name, m->name);
    return *mapping || same;
}

static bool add_row(struct compare_table *table, size_t *capacity, struct compare_row row)
{
    if (!grow_array(&table->rows, capacity, table->n_rows + 1, sizeof *table->rows, 16))
        return false;
    table->rows[table->n_rows++] = row;
    return true;
}

/* Which counts of `set` have a twin in `other`: a count of the same name
 * (in any case) and region.  A twin pairs only with its twin: data_read:u
 * with data_read:u, not also with data_read:k, which the names without
 * their modifiers would pair. */
static bool *find_twins(const struct count_set *set, const struct count_set *other)
{
    bool *twin = calloc(set->n_counts + 1, sizeof *twin);
    for (size_t i = 0; twin && i < set->n_counts; i++)
        twin[i] = count_set_find(other, set->counts[i].name, set->counts[i].region) != NULL;
    return twin;
}

/* Counts chained by a key and their region, so that pairing takes time
 * linear in the sets' sizes: `index` holds the first count of each key,
 * next[j] the count after j with j's key (NAME_INDEX_NONE after the last). */
struct chains {
    size_t *next;
    struct name_index index;
};

/* Chains the counts of `set` by keys[j] (kept by pointer). */
static bool chain_counts(const struct count_set *set, const char *const *keys, struct chains *c)
{
    c->next = malloc((set->n_counts + 1) * sizeof *c->next);
    bool ok = c->next != NULL;
    for (size_t j = set->n_counts; ok && j-- > 0;) {
        c->next[j] = name_index_get(&c->index, keys[j], set->counts[j].region);
        ok = name_index_put(&c->index, keys[j], set->counts[j].region, j);
    }
    return ok;
}

/* The measured counts chained by name (a twin pairs by it) and by
 * canonical name (event_canonical_name). */
struct measured_keys {
    char *names;             /* the canonical names, one after another */
    const char **keys;       /* count j's canonical name, then its name */
    struct chains by_name, by_canonical;
};

static void measured_keys_free(struct measured_keys *m)
{
    free(m->names);
    free(m->keys);
    free(m->by_name.next);
    free(m->by_canonical.next);
    name_index_free(&m->by_name.index);
    name_index_free(&m->by_canonical.index);
}

static bool canonical_keys(const struct count_set *set, struct measured_keys *m)
{
    char name[EVENT_CANONICAL_SIZE];
    size_t size = 1;
    for (size_t j = 0; j < set->n_counts; j++) {
        event_canonical_name(set->counts[j].name, name, sizeof name);
        size += strlen(name) + 1;
    }
    m->names = malloc(size);
    m->keys = malloc((set->n_counts + 1) * sizeof *m->keys);
    char *key = m->names;
    for (size_t j = 0; m->names && m->keys && j < set->n_counts; j++) {
        event_canonical_name(set->counts[j].name, name, sizeof name);
        m->keys[j] = memcpy(key, name, strlen(name) + 1);
        key += strlen(name) + 1;
    }
    return m->names && m->keys;
}

static bool index_measured(const struct count_set *set, struct measured_keys *m)
{
    if (!canonical_keys(set, m) || !chain_counts(set, m->keys, &m->by_canonical))
        return false;
    for (size_t j = 0; j < set->n_counts; j++)
        m->keys[j] = set->counts[j].name; /* by_canonical keeps pointers into m->names */
    return chain_counts(set, m->keys, &m->by_name);
}

/* Positions of measured counts, growing. */
struct candidates {
    size_t *at;
    size_t n, capacity;
};

static bool add_chain(struct candidates *c, const struct chains *chains, const char *key,
                      int region)
{
    for (size_t j = name_index_get(&chains->index, key, region); j != NAME_INDEX_NONE;
         j = chains->next[j]) {
        if (!grow_array(&c->at, &c->capacity, c->n + 1, sizeof *c->at, 16))
            return false;
        c->at[c->n++] = j;
    }
    return true;
}

static int by_position(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* The measured counts `s` may pair with, in the measured set's order
 * (a position may appear twice): those of its name, of its canonical name
 * and of the names a mapping row pairs with it, in its region.  Any count
 * counts_match accepts is among them. */
static bool find_candidates(const struct count *s, const struct measured_keys *m,
                            struct candidates *c)
{
    char key[EVENT_CANONICAL_SIZE];
    event_canonical_name(s->name, key, sizeof key);
    c->n = 0;
    bool ok = add_chain(c, &m->by_name, s->name, s->region) &&
              add_chain(c, &m->by_canonical, key, s->region);
    size_t row = 0;
    for (const char *partner; ok && (partner = event_mapping_partner(key, &row));)
        ok = add_chain(c, &m->by_canonical, partner, s->region);
    if (c->n > 1) /* qsort wants an array, and there is none before the first candidate */
        qsort(c->at, c->n, sizeof *c->at, by_position);
    return ok;
}

struct pairing {
    const struct count_set *simulated, *measured;
    bool *paired, *simulated_twin, *measured_twin;
    struct measured_keys keys;
    struct candidates candidates;
    struct compare_table *table;
    size_t capacity;
};

/* The rows of simulated count i: one per measured count it matches, or
 * one of its own. */
static bool pair_one(struct pairing *p, size_t i)
{
    const struct count *s = &p->simulated->counts[i];
    bool found = false;
    bool ok = find_candidates(s, &p->keys, &p->candidates);
    for (size_t k = 0; ok && k < p->candidates.n; k++) {
        size_t j = p->candidates.at[k];
        struct compare_row row = {.simulated = s, .measured = &p->measured->counts[j]};
        bool twin = p->simulated_twin[i] || p->measured_twin[j];
        if (k > 0 && j == p->candidates.at[k - 1])
            continue;
        p->table->examined++;
        if (counts_match(p->simulated, s, p->measured, row.measured, twin, &row.mapping)) {
            ok = add_row(p->table, &p->capacity, row);
            p->paired[j] = found = true;
        }
    }
    return ok && (found || add_row(p->table, &p->capacity, (struct compare_row){.simulated = s}));
}

bool compare_pair(const struct count_set *simulated, const struct count_set *measured,
                  struct compare_table *table)
{
    *table = (struct compare_table){0};
    struct pairing p = {
        .simulated = simulated, .measured = measured, .table = table,
        .paired = calloc(measured->n_counts + 1, sizeof *p.paired),
        .simulated_twin = find_twins(simulated, measured),
        .measured_twin = find_twins(measured, simulated),
    };
    bool ok = p.paired && p.simulated_twin && p.measured_twin && index_measured(measured, &p.keys);
    for (size_t i = 0; ok && i < simulated->n_counts; i++)
        ok = pair_one(&p, i);
    for (size_t j = 0; ok && j < measured->n_counts; j++)
        if (!p.paired[j])
            ok = add_row(table, &p.capacity, (struct compare_row){.measured = &measured->counts[j]});
    free(p.paired);
    free(p.simulated_twin);
    free(p.measured_twin);
    measured_keys_free(&p.keys);
    free(p.candidates.at);
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

enum { BILLION = 1000000000 };

/* a < b, exactly. */
static bool below(const struct count *a, const struct count *b)
{
    return a->value < b->value || (a->value == b->value && a->fraction < b->fraction);
}

/* d gets a - b, for a not below b. */
static void subtract(const struct count *a, const struct count *b, struct compare_difference *d)
{
    bool borrow = a->fraction < b->fraction;
    d->whole = a->value - b->value - borrow;
    d->fraction = a->fraction + (borrow ? BILLION : 0) - b->fraction;
}

/* A number for the percentage. */
static double approximate(uint64_t whole, uint32_t fraction)
{
    return (double)whole + fraction / 1e9;
}

struct compare_difference compare_difference(const struct compare_row *row)
{
    struct compare_difference d = {0};
    const struct count *s = row->simulated, *m = row->measured;
    if (!s || !m || s->status != COUNT_COUNTED || m->status != COUNT_COUNTED)
        return d;
    d.defined = true;
    d.negative = below(m, s);
    if (d.negative)
        subtract(s, m, &d);
    else
        subtract(m, s, &d);
    d.decimals = s->decimals > m->decimals ? s->decimals : m->decimals;
    bool measured_zero = m->value == 0 && m->fraction == 0;
    d.percent_defined = !measured_zero || (d.whole == 0 && d.fraction == 0);
    d.percent = measured_zero ? 0
                              : (d.negative ? -100 : 100) * approximate(d.whole, d.fraction) /
                                    approximate(m->value, m->fraction);
    return d;
}

/* WHOLE.FRACTION with `decimals` digits after the point (fraction in
 * billionths, a multiple of 10^(9 - decimals)). */
static void format_number(bool negative, uint64_t whole, uint32_t fraction, int decimals,
                          char *out, size_t size)
{
    const char *sign = negative ? "-" : "";
    if (decimals == 0) {
        snprintf(out, size, "%s%" PRIu64, sign, whole);
        return;
    }
    uint32_t scale = 1;
    for (int i = decimals; i < 9; i++)
        scale *= 10;
    snprintf(out, size, "%s%" PRIu64 ".%0*" PRIu32, sign, whole, decimals, fraction / scale);
}

void compare_format_count(const struct count *count, char *out, size_t size)
{
    format_number(false, count->value, count->fraction, count->decimals, out, size);
}

void compare_format_difference(const struct compare_difference *d, char *out, size_t size)
{
    format_number(d->negative, d->whole, d->fraction, d->decimals, out, size);
}
