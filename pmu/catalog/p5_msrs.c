#include "p5_msrs.h"

#include <stddef.h>

#include "msr_names.h"

/* A counter's half of the CESR: ES 5:0, CC 8:6, PC 9. */
#define CESR_HALF_SHIFT 16
#define HALF_ES_BITS 0x3fu
#define HALF_CC_SHIFT 6
#define HALF_CC_BITS 0x7u
#define HALF_PC_SHIFT 9

/* Counter `counter`'s half of `cesr`. */
static unsigned cesr_half(uint64_t cesr, int counter)
{
    return (unsigned)(cesr >> (counter * CESR_HALF_SHIFT));
}

unsigned p5_cesr_event(uint64_t cesr, int counter)
{
    return cesr_half(cesr, counter) & HALF_ES_BITS;
}

unsigned p5_cesr_control(uint64_t cesr, int counter)
{
    return (cesr_half(cesr, counter) >> HALF_CC_SHIFT) & HALF_CC_BITS;
}

unsigned p5_cesr_pin(uint64_t cesr, int counter)
{
    return (cesr_half(cesr, counter) >> HALF_PC_SHIFT) & 1u;
}

uint64_t p5_cesr_place(uint32_t half, int counter)
{
    return (uint64_t)half << (counter * CESR_HALF_SHIFT);
}

uint64_t p5_cesr_stopped(uint64_t cesr)
{
    uint64_t cc = HALF_CC_BITS << HALF_CC_SHIFT;
    return cesr & ~(p5_cesr_place((uint32_t)cc, 0) | p5_cesr_place((uint32_t)cc, 1));
}

uint32_t p5_msr_by_name(const char *name)
{
    static const struct {
        const char *name;
        uint32_t msr;
    } names[] = {{"TSC", P5_MSR_TSC}, {"CESR", P5_MSR_CESR}, {"CTR0", P5_MSR_CTR0},
                 {"CTR1", P5_MSR_CTR1}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (msr_names_match(name, names[i].name))
            return names[i].msr;
    return 0;
}
