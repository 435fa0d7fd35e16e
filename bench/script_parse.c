/* Parser of bench scripts: one statement a line, tokens separated by white
 * space, '#' starts a comment.  The whole script is parsed before anything
 * runs, so a bad script produces no output at all. */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench.h"
#include "pmu/catalog/netburst_events.h"
#include "pmu/catalog/netburst_metrics.h"
#include "pmu/catalog/netburst_msrs.h"
#include "pmu/emulated/netburst_pmu.h"
#include "util/number.h"
#include "pmu/catalog/p5_events.h"
#include "pmu/catalog/p5_msrs.h"
#include "util/suggest.h"
#include "util/error_line.h"
#include "util/grow_array.h"
#include "util/line_stream.h"

/* A retire statement names up to 17 registers besides its verb, thread,
 * eip, tag and mode. */
enum { MAX_TOKENS = 24 };

struct parser {
    const char *path;
    int line;
    char *tokens[MAX_TOKENS];
    int n_tokens;
    struct bench_script *script;
    char *error;
    size_t error_size;
};

__attribute__((format(printf, 2, 3))) static int fail(struct parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_at_vline(0, p->error, p->error_size, p->path, (unsigned long)p->line, fmt, ap);
    va_end(ap);
    return BENCH_SCRIPT_ERROR;
}

/* A number (util/number.h) that fits in `max`. */
static int number_arg(struct parser *p, const char *text, const char *what, uint64_t max,
                      uint64_t *value)
{
    char message[TEXT_MAX_LINE + 128];
    if (number_read(what, text, 0, max, value, message, sizeof message))
        return BENCH_OK;
    return fail(p, "%s", message);
}

/* "key=value" with a number value; returns 1 when `token` has that key,
 * 0 when it has not, BENCH_SCRIPT_ERROR for a bad value. */
static int keyed_number(struct parser *p, const char *token, const char *key, uint64_t max,
                        uint64_t *value)
{
    size_t n = strlen(key);
    if (strncmp(token, key, n) != 0 || token[n] != '=')
        return 0;
    return number_arg(p, token + n + 1, key, max, value) == BENCH_OK ? 1 : BENCH_SCRIPT_ERROR;
}

static uint32_t msr_by_name(const struct bench_script *script, const char *name)
{
    return script->cpu == PMU_NETBURST ? nb_msr_by_name(name) : p5_msr_by_name(name);
}

static int msr_arg(struct parser *p, const char *text, uint32_t *msr)
{
    uint64_t value;
    if (number_parse(text, 0, UINT32_MAX, &value)) {
        *msr = (uint32_t)value;
        return BENCH_OK;
    }
    *msr = msr_by_name(p->script, text);
    if (*msr)
        return BENCH_OK;
    return fail(p, "expected an MSR address or name (e.g. %s), got '%s'",
                p->script->cpu == PMU_NETBURST ? "0x360 or MSR_BPU_CCCR0" : "0x11 or CESR",
                text);
}

/* Each option of a statement may be given once: notes `option` (a bit of
 * *given) for `token`, or fails when it was given before. */
static int once(struct parser *p, const char *token, unsigned *given, unsigned option)
{
    if (*given & option)
        return fail(p, "'%s' repeats an option already given", token);
    *given |= option;
    return BENCH_OK;
}

static int expect_tokens(struct parser *p, int min, int max, const char *usage)
{
    if (p->n_tokens < min || p->n_tokens > max)
        return fail(p, "expected '%s'", usage);
    return BENCH_OK;
}

static int parse_cpu(struct parser *p, struct bench_stmt *st)
{
    (void)st; /* the cpu statement configures the script, not a step */
    struct bench_script *s = p->script;
    if (s->n_stmts > 0)
        return fail(p, "'cpu' must be the first statement and appear once");
    if (p->n_tokens < 2)
        return fail(p, "expected 'cpu netburst [model=N] [ht=on|off]' or 'cpu p5'");
    if (strcmp(p->tokens[1], "p5") == 0) {
        s->cpu = PMU_P5;
        return expect_tokens(p, 2, 2, "cpu p5");
    }
    if (strcmp(p->tokens[1], "netburst") != 0)
        return fail(p, "unknown cpu '%s' (expected netburst or p5)", p->tokens[1]);
    s->cpu = PMU_NETBURST;
    bool model_given = false, ht_given = false;
    for (int i = 2; i < p->n_tokens; i++) {
        uint64_t model;
        bool is_ht = strncmp(p->tokens[i], "ht=", 3) == 0;
        bool is_model = strncmp(p->tokens[i], "model=", 6) == 0;
        if ((is_ht && ht_given) || (is_model && model_given))
            return fail(p, "'%s' repeats an option already given", p->tokens[i]);
        int got = keyed_number(p, p->tokens[i], "model", 255, &model);
        if (got == BENCH_SCRIPT_ERROR)
            return got;
        if (got) {
            if (!nb_cpuid_model_supported((int)model))
                return fail(p, "unknown NetBurst model %llu (expected 0, 1, 2, 3, 4 or 6)",
                            (unsigned long long)model);
            s->model = (int)model;
            model_given = true;
        } else if (strcmp(p->tokens[i], "ht=on") == 0) {
            s->ht = ht_given = true;
        } else if (strcmp(p->tokens[i], "ht=off") == 0) {
            s->ht = false;
            ht_given = true;
        } else {
            return fail(p, "unexpected '%s' (expected model=N or ht=on|off)", p->tokens[i]);
        }
    }
    return BENCH_OK;
}

static int thread_count(const struct bench_script *s)
{
    return s->cpu == PMU_NETBURST && s->ht ? 2 : 1;
}

static int thread_arg(struct parser *p, const char *text, int *thread)
{
    uint64_t t;
    if (!number_parse(text, 0, 1, &t) || (int)t >= thread_count(p->script))
        return fail(p, "expected a thread number below %d, got '%s'%s",
                    thread_count(p->script), text,
                    p->script->cpu == PMU_NETBURST && !p->script->ht
                        ? " (thread 1 needs ht=on)" : "");
    *thread = (int)t;
    return BENCH_OK;
}

static int parse_thread(struct parser *p, struct bench_stmt *st)
{
    int rc = expect_tokens(p, 3, MAX_TOKENS, "thread T active|idle [cpl=N]");
    if (rc == BENCH_OK)
        rc = thread_arg(p, p->tokens[1], &st->thread);
    if (rc != BENCH_OK)
        return rc;
    if (strcmp(p->tokens[2], "active") == 0)
        st->active = true;
    else if (strcmp(p->tokens[2], "idle") == 0)
        st->active = false;
    else
        return fail(p, "expected 'active' or 'idle', got '%s'", p->tokens[2]);
    if (p->script->cpu == PMU_P5 && !st->active)
        return fail(p, "the P5 has one processor and no idle state to model; use 'thread 0 active'");
    st->cpl = -1;
    unsigned given = 0;
    for (int i = 3; i < p->n_tokens; i++) {
        uint64_t cpl;
        int got = keyed_number(p, p->tokens[i], "cpl", 3, &cpl);
        if (got == BENCH_SCRIPT_ERROR)
            return got;
        if (!got)
            return fail(p, "unexpected '%s' (expected cpl=N)", p->tokens[i]);
        if (once(p, p->tokens[i], &given, 1) != BENCH_OK)
            return BENCH_SCRIPT_ERROR;
        st->cpl = (int)cpl;
    }
    return BENCH_OK;
}

static const char *models_of(const struct nb_event_info *event, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int m = 0; m < 8 && used < size; m++)
        if (event->models & (1u << m))
            used += (size_t)snprintf(buf + used, size - used, "%s%d", used ? ", " : "", m);
    return buf;
}

/* NetBurst: NAME:SUB[:SUB...] with the SDM's names. */
static int netburst_event_name(struct parser *p, char *name, struct bench_stmt *st)
{
    char *rest = strchr(name, ':');
    if (rest)
        *rest++ = '\0';
    int index = nb_event_find(name);
    struct suggestion near;
    suggestion_start(&near, name);
    if (index < 0)
        nb_events_suggest(&near);
    if (index < 0 && near.best)
        return fail(p, "unknown NetBurst event '%s' (did you mean '%s'?)", name, near.best);
    if (index < 0)
        return fail(p, "unknown NetBurst event '%s' (pmubench's catalog has the SDM's names, "
                       "e.g. branch_retired)", name);
    const struct nb_event_info *event = &nb_event_table[index];
    char names[512];
    if (!(event->models & (1u << p->script->model)))
        return fail(p, "event %s does not exist on model %d (models %s only)", event->name,
                    p->script->model, models_of(event, names, sizeof names));
    st->event = index;
    st->mask = 0;
    for (char *sub = rest; sub; sub = rest) {
        rest = strchr(sub, ':');
        if (rest)
            *rest++ = '\0';
        const struct nb_subevent *found = nb_subevent_find(event, sub);
        suggestion_start(&near, sub);
        if (!found)
            nb_subevents_suggest(event, &near);
        if (!found && near.best)
            return fail(p, "unknown sub-event '%s' of %s (did you mean '%s'?)", sub, event->name,
                        near.best);
        if (!found) {
            nb_subevent_names(event, names, sizeof names);
            return fail(p, "unknown sub-event '%s' of %s (expected one of %s)", sub,
                        event->name, names);
        }
        st->mask |= (uint16_t)(1u << found->bit);
    }
    if (st->mask == 0) {
        nb_subevent_names(event, names, sizeof names);
        return fail(p, "expected %s:SUBEVENT, with SUBEVENT one of %s", event->name, names);
    }
    return BENCH_OK;
}

/* P5: an enumerated name of Table 3.2 in Safford 1997, or the event code. */
static int p5_event_name(struct parser *p, const char *name, struct bench_stmt *st)
{
    const struct p5_event *event = p5_event_by_name(name);
    uint64_t code;
    if (!event && number_parse(name, 0, 0x3f, &code))
        event = p5_event_by_code((unsigned)code);
    struct suggestion near;
    suggestion_start(&near, name);
    if (!event)
        p5_events_suggest(&near);
    if (!event && near.best)
        return fail(p, "unknown P5 event '%s' (did you mean '%s'?)", name, near.best);
    if (!event)
        return fail(p, "unknown P5 event '%s' (expected a name from Table 3.2 of Safford 1997, such as "
                       "data_read_miss, or a defined code such as 0x03)", name);
    st->event = event->code;
    return BENCH_OK;
}

static int parse_event(struct parser *p, struct bench_stmt *st)
{
    int rc = expect_tokens(p, 2, MAX_TOKENS, "event NAME[:SUBEVENT...] [thread=T] [count=N]");
    if (rc != BENCH_OK)
        return rc;
    rc = p->script->cpu == PMU_NETBURST ? netburst_event_name(p, p->tokens[1], st)
                                          : p5_event_name(p, p->tokens[1], st);
    if (rc != BENCH_OK)
        return rc;
    st->count = 1;
    st->thread = 0;
    unsigned given = 0; /* bit 0: count=, bit 1: thread= */
    for (int i = 2; rc == BENCH_OK && i < p->n_tokens; i++) {
        uint64_t value;
        int got = keyed_number(p, p->tokens[i], "count", UINT32_MAX, &value);
        if (got == BENCH_SCRIPT_ERROR)
            return got;
        if (got == 1) {
            rc = once(p, p->tokens[i], &given, 1);
            st->count = (uint32_t)value;
        } else if (strncmp(p->tokens[i], "thread=", 7) == 0) {
            rc = once(p, p->tokens[i], &given, 2);
            if (rc == BENCH_OK)
                rc = thread_arg(p, p->tokens[i] + 7, &st->thread);
        } else {
            rc = fail(p, "unexpected '%s' (expected thread=T or count=N)", p->tokens[i]);
        }
    }
    return rc;
}

static int parse_wrmsr(struct parser *p, struct bench_stmt *st)
{
    int rc = expect_tokens(p, 3, 3, "wrmsr ADDR VALUE");
    if (rc == BENCH_OK)
        rc = msr_arg(p, p->tokens[1], &st->msr);
    return rc == BENCH_OK ? number_arg(p, p->tokens[2], "VALUE", UINT64_MAX, &st->value) : rc;
}

static int parse_rdmsr(struct parser *p, struct bench_stmt *st)
{
    int rc = expect_tokens(p, 2, 2, "rdmsr ADDR");
    return rc == BENCH_OK ? msr_arg(p, p->tokens[1], &st->msr) : rc;
}

static int parse_rdpmc(struct parser *p, struct bench_stmt *st)
{
    if (p->script->cpu == PMU_P5)
        return fail(p, "the P5 has no RDPMC instruction (it came with the Pentium MMX); "
                       "use rdmsr CTR0");
    uint64_t ecx;
    int rc = expect_tokens(p, 2, 2, "rdpmc ECX");
    if (rc == BENCH_OK)
        rc = number_arg(p, p->tokens[1], "ECX", UINT32_MAX, &ecx);
    if (rc == BENCH_OK)
        st->msr = (uint32_t)ecx;
    return rc;
}

static int parse_tick(struct parser *p, struct bench_stmt *st)
{
    st->value = 1;
    int rc = expect_tokens(p, 1, 2, "tick [N]");
    if (rc == BENCH_OK && p->n_tokens == 2) {
        rc = number_arg(p, p->tokens[1], "N", BENCH_MAX_TICK, &st->value);
        if (rc == BENCH_OK && st->value == 0)
            rc = fail(p, "expected 'tick N' with N of 1 or more");
    }
    return rc;
}

/* wrmem, rdmem, retire and interrupt drive the NetBurst's sampling. */
static int need_netburst(struct parser *p)
{
    if (p->script->cpu == PMU_NETBURST)
        return BENCH_OK;
    return fail(p, "'%s' needs cpu netburst (the P5 has no DS save area or sampling)",
                p->tokens[0]);
}

/* SIZE of a memory access: 1, 2, 4 or 8 bytes. */
static int size_arg(struct parser *p, const char *text, unsigned *size)
{
    uint64_t v;
    if (!number_parse(text, 0, 8, &v) || (v & (v - 1)) || v == 0)
        return fail(p, "expected SIZE 1, 2, 4 or 8 (bytes), got '%s'", text);
    *size = (unsigned)v;
    return BENCH_OK;
}

static uint64_t size_max(unsigned size)
{
    return size == 8 ? UINT64_MAX : (1ull << (8 * size)) - 1;
}

static int parse_wrmem(struct parser *p, struct bench_stmt *st)
{
    int rc = need_netburst(p);
    if (rc == BENCH_OK)
        rc = expect_tokens(p, 4, 4, "wrmem ADDR SIZE VALUE");
    if (rc == BENCH_OK)
        rc = number_arg(p, p->tokens[1], "ADDR", UINT64_MAX, &st->addr);
    if (rc == BENCH_OK)
        rc = size_arg(p, p->tokens[2], &st->size);
    return rc == BENCH_OK ? number_arg(p, p->tokens[3], "VALUE", size_max(st->size), &st->value)
                          : rc;
}

static int parse_rdmem(struct parser *p, struct bench_stmt *st)
{
    int rc = need_netburst(p);
    if (rc == BENCH_OK)
        rc = expect_tokens(p, 3, 3, "rdmem ADDR SIZE");
    if (rc == BENCH_OK)
        rc = number_arg(p, p->tokens[1], "ADDR", UINT64_MAX, &st->addr);
    return rc == BENCH_OK ? size_arg(p, p->tokens[2], &st->size) : rc;
}

/* REG=VALUE names of `retire`: the 32-bit and the 64-bit name of each
 * register of a PEBS record; R8-R15 have only the 64-bit one. */
static const struct {
    const char *name32, *name64;
} register_names[NB_NUM_REGS] = {
    [NB_REG_FLAGS] = {"eflags", "rflags"}, [NB_REG_AX] = {"eax", "rax"},
    [NB_REG_BX] = {"ebx", "rbx"}, [NB_REG_CX] = {"ecx", "rcx"}, [NB_REG_DX] = {"edx", "rdx"},
    [NB_REG_SI] = {"esi", "rsi"}, [NB_REG_DI] = {"edi", "rdi"}, [NB_REG_BP] = {"ebp", "rbp"},
    [NB_REG_SP] = {"esp", "rsp"}, [NB_REG_R8] = {NULL, "r8"}, [NB_REG_R9] = {NULL, "r9"},
    [NB_REG_R10] = {NULL, "r10"}, [NB_REG_R11] = {NULL, "r11"}, [NB_REG_R12] = {NULL, "r12"},
    [NB_REG_R13] = {NULL, "r13"}, [NB_REG_R14] = {NULL, "r14"}, [NB_REG_R15] = {NULL, "r15"},
};

static const struct {
    const char *name;
    uint8_t tags;
} tag_names[] = {
    {"tagged", NB_TAG_FRONT_END | NB_TAG_EXECUTION | NB_TAG_REPLAY},
    {"tagged=front_end", NB_TAG_FRONT_END},
    {"tagged=execution", NB_TAG_EXECUTION},
    {"tagged=replay", NB_TAG_REPLAY},
};

static int register_index(const char *token)
{
    const char *eq = strchr(token, '=');
    size_t n = eq ? (size_t)(eq - token) : 0;
    for (int reg = 0; reg < NB_NUM_REGS; reg++) {
        const char *names[2] = {register_names[reg].name32, register_names[reg].name64};
        for (int k = 0; k < 2; k++)
            if (names[k] && strlen(names[k]) == n && strncmp(token, names[k], n) == 0)
                return reg;
    }
    return -1;
}

static int retire_tag(struct parser *p, const char *token, struct bench_retire *r, bool *seen)
{
    for (size_t i = 0; i < sizeof tag_names / sizeof tag_names[0]; i++) {
        if (strcmp(token, tag_names[i].name) != 0)
            continue;
        if (*seen)
            return fail(p, "'%s' repeats an option already given", token);
        *seen = true;
        r->tags = tag_names[i].tags;
        return 1;
    }
    return 0;
}

static int retire_register(struct parser *p, const char *token, struct bench_retire *r,
                           uint32_t *given)
{
    int reg = register_index(token);
    if (reg < 0)
        return fail(p, "unexpected '%s' (expected thread=T, eip=ADDR, tagged[=front_end|"
                       "execution|replay], ia32e or REG=VALUE with REG eflags, eax ... esp, "
                       "or their 64-bit names and r8-r15)", token);
    if (*given & (1u << reg))
        return fail(p, "'%s' repeats an option already given", token);
    *given |= 1u << reg;
    r->has_regs = true;
    return number_arg(p, strchr(token, '=') + 1, token, UINT64_MAX, &r->regs[reg]);
}

/* Registers and EIP beyond 32 bits, and R8-R15, need IA-32e mode. */
static int check_retire_width(struct parser *p, const struct bench_retire *r, uint32_t given)
{
    if (r->ia32e)
        return BENCH_OK;
    if (r->eip > UINT32_MAX)
        return fail(p, "eip=0x%llx needs ia32e (a 32-bit linear address is at most 0xffffffff)",
                    (unsigned long long)r->eip);
    for (int reg = 0; reg < NB_NUM_REGS; reg++)
        if ((given & (1u << reg)) && (reg >= NB_REG_R8 || r->regs[reg] > UINT32_MAX))
            return fail(p, "%s=0x%llx needs ia32e (outside IA-32e mode the registers are "
                           "32 bits and R8-R15 do not exist)",
                        register_names[reg].name32 ? register_names[reg].name32
                                                   : register_names[reg].name64,
                        (unsigned long long)r->regs[reg]);
    return BENCH_OK;
}

static int retire_option(struct parser *p, const char *token, struct bench_stmt *st,
                         bool seen[4], uint32_t *given)
{
    struct bench_retire *r = &st->retire;
    uint64_t value;
    int got = retire_tag(p, token, r, &seen[0]);
    if (got)
        return got == 1 ? BENCH_OK : got;
    bool is_ia32e = strcmp(token, "ia32e") == 0, is_thread = strncmp(token, "thread=", 7) == 0;
    if ((is_ia32e && seen[2]) || (is_thread && seen[3]))
        return fail(p, "'%s' repeats an option already given", token);
    seen[2] |= is_ia32e;
    seen[3] |= is_thread;
    if (is_ia32e) {
        if (!nb_cpuid_model_info(p->script->model)->addr64)
            return fail(p, "ia32e needs a 64-bit model (3, 4 or 6), not model %d",
                        p->script->model);
        r->ia32e = true;
        return BENCH_OK;
    }
    if ((got = keyed_number(p, token, "eip", UINT64_MAX, &value)) != 0) {
        if (got == 1 && seen[1])
            return fail(p, "'%s' repeats an option already given", token);
        seen[1] = true;
        r->eip = value;
        return got == 1 ? BENCH_OK : got;
    }
    if (is_thread)
        return thread_arg(p, token + 7, &st->thread);
    return retire_register(p, token, r, given);
}

static int parse_retire(struct parser *p, struct bench_stmt *st)
{
    int rc = need_netburst(p);
    bool seen[4] = {false, false, false, false}; /* tagged, eip=, ia32e, thread= */
    uint32_t given = 0;
    for (int i = 1; rc == BENCH_OK && i < p->n_tokens; i++)
        rc = retire_option(p, p->tokens[i], st, seen, &given);
    if (rc == BENCH_OK && !seen[1])
        rc = fail(p, "expected 'retire [thread=T] eip=ADDR [tagged[=MECHANISM]] [ia32e] "
                     "[REG=VALUE ...]': eip= is missing");
    return rc == BENCH_OK ? check_retire_width(p, &st->retire, given) : rc;
}

static int parse_interrupt(struct parser *p, struct bench_stmt *st)
{
    int rc = need_netburst(p);
    unsigned given = 0;
    for (int i = 1; rc == BENCH_OK && i < p->n_tokens; i++) {
        if (strncmp(p->tokens[i], "thread=", 7) != 0)
            return fail(p, "unexpected '%s' (expected thread=T)", p->tokens[i]);
        rc = once(p, p->tokens[i], &given, 1);
        if (rc == BENCH_OK)
            rc = thread_arg(p, p->tokens[i] + 7, &st->thread);
    }
    return rc;
}

static const struct {
    const char *verb;
    int (*parse)(struct parser *p, struct bench_stmt *st);
} statements[] = {
    [STMT_CPU] = {"cpu", parse_cpu},       [STMT_WRMSR] = {"wrmsr", parse_wrmsr},
    [STMT_RDMSR] = {"rdmsr", parse_rdmsr}, [STMT_RDPMC] = {"rdpmc", parse_rdpmc},
    [STMT_THREAD] = {"thread", parse_thread}, [STMT_EVENT] = {"event", parse_event},
    [STMT_TICK] = {"tick", parse_tick},
    [STMT_WRMEM] = {"wrmem", parse_wrmem}, [STMT_RDMEM] = {"rdmem", parse_rdmem},
    [STMT_RETIRE] = {"retire", parse_retire}, [STMT_INTERRUPT] = {"interrupt", parse_interrupt},
};

const char *bench_stmt_verb(enum bench_stmt_kind kind)
{
    return statements[kind].verb;
}

static int parse_statement(struct parser *p, struct bench_stmt *st)
{
    const char *verb = p->tokens[0];
    st->line = p->line;
    for (size_t k = 0; k < sizeof statements / sizeof statements[0]; k++) {
        if (strcmp(verb, statements[k].verb) != 0)
            continue;
        st->kind = (enum bench_stmt_kind)k;
        if (st->kind != STMT_CPU && p->script->n_stmts == 0)
            break;
        return statements[k].parse(p, st);
    }
    if (p->script->n_stmts == 0)
        return fail(p, "expected 'cpu netburst ...' or 'cpu p5' as the first statement, got '%s'",
                    verb);
    return fail(p, "unknown statement '%s' (expected cpu, wrmsr, rdmsr, rdpmc, thread, event, "
                   "tick, wrmem, rdmem, retire or interrupt)", verb);
}

static void tokenize(struct parser *p, char *line)
{
    char *comment = strchr(line, '#');
    if (comment)
        *comment = '\0';
    p->n_tokens = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\n\f\v", &save); t && p->n_tokens < MAX_TOKENS;
         t = strtok_r(NULL, " \t\r\n\f\v", &save))
        p->tokens[p->n_tokens++] = t;
}

static int append(struct parser *p, const struct bench_stmt *st, size_t *cap)
{
    struct bench_script *s = p->script;
    if (!grow_array(&s->stmts, cap, s->n_stmts + 1, sizeof *s->stmts, 64)) {
        fail(p, "out of memory");
        return BENCH_RUNTIME_ERROR;
    }
    s->stmts[s->n_stmts++] = *st;
    return BENCH_OK;
}

int bench_parse(FILE *in, const char *path, struct bench_script *script, char *error,
                size_t error_size)
{
    memset(script, 0, sizeof *script);
    script->path = path;
    script->model = 2;
    script->ht = true;
    struct parser p = {.path = path, .script = script, .error = error, .error_size = error_size};
    struct line_stream lines;
    line_stream_init(&lines, in, path, TEXT_MAX_LINE);
    size_t cap = 0;
    int rc = BENCH_OK;
    enum line_result result;
    while (rc == BENCH_OK && (result = line_stream_next(&lines, error, error_size)) == LINE_READ) {
        p.line = (int)lines.line;
        tokenize(&p, lines.text);
        if (p.n_tokens == 0)
            continue;
        struct bench_stmt st = {0};
        rc = p.n_tokens == MAX_TOKENS ? fail(&p, "too many tokens (at most %d)", MAX_TOKENS - 1)
                                      : parse_statement(&p, &st);
        if (rc == BENCH_OK)
            rc = append(&p, &st, &cap);
    }
    if (rc == BENCH_OK && result != LINE_END)
        rc = result == LINE_BAD ? BENCH_SCRIPT_ERROR : BENCH_RUNTIME_ERROR;
    if (rc == BENCH_OK && script->n_stmts == 0) {
        p.line = 1;
        rc = fail(&p, "empty script: expected 'cpu netburst' or 'cpu p5'");
    }
    line_stream_free(&lines);
    if (rc != BENCH_OK)
        bench_script_free(script);
    return rc;
}

void bench_script_free(struct bench_script *script)
{
    free(script->stmts);
    script->stmts = NULL;
    script->n_stmts = 0;
}
