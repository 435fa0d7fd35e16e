/* The candidate forms of a timing-table lookup (sim/common/timing_key.h). */
#include "sim/common/timing_key.h"

#include <stdbool.h>
#include <stdint.h>
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

static bool is_memory(const char *token, size_t len)
{
    return len > 0 && token[0] == 'm' && strspn(token + 1, "0123456789") == len - 1;
}

/* The unsized kind of the first register operand of FORM, or NULL. */
static const char *first_register(const char *form, char *kind, size_t size)
{
    for (const char *p = form; *p;) {
        size_t len = strcspn(p, ",");
        bool immediate = len == 1 && (p[0] == 'i' || p[0] == '1');
        if (!is_memory(p, len) && !immediate && len > 0) {
            char token[TIMING_FORM_MAX];
            snprintf(token, sizeof token, "%.*s", (int)len, p);
            unsize(token, kind, size, true);
            return kind;
        }
        p += len + (p[len] == ',');
    }
    return NULL;
}

size_t timing_form_memory_as(const char *form, const char *kind, char out[TIMING_FORM_MAX])
{
    char first[TIMING_FORM_MAX];
    if (!kind && !(kind = first_register(form, first, sizeof first)))
        return 0;
    size_t used = 0, memory = 0;
    out[0] = '\0';
    for (const char *p = form; *p;) {
        size_t len = strcspn(p, ",");
        bool replaced = is_memory(p, len);
        /* "r" keeps the memory operand's size: "m32" is "r32" */
        int sized = replaced && strcmp(kind, "r") == 0 ? (int)len - 1 : 0;
        int n = replaced ? snprintf(out + used, TIMING_FORM_MAX - used, "%s%s%.*s",
                                    used ? "," : "", kind, sized, p + 1)
                         : snprintf(out + used, TIMING_FORM_MAX - used, "%s%.*s",
                                    used ? "," : "", (int)len, p);
        if (n < 0 || (size_t)n >= TIMING_FORM_MAX - used)
            return 0;
        used += (size_t)n;
        memory += replaced;
        p += len + (p[len] == ',');
    }
    return memory;
}

/* ---- a table's rows by family */

static const char *family_at(const struct timing_index *index, size_t i)
{
    return *(const char *const *)(index->rows + index->order[i] * index->stride);
}

static const char *form_at(const struct timing_index *index, size_t i)
{
    return *(const char *const *)(index->rows + index->order[i] * index->stride +
                                  index->form_offset);
}

/* Stable: a family's rows keep their table order (an insertion sort, run
 * once on a few hundred rows). */
void timing_index_build(struct timing_index *index)
{
    for (size_t i = 0; i < index->count; i++) {
        index->order[i] = (uint16_t)i;
        for (size_t j = i; j > 0 && strcmp(family_at(index, j - 1), family_at(index, j)) > 0; j--) {
            uint16_t t = index->order[j];
            index->order[j] = index->order[j - 1];
            index->order[j - 1] = t;
        }
    }
}

/* The position of FAMILY's first row in the order, or where it would be. */
static size_t first_of_family(const struct timing_index *index, const char *family)
{
    size_t lo = 0, hi = index->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(family_at(index, mid), family) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const void *timing_index_find(const struct timing_index *index, const char *family,
                              const char *form)
{
    size_t first = first_of_family(index, family), end = first;
    while (end < index->count && strcmp(family_at(index, end), family) == 0)
        end++;
    char forms[TIMING_FORM_CANDIDATES][TIMING_FORM_MAX];
    size_t n = timing_form_candidates(form, forms);
    for (size_t k = 0; k < n; k++)
        for (size_t i = first; i < end; i++)
            if (strcmp(form_at(index, i), forms[k]) == 0)
                return index->rows + index->order[i] * index->stride;
    return NULL;
}
