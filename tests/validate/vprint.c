/* The validation suite's arithmetic and verdicts (tests/validate/vprint.h). */
#include "vprint.h"

#include <inttypes.h>
#include <stdio.h>

struct vprint_result vprint_difference(uint64_t short_cycles, uint64_t long_cycles,
                                         int copies, int iterations)
{
    return (struct vprint_result){(int64_t)long_cycles - (int64_t)short_cycles,
                                   (uint64_t)copies * (uint64_t)iterations};
}

/* value = diff / units cycles = 2 diff / units half cycles:
 * 0.9 lo <= 2 diff / units  <=>  20 diff >= 9 lo units, and likewise 1.1 hi. */
bool vprint_within_sixths(uint32_t lo_sixths, uint32_t hi_sixths, struct vprint_result r)
{
    if (r.units == 0)
        return false;
    int64_t sixty = 60 * r.diff;
    return sixty >= (int64_t)(9 * (uint64_t)lo_sixths * r.units) &&
           sixty <= (int64_t)(11 * (uint64_t)hi_sixths * r.units);
}

bool vprint_within(uint32_t lo_half, uint32_t hi_half, struct vprint_result r)
{
    return vprint_within_sixths(3 * lo_half, 3 * hi_half, r);
}

static void cycles_text(char *out, size_t size, uint32_t half)
{
    if (half % 2)
        snprintf(out, size, "%" PRIu32 ".5", half / 2);
    else
        snprintf(out, size, "%" PRIu32, half / 2);
}

/* Whole and half cycles as vprint_published writes them, other sixths
 * to two decimals, rounded ("0.33"). */
static void sixths_text(char *out, size_t size, uint32_t sixths)
{
    if (sixths % 3 == 0) {
        cycles_text(out, size, sixths / 3);
        return;
    }
    uint32_t hundredths = (200 * sixths + 6) / 12;
    snprintf(out, size, "%" PRIu32 ".%02" PRIu32, hundredths / 100, hundredths % 100);
}

void vprint_published(char *out, size_t size, uint32_t lo_half, uint32_t hi_half)
{
    vprint_published_sixths(out, size, 3 * lo_half, 3 * hi_half);
}

void vprint_published_sixths(char *out, size_t size, uint32_t lo_sixths, uint32_t hi_sixths)
{
    char lo[16], hi[16];
    sixths_text(lo, sizeof lo, lo_sixths);
    sixths_text(hi, sizeof hi, hi_sixths);
    if (hi_sixths > lo_sixths)
        snprintf(out, size, "%s-%s", lo, hi);
    else
        snprintf(out, size, "%s", lo);
}

/* Rounded half away from zero to hundredths, in integers (no floating
 * point: the same text on every machine). */
void vprint_simulated(char *out, size_t size, struct vprint_result r)
{
    if (r.units == 0) {
        snprintf(out, size, "-");
        return;
    }
    uint64_t magnitude = (uint64_t)(r.diff < 0 ? -r.diff : r.diff);
    uint64_t hundredths = (200 * magnitude + r.units) / (2 * r.units);
    snprintf(out, size, "%s%" PRIu64 ".%02" PRIu64, r.diff < 0 && hundredths ? "-" : "",
             hundredths / 100, hundredths % 100);
}

bool vprint_passes(unsigned within, unsigned measured)
{
    return measured > 0 && 10ull * within >= 9ull * measured;
}

void vprint_summary(char *out, size_t size, const char *preset, unsigned within,
                     unsigned measured, unsigned not_measured, unsigned unpublished)
{
    unsigned tenths = measured ? (unsigned)((2000ull * within + measured) / (2ull * measured)) : 0;
    int n = snprintf(out, size, "%s: %u of %u rows within 10%% (%u.%u%%), %u not measured",
                     preset, within, measured, tenths / 10, tenths % 10, not_measured);
    if (unpublished && n > 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, ", %u without a published figure", unpublished);
}
