/* The "host" preset: the L1 data, L1 code and L2 geometry of this machine
 * from /sys/devices/system/cpu/cpu0/cache/index* (Linux's cacheinfo:
 * level, type, size, ways_of_associativity, coherency_line_size). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/p5/p5_config_internal.h"

struct host_cache {
    unsigned level;
    char type[32];  /* Data, Instruction, Unified */
    struct p5_cache_config geometry;
};

/* The first line of DIR/NAME, without its newline. */
static bool read_line(const char *dir, const char *name, char *out, size_t out_size, char *path,
                      size_t path_size, char *error, size_t error_size)
{
    snprintf(path, path_size, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return p5_config_fail(error, error_size, "%s: %s", path, strerror(errno));
    bool ok = fgets(out, (int)out_size, f) != NULL;
    fclose(f);
    if (!ok)
        return p5_config_fail(error, error_size, "%s: empty (expected one value)", path);
    out[strcspn(out, "\n")] = '\0';
    return true;
}

/* A decimal number, with a K or M suffix when `suffix` allows it. */
static bool parse_value(const char *text, bool suffix, uint32_t *value)
{
    char *end;
    errno = 0;
    if (*text < '0' || *text > '9')
        return false;
    unsigned long long v = strtoull(text, &end, 10);
    if (suffix && *end == 'K')
        v <<= 10, end++;
    else if (suffix && *end == 'M')
        v <<= 20, end++;
    if (errno || *end || v > UINT32_MAX / 2)
        return false;
    *value = (uint32_t)v;
    return true;
}

static bool read_value(const char *dir, const char *name, bool suffix, uint32_t *value,
                       char *error, size_t error_size)
{
    char text[64], path[PATH_MAX + 64];
    if (!read_line(dir, name, text, sizeof text, path, sizeof path, error, error_size))
        return false;
    if (!parse_value(text, suffix, value))
        return p5_config_fail(error, error_size, "%s: '%s' (expected %s)", path, text,
                    suffix ? "a size in bytes such as 32K" : "a decimal number");
    return true;
}

static bool read_cache(const char *dir, struct host_cache *cache, char *error, size_t error_size)
{
    char path[PATH_MAX + 64];
    uint32_t level;
    if (!read_value(dir, "level", false, &level, error, error_size) ||
        !read_line(dir, "type", cache->type, sizeof cache->type, path, sizeof path, error,
                   error_size) ||
        !read_value(dir, "size", true, &cache->geometry.size, error, error_size) ||
        !read_value(dir, "ways_of_associativity", false, &cache->geometry.ways, error,
                    error_size) ||
        !read_value(dir, "coherency_line_size", false, &cache->geometry.line, error, error_size))
        return false;
    cache->level = level;
    if (cache->geometry.line == 0)
        return p5_config_fail(error, error_size, "%s/coherency_line_size: 0 (expected a line size)", dir);
    if (cache->geometry.ways == 0) /* Linux: fully associative */
        cache->geometry.ways = cache->geometry.size / cache->geometry.line;
    return true;
}

static void apply(const struct host_cache *cache, struct p5_config *config, bool *have_d,
                  bool *have_i)
{
    bool data = strcmp(cache->type, "Data") == 0, code = strcmp(cache->type, "Instruction") == 0,
         unified = strcmp(cache->type, "Unified") == 0;
    if (cache->level == 1 && (data || unified)) {
        config->dcache = cache->geometry;
        *have_d = true;
    }
    if (cache->level == 1 && (code || unified)) {
        config->icache = cache->geometry;
        *have_i = true;
    }
    if (cache->level == 2 && (data || unified)) {
        config->l2_size = cache->geometry.size;
        config->l2_ways = cache->geometry.ways;
        config->l2_line = cache->geometry.line;
    }
}

bool p5_config_read_host_caches(const char *cache_dir, struct p5_config *config, char *error,
                                size_t error_size)
{
    DIR *dir = opendir(cache_dir);
    if (!dir)
        return p5_config_fail(error, error_size, "%s: %s", cache_dir, strerror(errno));
    bool have_d = false, have_i = false, ok = true;
    config->l2_size = 0; /* no L2 unless the host has one */
    struct dirent *entry;
    while (ok && (entry = readdir(dir)) != NULL) {
        if (strncmp(entry->d_name, "index", 5) != 0)
            continue;
        char sub[PATH_MAX];
        snprintf(sub, sizeof sub, "%s/%s", cache_dir, entry->d_name);
        struct host_cache cache;
        ok = read_cache(sub, &cache, error, error_size);
        if (ok)
            apply(&cache, config, &have_d, &have_i);
    }
    closedir(dir);
    if (!ok)
        return false;
    if (!have_d || !have_i)
        return p5_config_fail(error, error_size, "%s: no level-1 %s cache (expected an index* directory of level 1)",
                    cache_dir, have_d ? "instruction" : "data");
    return p5_config_check(config, error, error_size);
}
