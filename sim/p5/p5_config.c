/* The model's parameters: the named presets, setting one by name, and the
 * consistency check.  docs/p5-model.md, "Parameters", gives every name. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/number.h"
#include "util/suggest.h"
#include "sim/p5/p5_bus.h"
#include "sim/p5/p5_config_internal.h"

bool p5_config_fail(char *error, size_t error_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error, error_size, fmt, ap);
    va_end(ap);
    return false;
}

/* Safford 1997, Table 5.5 and the SDM's Pentium description.  The L2 and the
 * memory run on a 66 MHz bus under a 100 MHz core: 1.5 core clocks per
 * bus clock, rounded up (docs/p5-model.md, "Clocks"). */
static const struct p5_config p5_preset = {
    .name = "p5",
    .dcache = {8192, 2, 32},
    .icache = {8192, 2, 32},
    .dtlb = {64, 4, 4096},
    .itlb = {32, 4, 4096},
    .dcache_banks = 8,
    .btb_entries = 256,
    .btb_ways = 4,
    .write_buffers = 2,
    .l2_latency = 5,     /* 3 bus clocks to the first (critical) 8 bytes */
    .memory_latency = 15, /* 10 bus clocks */
    .l2_size = 256 * 1024,
    .l2_ways = 1,
    .l2_line = 32,
    .mispredict_penalty = 3,
    .errata = P5_ERRATA_ALL,
    .dcache_write_back = true,
    .dcache_write_allocate = false,
    .l2_burst = 9,       /* 3-1-1-1: 6 bus clocks for a 32-byte line */
    .memory_burst = 29,  /* 10-3-3-3: 19 bus clocks */
    .bus_write = 5,      /* 3 bus clocks for one write */
    .bus_writeback = 9,  /* 3-1-1-1 */
    .tlb_miss_penalty = 10,
    .misaligned_penalty = 3,
    .bank_conflict_penalty = 1,
    /* FNINIT's control word, 0x37F, has precision control 11b (double
     * extended: SDM vol. 2, FINIT/FNINIT; vol. 1, 8.1.5.2), and Linux
     * starts every task's x87 with it (arch/x86/kernel/fpu/core.c). */
    .fpu_precision = P5_PRECISION_EXTENDED,
};

/* The Pentium MMX (CPUID family 5, model 4): the P5 with 16 KB 4-way code
 * and data caches (Intel's Pentium Processor with MMX Technology
 * datasheet), the MMX unit and its prefix decoding (docs/p5-model.md,
 * "The pmmx preset"). */
static struct p5_config pmmx_preset(void)
{
    struct p5_config pmmx = p5_preset;
    snprintf(pmmx.name, sizeof pmmx.name, "pmmx");
    pmmx.dcache = (struct p5_cache_config){16384, 4, 32};
    pmmx.icache = (struct p5_cache_config){16384, 4, 32};
    pmmx.mmx = true;
    return pmmx;
}

bool p5_config_preset_from(const char *name, const char *cache_dir, struct p5_config *config,
                           char *error, size_t error_size)
{
    if (strcmp(name, "p5") == 0) {
        *config = p5_preset;
        return true;
    }
    if (strcmp(name, "pmmx") == 0) {
        *config = pmmx_preset();
        return true;
    }
    if (strcmp(name, "host") == 0) {
        struct p5_config host = p5_preset;
        snprintf(host.name, sizeof host.name, "host");
        if (!p5_config_read_host_caches(cache_dir, &host, error, error_size))
            return false;
        *config = host;
        return true;
    }
    struct suggestion near;
    suggestion_start(&near, name);
    suggestion_consider(&near, "p5");
    suggestion_consider(&near, "pmmx");
    suggestion_consider(&near, "host");
    if (near.best)
        return p5_config_fail(error, error_size,
                              "unknown P5 model preset '%s' (did you mean '%s'?)", name, near.best);
    return p5_config_fail(error, error_size, "unknown P5 model preset '%s' (expected p5, pmmx or host)", name);
}

bool p5_config_preset(const char *name, struct p5_config *config, char *error, size_t error_size)
{
    return p5_config_preset_from(name, P5_HOST_CACHE_DIR, config, error, error_size);
}

/* ---- setting a parameter by name */

enum value_kind {
    POWER_OF_TWO, /* a size or a count that indexes by bit masks */
    POSITIVE,     /* a count of at least 1 */
    CLOCKS,       /* 0 or more clocks */
    SIZE_OR_ZERO, /* the L2 size: 0 means no L2 */
    FLAG,         /* 0 or 1 */
};

struct parameter {
    const char *name;
    size_t offset;
    enum value_kind kind;
};

#define U32(field, kind) {#field, offsetof(struct p5_config, field), kind}
#define GEOMETRY(cache, field, kind) \
    {#cache "_" #field, offsetof(struct p5_config, cache.field), kind}

static const struct parameter parameters[] = {
    GEOMETRY(dcache, size, POWER_OF_TWO), GEOMETRY(dcache, ways, POSITIVE),
    GEOMETRY(dcache, line, POWER_OF_TWO), GEOMETRY(icache, size, POWER_OF_TWO),
    GEOMETRY(icache, ways, POSITIVE),     GEOMETRY(icache, line, POWER_OF_TWO),
    GEOMETRY(dtlb, entries, POSITIVE),    GEOMETRY(dtlb, ways, POSITIVE),
    GEOMETRY(dtlb, page, POWER_OF_TWO),   GEOMETRY(itlb, entries, POSITIVE),
    GEOMETRY(itlb, ways, POSITIVE),       GEOMETRY(itlb, page, POWER_OF_TWO),
    U32(dcache_banks, POWER_OF_TWO),      U32(btb_entries, POSITIVE),
    U32(btb_ways, POSITIVE),              U32(write_buffers, POSITIVE),
    U32(l2_latency, CLOCKS),              U32(memory_latency, CLOCKS),
    U32(l2_size, SIZE_OR_ZERO),           U32(l2_ways, POSITIVE),
    U32(l2_line, POWER_OF_TWO),           U32(mispredict_penalty, CLOCKS),
    U32(l2_burst, CLOCKS),                U32(memory_burst, CLOCKS),
    U32(bus_write, CLOCKS),               U32(bus_writeback, CLOCKS),
    U32(tlb_miss_penalty, CLOCKS),        U32(misaligned_penalty, CLOCKS),
    U32(bank_conflict_penalty, CLOCKS),
};

static const struct {
    const char *name;
    size_t offset;
} flags[] = {
    {"dcache_write_back", offsetof(struct p5_config, dcache_write_back)},
    {"dcache_write_allocate", offsetof(struct p5_config, dcache_write_allocate)},
    {"mmx", offsetof(struct p5_config, mmx)},
};

static const struct {
    const char *name;
    enum p5_erratum bit;
} errata_names[] = {
    {"misaligned_double_miss", P5_ERRATUM_MISALIGNED_DOUBLE_MISS},
    {"misaligned_double_access", P5_ERRATUM_MISALIGNED_DOUBLE_ACCESS},
    {"fst_misaligned_twice", P5_ERRATUM_FST_MISALIGNED_TWICE},
    {"misaligned_stall_2", P5_ERRATUM_MISALIGNED_STALL_2},
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_PARAMETER (1u << 30)

static bool is_power_of_two(uint64_t v)
{
    return v && !(v & (v - 1));
}

static bool parse_flag(const char *text, bool *value)
{
    static const char *const on[] = {"1", "on", "true", "yes"};
    static const char *const off[] = {"0", "off", "false", "no"};
    for (size_t i = 0; i < COUNT_OF(on); i++) {
        if (strcasecmp(text, on[i]) == 0) {
            *value = true;
            return true;
        }
        if (strcasecmp(text, off[i]) == 0) {
            *value = false;
            return true;
        }
    }
    return false;
}

/* The numbers a kind of value takes, before the power-of-two rule. */
static uint64_t kind_min(enum value_kind kind)
{
    return kind == POWER_OF_TWO || kind == POSITIVE ? 1 : 0;
}

static uint64_t kind_max(enum value_kind kind)
{
    return kind == FLAG ? 1 : MAX_PARAMETER;
}

/* `name`'s value: a number of its kind's range (util/number.h), a power of
 * two for a size. */
static bool kind_value(enum value_kind kind, const char *name, const char *text, uint64_t *v,
                       char *error, size_t error_size)
{
    if (!number_read(name, text, kind_min(kind), kind_max(kind), v, error, error_size))
        return false;
    if (kind == POWER_OF_TWO && !is_power_of_two(*v))
        return p5_config_fail(error, error_size, "bad %s '%s' (expected a power of two)", name,
                              text);
    if (kind == SIZE_OR_ZERO && *v != 0 && !is_power_of_two(*v))
        return p5_config_fail(error, error_size, "bad %s '%s' (expected 0, no L2, or a power "
                              "of two)", name, text);
    return true;
}

static const char *const precision_names[P5_NUM_PRECISIONS] = {
    [P5_PRECISION_SINGLE] = "single",
    [P5_PRECISION_DOUBLE] = "double",
    [P5_PRECISION_EXTENDED] = "extended",
};

static bool set_precision(struct p5_config *config, const char *value, char *error,
                          size_t error_size)
{
    for (int p = 0; p < P5_NUM_PRECISIONS; p++)
        if (strcmp(value, precision_names[p]) == 0) {
            config->fpu_precision = (enum p5_precision)p;
            return true;
        }
    return p5_config_fail(error, error_size,
                          "P5 model parameter fpu_precision: '%s' (expected single, double or "
                          "extended)", value);
}

/* "all", "none", or a comma-separated list of erratum names; *mask is
 * left alone on an error. */
static bool parse_errata(const char *text, uint32_t *mask)
{
    if (strcmp(text, "all") == 0 || strcmp(text, "none") == 0) {
        *mask = strcmp(text, "all") == 0 ? P5_ERRATA_ALL : 0;
        return true;
    }
    uint32_t parsed = 0;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, ",");
        bool found = false;
        for (size_t i = 0; i < COUNT_OF(errata_names); i++)
            if (strlen(errata_names[i].name) == len && strncmp(p, errata_names[i].name, len) == 0) {
                parsed |= errata_names[i].bit;
                found = true;
            }
        if (!found)
            return false;
        p += len + (p[len] == ',');
    }
    *mask = parsed;
    return true;
}

/* "unknown P5 model parameter 'NAME'", with the nearest parameter's name
 * when one is near (util/suggest.h). */
static bool unknown_parameter(const char *name, char *error, size_t error_size)
{
    char errata[COUNT_OF(errata_names)][64];
    struct suggestion near;
    suggestion_start(&near, name);
    for (size_t i = 0; i < COUNT_OF(parameters); i++)
        suggestion_consider(&near, parameters[i].name);
    for (size_t i = 0; i < COUNT_OF(flags); i++)
        suggestion_consider(&near, flags[i].name);
    suggestion_consider(&near, "errata");
    suggestion_consider(&near, "fpu_precision");
    for (size_t i = 0; i < COUNT_OF(errata_names); i++) {
        snprintf(errata[i], sizeof errata[i], "erratum_%s", errata_names[i].name);
        suggestion_consider(&near, errata[i]);
    }
    if (near.best)
        return p5_config_fail(error, error_size, "unknown P5 model parameter '%s' (did you mean "
                              "'%s'?)", name, near.best);
    return p5_config_fail(error, error_size, "unknown P5 model parameter '%s'", name);
}

static bool set_erratum(struct p5_config *config, const char *name, const char *value,
                        char *error, size_t error_size)
{
    for (size_t i = 0; i < COUNT_OF(errata_names); i++) {
        if (strcmp(name + strlen("erratum_"), errata_names[i].name) != 0)
            continue;
        bool on;
        if (!parse_flag(value, &on))
            return p5_config_fail(error, error_size, "P5 model parameter %s: '%s' (expected on or off)",
                        name, value);
        config->errata = on ? config->errata | errata_names[i].bit
                            : config->errata & ~(uint32_t)errata_names[i].bit;
        return true;
    }
    return unknown_parameter(name, error, error_size);
}

bool p5_config_set(struct p5_config *config, const char *name, const char *value, char *error,
                   size_t error_size)
{
    for (size_t i = 0; i < COUNT_OF(parameters); i++) {
        if (strcmp(name, parameters[i].name) != 0)
            continue;
        uint64_t v;
        if (!kind_value(parameters[i].kind, name, value, &v, error, error_size))
            return false;
        *(uint32_t *)((char *)config + parameters[i].offset) = (uint32_t)v;
        return true;
    }
    for (size_t i = 0; i < COUNT_OF(flags); i++) {
        if (strcmp(name, flags[i].name) != 0)
            continue;
        if (!parse_flag(value, (bool *)((char *)config + flags[i].offset)))
            return p5_config_fail(error, error_size, "P5 model parameter %s: '%s' (expected on or off)",
                        name, value);
        return true;
    }
    if (strcmp(name, "errata") == 0) {
        if (!parse_errata(value, &config->errata))
            return p5_config_fail(error, error_size,
                        "P5 model parameter errata: '%s' (expected all, none or a comma list of "
                        "misaligned_double_miss, misaligned_double_access, fst_misaligned_twice, "
                        "misaligned_stall_2)",
                        value);
        return true;
    }
    if (strcmp(name, "fpu_precision") == 0)
        return set_precision(config, value, error, error_size);
    if (strncmp(name, "erratum_", strlen("erratum_")) == 0)
        return set_erratum(config, name, value, error, error_size);
    return unknown_parameter(name, error, error_size);
}

/* ---- consistency */

static bool check_geometry(const char *what, uint32_t size, uint32_t ways, uint32_t unit,
                           char *error, size_t error_size)
{
    uint64_t per_set = (uint64_t)ways * unit;
    if (size % per_set || !is_power_of_two(size / per_set))
        return p5_config_fail(error, error_size,
                    "P5 model %s: %" PRIu32 " is not %" PRIu32 " ways x %" PRIu32
                    " x a power-of-two number of sets",
                    what, size, ways, unit);
    return true;
}

bool p5_config_check(const struct p5_config *c, char *error, size_t error_size)
{
    if (!check_geometry("dcache_size", c->dcache.size, c->dcache.ways, c->dcache.line, error,
                        error_size) ||
        !check_geometry("icache_size", c->icache.size, c->icache.ways, c->icache.line, error,
                        error_size) ||
        !check_geometry("dtlb_entries", c->dtlb.entries * 1u, c->dtlb.ways, 1, error,
                        error_size) ||
        !check_geometry("itlb_entries", c->itlb.entries * 1u, c->itlb.ways, 1, error,
                        error_size) ||
        !check_geometry("btb_entries", c->btb_entries, c->btb_ways, 1, error, error_size))
        return false;
    if (c->l2_size && !check_geometry("l2_size", c->l2_size, c->l2_ways, c->l2_line, error,
                                      error_size))
        return false;
    if (c->write_buffers > P5_MAX_WRITE_BUFFERS)
        return p5_config_fail(error, error_size, "P5 model write_buffers: %" PRIu32 " (expected 1-%d)",
                    c->write_buffers, P5_MAX_WRITE_BUFFERS);
    if (c->dcache.line < 8 || c->icache.line < 8)
        return p5_config_fail(error, error_size, "P5 model cache lines must be at least 8 bytes");
    if ((uint64_t)c->dcache_banks * 4 > c->dcache.line)
        return p5_config_fail(error, error_size,
                    "P5 model dcache_banks: %" PRIu32 " banks of 4 bytes exceed the %" PRIu32
                    "-byte line",
                    c->dcache_banks, c->dcache.line);
    if ((unsigned)c->fpu_precision >= P5_NUM_PRECISIONS)
        return p5_config_fail(error, error_size, "P5 model fpu_precision: %u (expected 0-%d)",
                              (unsigned)c->fpu_precision, P5_NUM_PRECISIONS - 1);
    return true;
}
