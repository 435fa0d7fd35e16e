/* The NetBurst model's pipeline view: each uop the model times, written in
 * gem5's O3PipeView text format (gem5's src/cpu/o3/dyn_inst.cc, the
 * O3PipeView lines of DynInst's destructor), which gem5's
 * util/o3-pipeview.py and Konata read.  docs/pipeview.md gives the format,
 * the stage mapping and how to open a view.
 *
 *   struct nbm_pipeview *view = nbm_pipeview_create(file, 1, 1000, 1);
 *   struct nbm_hooks hooks = {.uops = nbm_pipeview_hook(view)};
 *   nbm_simulate(...);   (the view is written as the model times the uops)
 *   nbm_pipeview_destroy(view);
 */
#ifndef SIM_NETBURST_NBM_PIPEVIEW_H
#define SIM_NETBURST_NBM_PIPEVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/netburst/nbm_model.h"

/* Ticks per cycle: gem5's ticks are picoseconds and o3-pipeview.py's
 * default cycle time is 1000 ticks.  A stage of cycle C is written at tick
 * (C + 1) * NBM_PIPEVIEW_TICKS, as tick 0 means "did not happen". */
enum { NBM_PIPEVIEW_TICKS = 1000 };

struct nbm_pipeview;

/* A view written to `out` of instructions `first` to `last` (numbers from
 * 1, in the order the model retires them; with two traces both logical
 * processors' in the order the model times them), with the wrong-path
 * uops after each mispredicted branch among them; `threads` (1 or 2) the
 * logical processors simulated (with 2 each instruction's text says which
 * one).  NULL when memory ran out. */
struct nbm_pipeview *nbm_pipeview_create(FILE *out, uint64_t first, uint64_t last, int threads);
void nbm_pipeview_destroy(struct nbm_pipeview *view);

/* The hook to give the model (struct nbm_hooks' `uops`). */
const struct nbm_uop_hook *nbm_pipeview_hook(struct nbm_pipeview *view);

/* Only the instructions the model retires while *counting is true count
 * and are written (a region's: apps/stat/region_gate.h's `counting`); NULL
 * (the default): all of them. */
void nbm_pipeview_watch(struct nbm_pipeview *view, const bool *counting);

/* FIRST:LAST as --pipeview-range gives it: numbers (util/number.h) from 1,
 * FIRST <= LAST.  False with a one-line error naming `what`. */
bool nbm_pipeview_range_read(const char *what, const char *text, uint64_t *first,
                             uint64_t *last, char *error, size_t error_size);

#endif
