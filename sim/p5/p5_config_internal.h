/* Internal to sim/p5's configuration: the host preset's /sys reader
 * (p5_sysfs.c) and the error helper both use. */
#ifndef SIM_P5_P5_CONFIG_INTERNAL_H
#define SIM_P5_P5_CONFIG_INTERNAL_H

#include "sim/p5/p5_model.h"

/* Default directory of the host's cache description. */
#define P5_HOST_CACHE_DIR "/sys/devices/system/cpu/cpu0/cache"

/* Overwrites the L1 data, L1 code and L2 geometry of `config` with the
 * caches described under `cache_dir` (each index* directory: level, type, size,
 * ways_of_associativity, coherency_line_size). */
bool p5_config_read_host_caches(const char *cache_dir, struct p5_config *config, char *error,
                                size_t error_size);

/* Formats a one-line error into `error`; returns false. */
__attribute__((format(printf, 3, 4))) bool p5_config_fail(char *error, size_t error_size,
                                                          const char *fmt, ...);

#endif
