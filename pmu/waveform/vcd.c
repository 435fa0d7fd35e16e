#include "vcd.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/atomic_file.h"
#include "gtkw.h"
#include "util/grow_array.h"

struct vcd_var {
    char scope[40];
    char name[40];
    int width;
    uint64_t value;
};

struct vcd {
    struct atomic_file out;
    FILE *file;
    struct atomic_file gtkw; /* its stream NULL when there is no save file */
    struct vcd_var *vars;
    int n_vars;
    size_t cap_vars;
    uint64_t time;
    bool time_written;
};

/* Identifiers are printable ASCII 33-126, base 94. */
static void identifier(int index, char out[4])
{
    int i = 0;
    do {
        out[i++] = (char)(33 + index % 94);
        index /= 94;
    } while (index && i < 3);
    out[i] = '\0';
}

struct vcd *vcd_create(const char *path, const char *gtkw_path, char *error, size_t error_size)
{
    struct vcd *vcd = calloc(1, sizeof *vcd);
    if (!vcd) {
        snprintf(error, error_size, "%s: out of memory", path);
        return NULL;
    }
    if (!atomic_open(&vcd->out, path, error, error_size)) {
        free(vcd);
        return NULL;
    }
    vcd->file = vcd->out.stream;
    if (gtkw_path && !vcd->out.direct && !atomic_open(&vcd->gtkw, gtkw_path, error, error_size)) {
        atomic_abort(&vcd->out);
        free(vcd);
        return NULL;
    }
    return vcd;
}

int vcd_signal(struct vcd *vcd, const char *scope, const char *name, int width)
{
    if (!grow_array(&vcd->vars, &vcd->cap_vars, (size_t)vcd->n_vars + 1, sizeof *vcd->vars, 64))
        return -1;
    struct vcd_var *var = &vcd->vars[vcd->n_vars];
    snprintf(var->scope, sizeof var->scope, "%s", scope);
    snprintf(var->name, sizeof var->name, "%s", name);
    var->width = width;
    var->value = 0;
    return vcd->n_vars++;
}

static void write_value(struct vcd *vcd, int index)
{
    const struct vcd_var *var = &vcd->vars[index];
    char id[4];
    identifier(index, id);
    if (var->width == 1) {
        fprintf(vcd->file, "%d%s\n", (int)(var->value & 1), id);
        return;
    }
    fputc('b', vcd->file);
    int top = var->width - 1;
    while (top > 0 && !((var->value >> top) & 1))
        top--;
    for (int bit = top; bit >= 0; bit--)
        fputc('0' + (int)((var->value >> bit) & 1), vcd->file);
    fprintf(vcd->file, " %s\n", id);
}

void vcd_begin(struct vcd *vcd)
{
    /* VCD has no unit of cycles: a timescale of 1 keeps one time unit per
     * core clock (GTKWave's times are cycle numbers), ns as its unit
     * because a step of the time must have one; the comment says so. */
    fprintf(vcd->file, "$comment pmubench bench waveform: one time unit is one core clock "
                       "cycle of the simulated processor (the 1 ns of the timescale stands for "
                       "it, whatever the processor's clock) $end\n"
                       "$timescale 1 ns $end\n");
    const char *open_scope = NULL;
    for (int i = 0; i < vcd->n_vars; i++) {
        const struct vcd_var *var = &vcd->vars[i];
        if (!open_scope || strcmp(open_scope, var->scope) != 0) {
            if (open_scope)
                fprintf(vcd->file, "$upscope $end\n");
            fprintf(vcd->file, "$scope module %s $end\n", var->scope);
            open_scope = var->scope;
        }
        char id[4];
        identifier(i, id);
        fprintf(vcd->file, "$var wire %d %s %s", var->width, id, var->name);
        if (var->width > 1)
            fprintf(vcd->file, " [%d:0]", var->width - 1);
        fprintf(vcd->file, " $end\n");
    }
    if (open_scope)
        fprintf(vcd->file, "$upscope $end\n");
    fprintf(vcd->file, "$enddefinitions $end\n#0\n$dumpvars\n");
    for (int i = 0; i < vcd->n_vars; i++)
        write_value(vcd, i);
    fprintf(vcd->file, "$end\n");
    vcd->time_written = true;
}

void vcd_time(struct vcd *vcd, uint64_t time)
{
    if (time != vcd->time) {
        vcd->time = time;
        vcd->time_written = false;
    }
}

void vcd_set(struct vcd *vcd, int signal, uint64_t value)
{
    struct vcd_var *var = &vcd->vars[signal];
    if (var->width < 64)
        value &= (1ull << var->width) - 1;
    if (var->value == value)
        return;
    var->value = value;
    if (!vcd->time_written) {
        fprintf(vcd->file, "#%llu\n", (unsigned long long)vcd->time);
        vcd->time_written = true;
    }
    write_value(vcd, signal);
}

/* The save file, written from the signals declared, naming both files
 * absolutely; false with a message when out of memory or a folder cannot
 * be resolved. */
static bool write_gtkw(struct vcd *vcd, char *error, size_t error_size)
{
    char dumpfile[PATH_MAX], savefile[PATH_MAX];
    if (!gtkw_absolute_path(vcd->out.path, dumpfile, sizeof dumpfile) ||
        !gtkw_absolute_path(vcd->gtkw.path, savefile, sizeof savefile)) {
        snprintf(error, error_size, "%s: cannot name the VCD or its folder absolutely: %s",
                 vcd->gtkw.path, strerror(errno));
        return false;
    }
    struct gtkw_signal *signals = calloc((size_t)vcd->n_vars + 1, sizeof *signals);
    if (!signals) {
        snprintf(error, error_size, "%s: out of memory", vcd->gtkw.path);
        return false;
    }
    for (int i = 0; i < vcd->n_vars; i++)
        signals[i] = (struct gtkw_signal){vcd->vars[i].scope, vcd->vars[i].name,
                                          vcd->vars[i].width};
    gtkw_write(vcd->gtkw.stream, dumpfile, savefile, signals, vcd->n_vars);
    free(signals);
    return true;
}

/* Both files or neither: the VCD is removed again when its save file
 * cannot be moved into place. */
static bool commit_both(struct vcd *vcd, char *error, size_t error_size)
{
    if (vcd->gtkw.stream && !write_gtkw(vcd, error, error_size))
        return false;
    if (!atomic_commit(&vcd->out, error, error_size))
        return false;
    if (!vcd->gtkw.stream || atomic_commit(&vcd->gtkw, error, error_size))
        return true;
    unlink(vcd->out.target);
    return false;
}

bool vcd_close(struct vcd *vcd, uint64_t end_time, char *error, size_t error_size)
{
    if (end_time > vcd->time || !vcd->time_written)
        fprintf(vcd->file, "#%llu\n", (unsigned long long)end_time);
    bool ok = commit_both(vcd, error, error_size);
    vcd_abort(vcd);
    return ok;
}

void vcd_abort(struct vcd *vcd)
{
    if (!vcd)
        return;
    atomic_abort(&vcd->out);
    atomic_abort(&vcd->gtkw);
    free(vcd->vars);
    free(vcd);
}
