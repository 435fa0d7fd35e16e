/* The interval series of `pmubench stat -I` (apps/stat/stat_interval.h,
 * docs/stat.md "Intervals"). */
#include "stat_interval.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow_array.h"

void stat_intervals_free(struct stat_intervals *s)
{
    free(s->intervals);
    free(s->counts);
    s->intervals = NULL;
    s->counts = NULL;
    s->n = s->capacity = s->counts_capacity = 0;
}

bool interval_pass_start(struct interval_pass *pass, struct stat_intervals *series,
                         struct program *programs, int n)
{
    size_t n_requests = (size_t)series->n_requests;
    *pass = (struct interval_pass){series, programs, n, calloc(n_requests, sizeof *pass->last),
                                   calloc(n_requests, sizeof *pass->now), 0, false, {0, 0, 0},
                                   MSR_OK, NULL, false};
    if (pass->last && pass->now)
        return true;
    free(pass->last);
    free(pass->now);
    return false;
}

/* Room for one interval more; false when out of memory. */
static bool grow(struct stat_intervals *s)
{
    size_t width = (size_t)s->n_requests;
    return grow_array(&s->intervals, &s->capacity, s->n + 1, sizeof *s->intervals, 64) &&
           grow_array(&s->counts, &s->counts_capacity, (s->n + 1) * width, sizeof *s->counts,
                      64 * width);
}

/* The pass's next interval, ending at `point`: the one a pass before made,
 * or a new one (NULL when out of memory). */
static uint64_t *next_interval(struct interval_pass *pass, const struct interval_point *point)
{
    struct stat_intervals *s = pass->series;
    pass->made_last = pass->index == s->n;
    if (pass->made_last) {
        if (!grow(s))
            return NULL;
        s->intervals[s->n] = (struct stat_interval){
            interval_position(s->unit, point), point->instructions - pass->at.instructions,
            point->cycles - pass->at.cycles, point->uops - pass->at.uops};
        memset(&s->counts[s->n * (size_t)s->n_requests], 0,
               (size_t)s->n_requests * sizeof *s->counts);
        s->n++;
    }
    pass->at = *point;
    return &s->counts[pass->index++ * (size_t)s->n_requests];
}

/* Adds to `counts` what each request counted since the last read, its
 * counter now at pass->now[request]: modulo the counters' 40 bits. */
static void add_deltas(struct interval_pass *pass, uint64_t *counts)
{
    for (int i = 0; i < pass->series->n_requests; i++) {
        counts[i] += (pass->now[i] - pass->last[i]) & PMU_COUNTER_MASK;
        pass->last[i] = pass->now[i];
    }
}

/* Reads every program of the pass into pass->now; false with the failing
 * read's status and program kept. */
static bool read_counters(struct interval_pass *pass)
{
    for (int p = 0; p < pass->n; p++) {
        struct program *program = &pass->programs[p];
        uint64_t values[ALLOC_MAX_PER_RUN];
        msr_status status = program_read(program, values);
        if (status != MSR_OK) {
            pass->status = status;
            pass->failed = program;
            return false;
        }
        for (int a = 0; a < program->run->n; a++)
            pass->now[program->run->assignments[a].request] = values[a];
    }
    return true;
}

void interval_pass_end(void *context, const struct interval_point *point)
{
    struct interval_pass *pass = context;
    if (pass->status != MSR_OK || pass->out_of_memory || !read_counters(pass))
        return;
    uint64_t *counts = next_interval(pass, point);
    if (counts)
        add_deltas(pass, counts);
    else
        pass->out_of_memory = true;
}

/* Whether nothing happened since the last interval's end. */
static bool nothing_since(const struct interval_pass *pass, const struct interval_point *totals)
{
    if (totals->instructions != pass->at.instructions || totals->cycles != pass->at.cycles)
        return false;
    for (int i = 0; i < pass->series->n_requests; i++)
        if (pass->now[i] != pass->last[i])
            return false;
    return true;
}

/* Whether the unit's running total went past the pass's last interval's
 * end (or there is none): otherwise what the run did after it (the
 * NetBurst's cycle after the last retirement, at -I N) belongs to it, for
 * the ends to increase. */
static bool unit_passed(const struct interval_pass *pass, const struct interval_point *totals)
{
    enum interval_unit unit = pass->series->unit;
    return pass->index == 0 ||
           interval_position(unit, totals) != interval_position(unit, &pass->at);
}

/* The pass's last interval, its facts grown to `point` when the pass
 * made it. */
static uint64_t *last_interval(struct interval_pass *pass, const struct interval_point *point)
{
    struct stat_intervals *s = pass->series;
    struct stat_interval *last = &s->intervals[pass->index - 1];
    if (pass->made_last) {
        last->instructions += point->instructions - pass->at.instructions;
        last->cycles += point->cycles - pass->at.cycles;
        last->uops += point->uops - pass->at.uops;
    }
    pass->at = *point;
    return &s->counts[(pass->index - 1) * (size_t)s->n_requests];
}

void interval_pass_finish(struct interval_pass *pass, const struct interval_point *totals,
                          const uint64_t *counts)
{
    for (int p = 0; p < pass->n; p++) {
        const struct alloc_run *run = pass->programs[p].run;
        for (int a = 0; a < run->n; a++)
            pass->now[run->assignments[a].request] = counts[run->assignments[a].request];
    }
    if (!pass->out_of_memory && (pass->index < pass->series->n || !nothing_since(pass, totals))) {
        uint64_t *into = unit_passed(pass, totals) ? next_interval(pass, totals)
                                                   : last_interval(pass, totals);
        if (into)
            add_deltas(pass, into);
        else
            pass->out_of_memory = true;
    }
    free(pass->last);
    free(pass->now);
    pass->last = pass->now = NULL;
}
