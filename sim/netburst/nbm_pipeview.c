/* The O3PipeView writer (sim/netburst/nbm_pipeview.h, docs/pipeview.md).
 * One record per uop, as gem5 writes one per instruction or micro-op
 * (src/cpu/o3/dyn_inst.cc):
 *
 *   O3PipeView:fetch:TICK:0xPC:UPC:SEQ:DISASM
 *   O3PipeView:decode:TICK      (rename, dispatch, issue, complete alike)
 *   O3PipeView:retire:TICK:store:TICK
 *
 * a stage that did not happen at tick 0, and a squashed uop's retire 0. */
#include "sim/netburst/nbm_pipeview.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "isa/x86.h"
#include "util/number.h"

struct nbm_pipeview {
    FILE *out;
    uint64_t first, last;
    int threads;
    const bool *counting;
    uint64_t instructions;       /* counted so far */
    uint64_t seq;                /* records written */
    bool shown[2];               /* each logical processor's last instruction is written */
    char text[X86_TEXT_SIZE + 32]; /* the instruction being written */
    struct x86_decoder *decoder[2]; /* 32-bit, 64-bit code */
    struct nbm_uop_hook hook;
};

static uint64_t tick(uint64_t cycle)
{
    return cycle == UINT64_MAX ? 0 : (cycle + 1) * NBM_PIPEVIEW_TICKS;
}

/* The instruction's text: capstone's, or its bytes' absence said. */
static void instruction_text(struct nbm_pipeview *view, const struct nbm_uop *uop)
{
    char text[X86_TEXT_SIZE];
    if (!uop->bytes || !x86_decoder_text(view->decoder[uop->code64], uop->bytes, uop->length,
                                         uop->address, text, sizeof text))
        snprintf(text, sizeof text, "(no code)");
    if (view->threads == 2)
        snprintf(view->text, sizeof view->text, "T%d %s", uop->thread, text);
    else
        snprintf(view->text, sizeof view->text, "%s", text);
}

/* The model stamps one cycle for fetch and decode (the uop-queue write)
 * and one for rename and dispatch (allocation): each pair shares a tick,
 * so a viewer that draws a stage up to the next one's tick (Konata) shows
 * fetch and rename with no width (docs/pipeview.md, "Opening it"). */
static void write_record(struct nbm_pipeview *view, const struct nbm_uop *uop)
{
    FILE *out = view->out;
    uint64_t queued = tick(uop->queued);
    fprintf(out, "O3PipeView:fetch:%" PRIu64 ":0x%08" PRIx64 ":%u:%" PRIu64 ":%s%s\n", queued,
            uop->address, uop->index, ++view->seq, view->text,
            uop->replayed ? " (replayed)" : "");
    fprintf(out, "O3PipeView:decode:%" PRIu64 "\n", queued);
    fprintf(out, "O3PipeView:rename:%" PRIu64 "\n", tick(uop->allocated));
    fprintf(out, "O3PipeView:dispatch:%" PRIu64 "\n", tick(uop->allocated));
    fprintf(out, "O3PipeView:issue:%" PRIu64 "\n", tick(uop->issued));
    fprintf(out, "O3PipeView:complete:%" PRIu64 "\n", tick(uop->completed));
    fprintf(out, "O3PipeView:retire:%" PRIu64 ":store:0\n", uop->bogus ? 0 : tick(uop->retired));
}

/* The hook: a correct-path instruction's first uop counts it (inside the
 * watched region); a wrong-path uop is written when the instruction before
 * it on its logical processor was. */
static void report(void *context, const struct nbm_uop *uop)
{
    struct nbm_pipeview *view = context;
    int t = uop->thread & 1;
    if (!uop->bogus && uop->index == 0) {
        bool counted = !view->counting || *view->counting;
        view->instructions += counted;
        view->shown[t] = counted && view->instructions >= view->first &&
                         view->instructions <= view->last;
    }
    if (!view->shown[t])
        return;
    if (uop->index == 0)
        instruction_text(view, uop);
    write_record(view, uop);
}

struct nbm_pipeview *nbm_pipeview_create(FILE *out, uint64_t first, uint64_t last, int threads)
{
    struct nbm_pipeview *view = calloc(1, sizeof *view);
    if (!view)
        return NULL;
    view->decoder[0] = x86_decoder_create(X86_MODE_32);
    view->decoder[1] = x86_decoder_create(X86_MODE_64);
    if (!view->decoder[0] || !view->decoder[1]) {
        nbm_pipeview_destroy(view);
        return NULL;
    }
    view->out = out;
    view->first = first;
    view->last = last;
    view->threads = threads;
    view->hook = (struct nbm_uop_hook){report, view};
    return view;
}

void nbm_pipeview_destroy(struct nbm_pipeview *view)
{
    if (!view)
        return;
    x86_decoder_destroy(view->decoder[0]);
    x86_decoder_destroy(view->decoder[1]);
    free(view);
}

const struct nbm_uop_hook *nbm_pipeview_hook(struct nbm_pipeview *view)
{
    return &view->hook;
}

void nbm_pipeview_watch(struct nbm_pipeview *view, const bool *counting)
{
    view->counting = counting;
}

bool nbm_pipeview_range_read(const char *what, const char *text, uint64_t *first,
                             uint64_t *last, char *error, size_t error_size)
{
    const char *colon = strchr(text, ':');
    char head[32];
    uint64_t a, b;
    if (colon && (size_t)(colon - text) < sizeof head) {
        snprintf(head, sizeof head, "%.*s", (int)(colon - text), text);
        if (number_read("FIRST", head, 1, UINT64_MAX, &a, error, error_size) &&
            number_read("LAST", colon + 1, 1, UINT64_MAX, &b, error, error_size) && a <= b) {
            *first = a;
            *last = b;
            return true;
        }
    }
    snprintf(error, error_size, "bad %s '%s' (expected FIRST:LAST, instruction numbers from 1 "
             "with FIRST <= LAST)", what, text);
    return false;
}
