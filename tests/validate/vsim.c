/* The validation suite's simulations (tests/validate/vsim.h). */
#include "vsim.h"

#include <stdio.h>
#include <string.h>

#include "isa/x86.h"
#include "pmu/emulated/netburst_pmu.h"
#include "pmu/emulated/p5_pmu.h"
#include "sim/netburst/nbm_model.h"
#include "sim/p5/p5_model.h"
#include "util/input_file.h"
#include "traces/trace.h"

/* The cycle counts at the markers: a region's cycles are its end's count
 * less its begin's. */
struct marks {
    enum vsim_model model;
    struct msr_backend *backend;
    uint64_t *cycles;
    size_t n_regions;
    uint64_t begin;
};

static uint64_t now(const struct marks *m)
{
    return m->model == VSIM_P5 ? p5_pmu_cycles(p5_backend_pmu(m->backend))
                               : nb_pmu_cycles(nb_backend_pmu(m->backend));
}

static void mark(struct marks *m, bool begin, uint32_t region)
{
    if (begin)
        m->begin = now(m);
    else if (region >= 1 && region <= m->n_regions)
        m->cycles[region] = now(m) - m->begin;
}

static void p5_mark(void *context, bool begin, uint32_t region)
{
    mark(context, begin, region);
}

static void nb_mark(void *context, int thread, bool begin, uint32_t region)
{
    (void)thread;
    mark(context, begin, region);
}

static bool run_p5(const char *trace, const char *preset, struct marks *m, char *error,
                   size_t error_size)
{
    struct p5_config config;
    if (!p5_config_preset(preset, &config, error, error_size))
        return false;
    m->backend = p5_backend_create();
    if (!m->backend) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    struct p5_sim_hooks hooks = {.region = p5_mark, .context = m};
    struct p5_sim_result result;
    bool ok = p5_simulate_trace(trace, &config, m->backend, &hooks, &result, error, error_size);
    msr_backend_destroy(m->backend);
    return ok;
}

static bool run_nb(const char *trace, const char *preset, struct marks *m, char *error,
                   size_t error_size)
{
    struct nbm_config config;
    if (!nbm_config_preset(preset, &config, error, error_size))
        return false;
    m->backend = nb_backend_create((struct nb_pmu_config){config.model, false});
    if (!m->backend) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    struct nbm_hooks hooks = {.region = nb_mark, .context = m};
    struct nbm_result result;
    bool ok = nbm_simulate(&trace, 1, &config, m->backend, &hooks, &result, error, error_size);
    msr_backend_destroy(m->backend);
    return ok;
}

bool vsim_run(const char *trace, enum vsim_model model, const char *preset, uint64_t *cycles,
              size_t n_regions, char *error, size_t error_size)
{
    memset(cycles, 0, (n_regions + 1) * sizeof *cycles);
    struct marks m = {model, NULL, cycles, n_regions, 0};
    return model == VSIM_P5 ? run_p5(trace, preset, &m, error, error_size)
                            : run_nb(trace, preset, &m, error, error_size);
}

/* ---- census */

enum { KEYS = 8 };

/* The distinct keys of one region's instructions, with counts (the first
 * KEYS of them). */
struct tally {
    char key[KEYS][VSIM_KEY];
    char family[KEYS][16];
    uint64_t count[KEYS];
    int n;
};

static void tally_add(struct tally *t, const struct x86_insn *insn)
{
    char key[VSIM_KEY];
    snprintf(key, sizeof key, "%s %s", insn->family, insn->form);
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->key[i], key) == 0) {
            t->count[i]++;
            return;
        }
    if (t->n == KEYS)
        return;
    snprintf(t->key[t->n], VSIM_KEY, "%s", key);
    snprintf(t->family[t->n], sizeof t->family[0], "%s", insn->family);
    t->count[t->n++] = 1;
}

/* The commonest key of `family`, else the commonest. */
static const char *tally_top(const struct tally *t, const char *family)
{
    int best = -1;
    for (int pass = 0; pass < 2 && best < 0; pass++)
        for (int i = 0; i < t->n; i++)
            if ((pass == 1 || strcmp(t->family[i], family) == 0) &&
                (best < 0 || t->count[i] > t->count[best]))
                best = i;
    return best < 0 ? "" : t->key[best];
}

struct census_run {
    vsim_row_of *row_of;
    const void *const *rows;
    const char *const *families;
    struct vsim_census *census;
    size_t n_regions;
    uint32_t region; /* the region open, 0: none */
    struct tally tally;
};

static void count_insn(struct census_run *c, const struct trace_insn *insn)
{
    struct x86_insn x;
    if (!c->region || !c->rows[c->region] || !insn->has_bytes ||
        !x86_decode(insn->bytes, insn->length, insn->address, X86_MODE_32, &x))
        return;
    tally_add(&c->tally, &x);
    if (c->row_of(x.family, x.form) == c->rows[c->region])
        c->census[c->region].matches++;
}

static void census_marker(struct census_run *c, bool begin, uint32_t region)
{
    bool known = region >= 1 && region <= c->n_regions;
    if (begin) {
        c->region = known ? region : 0;
        memset(&c->tally, 0, sizeof c->tally);
        return;
    }
    if (c->region && c->rows[c->region])
        snprintf(c->census[c->region].key, VSIM_KEY, "%s",
                 tally_top(&c->tally, c->families[c->region]));
    c->region = 0;
}

bool vsim_census(const char *trace, vsim_row_of *row_of, const void *const *rows,
                 const char *const *families, struct vsim_census *census, size_t n_regions,
                 char *error, size_t error_size)
{
    memset(census, 0, (n_regions + 1) * sizeof *census);
    FILE *in = input_open(trace, error, error_size);
    if (!in)
        return false;
    struct trace_reader *reader = trace_reader_open(in, trace, error, error_size);
    if (!reader) {
        fclose(in);
        return false;
    }
    struct census_run c = {.row_of = row_of, .rows = rows, .families = families,
                           .census = census, .n_regions = n_regions};
    bool ok = true;
    for (;;) {
        const struct trace_record *rec;
        if (trace_next(reader, &rec) != TRACE_OK) {
            snprintf(error, error_size, "%s", trace_reader_error(reader));
            ok = false;
            break;
        }
        if (rec->kind == TRACE_RECORD_END)
            break;
        if (rec->kind == TRACE_RECORD_INSN)
            count_insn(&c, &rec->insn);
        else
            census_marker(&c, rec->kind == TRACE_RECORD_REGION_BEGIN, rec->region);
    }
    trace_reader_close(reader);
    fclose(in);
    return ok;
}
