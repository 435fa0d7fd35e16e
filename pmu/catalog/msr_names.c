#include "msr_names.h"

#include <strings.h>

static const char *without_prefix(const char *name)
{
    if (strncasecmp(name, "MSR_", 4) == 0)
        return name + 4;
    if (strncasecmp(name, "IA32_", 5) == 0)
        return name + 5;
    return name;
}

bool msr_names_match(const char *a, const char *b)
{
    return strcasecmp(without_prefix(a), without_prefix(b)) == 0;
}
