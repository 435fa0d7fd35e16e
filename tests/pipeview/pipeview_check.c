/* A checker of gem5's O3PipeView text format (docs/pipeview.md), written
 * from gem5's writer (src/cpu/o3/dyn_inst.cc, DynInst's destructor), not
 * from pmubench's: each record is seven lines,
 *
 *   O3PipeView:fetch:TICK:0xPC:UPC:SEQ:DISASM
 *   O3PipeView:decode:TICK  rename  dispatch  issue  complete
 *   O3PipeView:retire:TICK:store:TICK
 *
 * in that order; TICK 0 is a stage that did not happen.  It checks what
 * pmubench's views promise besides: fetch never 0; the stages that
 * happened (TICK != 0) in order and non-decreasing; once one did not, no
 * later one did (so a squashed uop's retire is 0, and only a record's
 * missing stages are 0); a retired record has every stage; SEQ increasing;
 * UPC 0 or the last UPC + 1 at the same PC; every tick a multiple of
 * --cycle (default 1000).  Prints
 *
 *   records R retired T squashed S allocated-squashed A instructions I
 *
 * (I: retired records with UPC 0; A: squashed records with a rename tick),
 * or, on the first violation, "FILE:LINE: expected ..." and status 2.
 *
 *   pipeview_check [--cycle N] FILE */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const stages[] = {"fetch", "decode", "rename", "dispatch", "issue",
                                     "complete", "retire"};
enum { STAGES = 7 };

struct checker {
    const char *path;
    unsigned long line;
    uint64_t cycle;
    uint64_t records, retired, squashed, allocated_squashed, instructions;
    uint64_t last_seq, last_upc, last_pc;
};

static void fail(const struct checker *c, const char *expected)
{
    fprintf(stderr, "%s:%lu: expected %s\n", c->path, c->line, expected);
    exit(2);
}

/* A number in `base` followed by ':', '\n' or the end; *next past it. */
static uint64_t number(const struct checker *c, const char *text, int base, const char **next,
                       const char *what)
{
    char *end;
    if ((base == 10 && (text[0] < '0' || text[0] > '9')) ||
        (base == 16 && !strchr("0123456789abcdefABCDEF", text[0])) || !text[0])
        fail(c, what);
    uint64_t value = strtoull(text, &end, base);
    if (*end != ':' && *end != '\n' && *end != '\0')
        fail(c, what);
    *next = end;
    return value;
}

/* The line's tick for `stage` (after "O3PipeView:STAGE:"). */
static uint64_t stage_tick(struct checker *c, const char *line, int stage, const char **rest)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "O3PipeView:%s:", stages[stage]);
    if (strncmp(line, prefix, strlen(prefix)) != 0) {
        char what[64];
        snprintf(what, sizeof what, "the record's '%s' line", stages[stage]);
        fail(c, what);
    }
    uint64_t tick = number(c, line + strlen(prefix), 10, rest, "a decimal tick");
    if (tick % c->cycle)
        fail(c, "a tick that is a whole number of cycles (--cycle)");
    return tick;
}

/* The fetch line's PC, UPC, SEQ and DISASM. */
static void fetch_fields(struct checker *c, const char *rest, uint64_t *upc)
{
    if (strncmp(rest, ":0x", 3) != 0)
        fail(c, "':0x' and the PC after the fetch tick");
    uint64_t pc = number(c, rest + 3, 16, &rest, "a hex PC");
    if (*rest != ':')
        fail(c, "':UPC' after the PC");
    *upc = number(c, rest + 1, 10, &rest, "a decimal UPC");
    if (*rest != ':')
        fail(c, "':SEQ' after the UPC");
    uint64_t seq = number(c, rest + 1, 10, &rest, "a decimal SEQ");
    if (*rest != ':' || rest[1] == '\n' || !rest[1])
        fail(c, "':DISASM' (not empty) after the SEQ");
    if (c->records && seq <= c->last_seq)
        fail(c, "a SEQ greater than the record's before");
    if (*upc != 0 && (!c->records || *upc != c->last_upc + 1 || pc != c->last_pc))
        fail(c, "UPC 0, or the last record's UPC + 1 at its PC");
    c->last_seq = seq;
    c->last_upc = *upc;
    c->last_pc = pc;
}

/* One record from its fetch line on. */
static bool record(struct checker *c, FILE *in, char *line, size_t size)
{
    uint64_t tick[STAGES], upc = 0;
    for (int s = 0; s < STAGES; s++) {
        if (!fgets(line, (int)size, in)) {
            if (s == 0)
                return false;
            fail(c, "the record's next line (the file ends)");
        }
        c->line++;
        if (!strchr(line, '\n'))
            fail(c, "a line ending in a newline, shorter than the checker's buffer");
        const char *rest;
        tick[s] = stage_tick(c, line, s, &rest);
        if (s == 0)
            fetch_fields(c, rest, &upc);
        else if (s == STAGES - 1) {
            if (strncmp(rest, ":store:", 7) != 0)
                fail(c, "':store:TICK' after the retire tick");
            number(c, rest + 7, 10, &rest, "a decimal store tick");
        }
        if (s > 0 && *rest != '\n')
            fail(c, "the end of the line");
        if (s == 0 && tick[0] == 0)
            fail(c, "a fetch tick that is not 0");
        if (s > 0 && tick[s] != 0 && (tick[s - 1] == 0 || tick[s] < tick[s - 1]))
            fail(c, "a tick not before the stage before's (and a stage after one that happened)");
    }
    c->records++;
    bool retired = tick[STAGES - 1] != 0;
    c->retired += retired;
    c->squashed += !retired;
    c->allocated_squashed += !retired && tick[2] != 0;
    c->instructions += retired && upc == 0;
    return true;
}

int main(int argc, char **argv)
{
    struct checker c = {.cycle = 1000};
    int a = 1;
    if (argc == 4 && strcmp(argv[1], "--cycle") == 0) {
        c.cycle = strtoull(argv[2], NULL, 10);
        a = 3;
    }
    if (a != argc - 1 || c.cycle == 0) {
        fprintf(stderr, "usage: pipeview_check [--cycle N] FILE\n");
        return 2;
    }
    c.path = argv[a];
    FILE *in = fopen(c.path, "r");
    if (!in) {
        perror(c.path);
        return 2;
    }
    static char line[1 << 16];
    while (record(&c, in, line, sizeof line))
        ;
    fclose(in);
    printf("records %" PRIu64 " retired %" PRIu64 " squashed %" PRIu64
           " allocated-squashed %" PRIu64 " instructions %" PRIu64 "\n",
           c.records, c.retired, c.squashed, c.allocated_squashed, c.instructions);
    return 0;
}
