/* A Value Change Dump (IEEE 1364-2001, section 18) writer for waveforms
 * GTKWave opens, with a save file that lays it out (pmu/waveform/gtkw.h).  Each
 * is written to a temporary name and renamed into place by vcd_close(), so
 * it exists whole or not at all. */
#ifndef BENCH_VCD_H
#define BENCH_VCD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vcd;

/* Starts a dump for `path` and, when `gtkw_path` is not NULL and `path` is
 * a regular file (not /dev/null, a FIFO...), its GTKWave save file
 * (pmu/waveform/gtkw.h); NULL with a message in `error` when either cannot be
 * created. */
struct vcd *vcd_create(const char *path, const char *gtkw_path, char *error, size_t error_size);

/* Declares a signal (before vcd_begin); returns its handle, or -1 when out
 * of memory. */
int vcd_signal(struct vcd *vcd, const char *scope, const char *name, int width);

/* Writes the header and the initial values (all zero). */
void vcd_begin(struct vcd *vcd);

/* Sets the time of the following changes. */
void vcd_time(struct vcd *vcd, uint64_t time);

/* Records a value; written only when it changed. */
void vcd_set(struct vcd *vcd, int signal, uint64_t value);

/* Ends the dump at `end_time`, writes the save file and moves both into
 * place.  False, with a message, when anything failed; neither is left
 * behind then. */
bool vcd_close(struct vcd *vcd, uint64_t end_time, char *error, size_t error_size);

/* Drops the dump, its save file and their temporary files. */
void vcd_abort(struct vcd *vcd);

#endif
