/* A GTKWave save file (.gtkw) for a waveform of the bench, so that
 * `gtkwave demo.vcd demo.gtkw` opens with every signal of the VCD shown:
 * each scope's signals under a group named after the scope (the detector
 * outputs first, then each counter), all of them in decimal.  The format is
 * the one GTKWave's src/savefile.c reads and writes (Bybell, GTKWave 3.3):
 * "[dumpfile]", "[savefile]" and "[timestart]" lines, then the traces in
 * display order,
 * each "@FLAGS" line (hexadecimal TR_* bits of GTKWave's src/analyzer.h)
 * applying to the traces below it; "-NAME" is a comment trace, which the
 * group flags make a group's opening or closing line. */
#ifndef BENCH_GTKW_H
#define BENCH_GTKW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* GTKWave's trace flags (src/analyzer.h, enum TraceEntFlagBits). */
#define GTKW_TR_DEC 0x4ull            /* TR_DEC_B = 2 */
#define GTKW_TR_RJUSTIFY 0x20ull      /* TR_RJUSTIFY_B = 5 */
#define GTKW_TR_BLANK 0x200ull        /* TR_BLANK_B = 9 */
#define GTKW_TR_GRP_BEGIN 0x800000ull /* TR_GRP_BEGIN_B = 23 */
#define GTKW_TR_GRP_END 0x1000000ull  /* TR_GRP_END_B = 24 */

/* One signal of the VCD, in declaration order. */
struct gtkw_signal {
    const char *scope;
    const char *name;
    int width;
};

/* The save file beside the VCD at `vcd_path`: its ".vcd" suffix replaced
 * by ".gtkw", or ".gtkw" appended when it has none.  False when the result
 * does not fit in `size`. */
bool gtkw_path_for(const char *vcd_path, char *out, size_t size);

/* The absolute name of `path`, a file that need not exist yet in a folder
 * that does: the folder's real path, then the file's name.  False when
 * the folder cannot be resolved or the result does not fit in `size`. */
bool gtkw_absolute_path(const char *path, char *out, size_t size);

/* Writes the save file at `savefile` for the VCD at `dumpfile`, both
 * absolute (gtkw_absolute_path), the VCD declaring `signals` in this order
 * (consecutive signals of one scope form one group).  GTKWave opens the
 * [dumpfile] of a save file given alone as it is named, so an absolute
 * name opens from any folder; and when it is not there, GTKWave 3.3 takes
 * its place relative to [savefile]'s folder to the save file's folder now
 * (src/savefile.c, find_dumpfile), so the two moved together still
 * open. */
void gtkw_write(FILE *out, const char *dumpfile, const char *savefile,
                const struct gtkw_signal *signals, int n);

#endif
