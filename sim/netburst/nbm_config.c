/* Presets and parameters of the NetBurst model; docs/netburst-model.md
 * cites the source of every value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/number.h"
#include "util/suggest.h"
#include "sim/netburst/nbm_model.h"

/* Northwood (the Pentium 4 monitoring study, sections 3-5; docs/netburst-model.md). */
static const struct nbm_config northwood = {
    .name = "northwood", .model = 2,
    .tc_uops = 12288, .tc_ways = 8, .tc_line_uops = 6, .deliver_width = 3,
    .itlb_entries = 128, .itlb_ways = 4, .btb_entries = 4096, .btb_ways = 4, .ras_entries = 16,
    .uop_queue = 12, .queue_to_alloc = 1, .alloc_to_exec = 11, .branch_redirect = 8,
    .rob = 126, .load_buffers = 48, .store_buffers = 24, .alloc_width = 3, .retire_width = 3,
    .l1d_size = 8192, .l1d_ways = 4, .l1d_latency = 2, .l1d_load_misses = 4, .dtlb_entries = 64,
    .l2_size = 512 * 1024, .l2_ways = 8, .l2_latency = 7,
    .memory_latency = 200, .page_walk_latency = 20,
    .pmi_latency = 18, .bus_ratio = 18,
};

struct preset {
    const char *name;
    const char *base;       /* the preset's own name in config.name */
    int model;
    uint32_t l2_size, l1d_size, l1d_ways, l1d_latency, l1d_load_misses, l2_latency, alloc_to_exec;
    uint32_t store_buffers;
    uint32_t bus_ratio;     /* core clocks per bus clock (docs/netburst-model.md, "Parameters") */
};

static const struct preset presets[] = {
    {"willamette", "willamette", 1, 256 * 1024, 8192, 4, 2, 4, 7, 11, 24, 15},
    {"willamette0", "willamette", 0, 256 * 1024, 8192, 4, 2, 4, 7, 11, 24, 15},
    {"northwood", "northwood", 2, 512 * 1024, 8192, 4, 2, 4, 7, 11, 24, 18},
    /* Prescott: 31 stages, 11 more than Northwood (the Pentium 4 monitoring study, section 3.2), put
     * between allocation and execution; 16 KB 8-way L1 (the Pentium 4 monitoring study, section 3.2);
     * eight L1 load misses outstanding and 32 store buffers, not four and
     * 24 (docs/netburst-model.md, "Parameters"). */
    {"prescott", "prescott", 3, 1024 * 1024, 16384, 8, 4, 8, 18, 22, 32, 16},
    {"prescott4", "prescott", 4, 1024 * 1024, 16384, 8, 4, 8, 18, 22, 32, 16},
};

/* The presets' names in the table's order, "netburst" after the default
 * one's: "willamette, willamette0, northwood, netburst, ...". */
static const char *preset_list(void)
{
    static char list[256];
    size_t at = 0;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0] && at < sizeof list; i++) {
        bool is_default = strcmp(presets[i].name, NBM_DEFAULT_PRESET) == 0;
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s%s", i ? ", " : "",
                               presets[i].name, is_default ? ", netburst" : "");
    }
    return list;
}

bool nbm_config_preset(const char *name, struct nbm_config *config, char *error,
                       size_t error_size)
{
    if (strcasecmp(name, "netburst") == 0)
        name = NBM_DEFAULT_PRESET;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        const struct preset *p = &presets[i];
        if (strcasecmp(p->name, name) != 0)
            continue;
        *config = northwood;
        snprintf(config->name, sizeof config->name, "%s", p->base);
        config->model = p->model;
        config->l2_size = p->l2_size;
        config->l1d_size = p->l1d_size;
        config->l1d_ways = p->l1d_ways;
        config->l1d_latency = p->l1d_latency;
        config->l1d_load_misses = p->l1d_load_misses;
        config->store_buffers = p->store_buffers;
        config->bus_ratio = p->bus_ratio;
        config->l2_latency = p->l2_latency;
        config->alloc_to_exec = p->alloc_to_exec;
        return true;
    }
    struct suggestion near;
    suggestion_start(&near, name);
    suggestion_consider(&near, "netburst");
    for (size_t i = 0; nbm_preset_name(i); i++)
        suggestion_consider(&near, nbm_preset_name(i));
    if (near.best)
        snprintf(error, error_size, "unknown NetBurst preset '%s' (did you mean '%s'?)", name,
                 near.best);
    else
        snprintf(error, error_size, "unknown NetBurst preset '%s' (%s)", name, preset_list());
    return false;
}

const char *nbm_preset_name(size_t i)
{
    return i < sizeof presets / sizeof presets[0] ? presets[i].name : NULL;
}

const char *nbm_preset_of_cpuid_model(int model)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (presets[i].model == model)
            return presets[i].name;
    return NULL;
}

/* ---- parameters by name */

struct parameter {
    const char *name;
    size_t offset;
    uint32_t min, max;
};

#define P(field, lo, hi) {#field, offsetof(struct nbm_config, field), lo, hi}
static const struct parameter parameters[] = {
    P(tc_uops, 1, 1u << 20), P(tc_ways, 1, 64), P(tc_line_uops, 1, 64),
    P(deliver_width, 1, 16), P(itlb_entries, 1, 1u << 16), P(itlb_ways, 1, 1u << 16),
    P(btb_entries, 1, 1u << 20), P(btb_ways, 1, 64), P(ras_entries, 1, 1024),
    P(uop_queue, 1, 1024), P(queue_to_alloc, 0, 1000), P(alloc_to_exec, 0, 1000),
    P(branch_redirect, 0, 1000), P(rob, 1, 4096), P(load_buffers, 1, 4096),
    P(store_buffers, 1, 4096), P(alloc_width, 1, 16), P(retire_width, 1, 16),
    P(l1d_size, 64, 1u << 30), P(l1d_ways, 1, 1024),
    P(l1d_latency, 1, 1000), P(l1d_load_misses, 1, NBM_MAX_LOAD_MISSES),
    P(dtlb_entries, 1, 4096), P(l2_size, 128, 1u << 30),
    P(l2_ways, 1, 1024), P(l2_latency, 0, 10000), P(memory_latency, 0, 100000),
    P(page_walk_latency, 0, 100000), P(pmi_latency, 0, 1000000), P(bus_ratio, 1, 64),
};
#undef P

static bool set_model(struct nbm_config *config, const char *value, char *error,
                      size_t error_size)
{
    uint64_t n;
    if (!number_read("model", value, 0, 6, &n, error, error_size))
        return false;
    if (n == 5) {
        snprintf(error, error_size, "bad model '%s' (expected a CPUID model 0-4 or 6)", value);
        return false;
    }
    config->model = (int)n;
    return true;
}

bool nbm_config_set(struct nbm_config *config, const char *name, const char *value, char *error,
                    size_t error_size)
{
    if (strcmp(name, "model") == 0)
        return set_model(config, value, error, error_size);
    for (size_t i = 0; i < sizeof parameters / sizeof parameters[0]; i++) {
        const struct parameter *p = &parameters[i];
        if (strcmp(p->name, name) != 0)
            continue;
        uint64_t n;
        if (!number_read(name, value, p->min, p->max, &n, error, error_size))
            return false;
        memcpy((char *)config + p->offset, &(uint32_t){(uint32_t)n}, sizeof(uint32_t));
        return true;
    }
    struct suggestion near;
    suggestion_start(&near, name);
    suggestion_consider(&near, "model");
    for (size_t i = 0; i < sizeof parameters / sizeof parameters[0]; i++)
        suggestion_consider(&near, parameters[i].name);
    if (near.best)
        snprintf(error, error_size, "unknown parameter '%s' (did you mean '%s'?)", name,
                 near.best);
    else
        snprintf(error, error_size, "unknown parameter '%s' (docs/netburst-model.md lists them)",
                 name);
    return false;
}

/* ---- consistency */

static bool power_of_two(uint64_t n)
{
    return n && !(n & (n - 1));
}

/* `entries` split into `ways` gives a power-of-two number of sets. */
static bool geometry(const char *name, uint64_t entries, uint32_t ways, char *error,
                     size_t error_size)
{
    if (entries % ways == 0 && power_of_two(entries / ways))
        return true;
    snprintf(error, error_size,
             "parameter '%s': %llu entries in %u ways is not a power-of-two number of sets", name,
             (unsigned long long)entries, ways);
    return false;
}

bool nbm_config_check(const struct nbm_config *c, char *error, size_t error_size)
{
    for (size_t i = 0; i < sizeof parameters / sizeof parameters[0]; i++) {
        uint32_t v;
        memcpy(&v, (const char *)c + parameters[i].offset, sizeof v);
        if (v < parameters[i].min || v > parameters[i].max) {
            snprintf(error, error_size, "parameter '%s': %u is outside %u-%u", parameters[i].name,
                     v, parameters[i].min, parameters[i].max);
            return false;
        }
    }
    if (c->model < 0 || c->model > 6 || c->model == 5) {
        snprintf(error, error_size, "parameter 'model': %d is not a NetBurst model", c->model);
        return false;
    }
    if (c->tc_uops % c->tc_line_uops) {
        snprintf(error, error_size, "parameter 'tc_uops': %u is not a multiple of tc_line_uops %u",
                 c->tc_uops, c->tc_line_uops);
        return false;
    }
    return geometry("tc_uops", c->tc_uops / c->tc_line_uops, c->tc_ways, error, error_size) &&
           geometry("itlb_entries", c->itlb_entries, c->itlb_ways, error, error_size) &&
           geometry("btb_entries", c->btb_entries, c->btb_ways, error, error_size) &&
           geometry("l1d_size", c->l1d_size / 64, c->l1d_ways, error, error_size) &&
           geometry("l2_size", c->l2_size / 128, c->l2_ways, error, error_size);
}
