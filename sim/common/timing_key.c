/* The candidate forms of a timing-table lookup (sim/common/timing_key.h). */
#include "sim/common/timing_key.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Copies FORM to OUT, a sized register or memory kind ("r32", "m64") as
 * its letter alone; with GENERAL, the operand "cl" as "r", "1" as "i" and
 * an address shape ("a", "a3", "as", "as3") as "m". */
static void unsize(const char *form, char *out, size_t size, bool general)
{
    size_t used = 0;
    const char *p = form;
    while (*p && used + 1 < size) {
        size_t len = strcspn(p, ",");
        bool sized = (p[0] == 'r' || p[0] == 'm') && len > 1 &&
                     strspn(p + 1, "0123456789") == len - 1;
        bool cl = general && len == 2 && strncmp(p, "cl", 2) == 0;
        bool one = general && len == 1 && p[0] == '1';
        bool address = general && p[0] == 'a';
        size_t keep = sized || cl || address ? 1 : len;
        const char *text = cl ? "r" : one ? "i" : address ? "m" : p;
        for (size_t i = 0; i < keep && used + 1 < size; i++)
            out[used++] = text[i];
        p += len;
        if (*p == ',' && used + 1 < size) {
            out[used++] = ',';
            p++;
        }
    }
    out[used] = '\0';
}

static bool valid_token(const char *token, size_t len)
{
    static const char *const tokens[] = {
        "r", "r8", "r16", "r32", "r64", "m", "m8", "m16", "m32", "m48", "m64", "m80", "m128",
        "i", "1", "cl", "st", "mm", "xmm", "ymm", "sreg", "rel", "a", "a3", "as", "as3", "x",
    };
    for (size_t i = 0; i < sizeof tokens / sizeof tokens[0]; i++)
        if (strlen(tokens[i]) == len && strncmp(tokens[i], token, len) == 0)
            return true;
    return false;
}

bool timing_form_valid(const char *form)
{
    for (const char *p = form; *p;) {
        size_t len = strcspn(p, ",");
        if (!valid_token(p, len) || (p[len] == ',' && p[len + 1] == '\0'))
            return false;
        p += len + (p[len] == ',');
    }
    return true;
}

size_t timing_form_candidates(const char *form, char out[TIMING_FORM_CANDIDATES][TIMING_FORM_MAX])
{
    size_t n = 0;
    snprintf(out[n++], TIMING_FORM_MAX, "%s", form);
    unsize(form, out[n], TIMING_FORM_MAX, false);
    if (strcmp(out[n], out[n - 1]) != 0)
        n++;
    unsize(form, out[n], TIMING_FORM_MAX, true);
    if (strcmp(out[n], out[n - 1]) != 0)
        n++;
    return n;
}

/* The unsized kind of the first register operand of FORM, or NULL. */
static const char *first_register(const char *form, char *kind, size_t size)
{
    for (const char *p = form; *p;) {
        size_t len = strcspn(p, ",");
        bool memory = p[0] == 'm' && strspn(p + 1, "0123456789") == len - 1;
        bool immediate = len == 1 && p[0] == 'i';
        if (!memory && !immediate && len > 0) {
            char token[TIMING_FORM_MAX];
            snprintf(token, sizeof token, "%.*s", (int)len, p);
            unsize(token, kind, size, true);
            return kind;
        }
        p += len + (p[len] == ',');
    }
    return NULL;
}

void timing_form_registers(const char *form, const char *default_kind, char out[TIMING_FORM_MAX])
{
    char kind[TIMING_FORM_MAX];
    const char *reg = first_register(form, kind, sizeof kind);
    if (!reg)
        reg = default_kind;
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = form; *p;) {
        size_t len = strcspn(p, ",");
        bool memory = p[0] == 'm' && strspn(p + 1, "0123456789") == len - 1;
        char token[TIMING_FORM_MAX], plain[TIMING_FORM_MAX];
        snprintf(token, sizeof token, "%.*s", (int)len, p);
        unsize(token, plain, sizeof plain, false);
        int n = snprintf(out + used, TIMING_FORM_MAX - used, "%s%s", used ? "," : "",
                         memory ? reg : plain);
        used += n > 0 ? (size_t)n : 0;
        if (used >= TIMING_FORM_MAX) {
            out[TIMING_FORM_MAX - 1] = '\0';
            return;
        }
        p += len + (p[len] == ',');
    }
}
