/* libFuzzer target: the PARMS reader of `pmubench p5mon`
 * (apps/p5mon/parms.h), the parser of untrusted parameter files.  An input
 * is a file, optionally followed by a NUL byte and a -F argument
 * ("name=value"); an accepted file gets the argument and the check, as in
 * the CLI.  Seeds: tests/fuzz/corpus_parms. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/p5mon/parms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t file_size = nul ? (size_t)(nul - data) : size;
    if (file_size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, file_size, "r");
    struct p5mon_parms *parms = malloc(sizeof *parms);
    if (!in || !parms) {
        if (in)
            fclose(in);
        free(parms);
        return 0;
    }
    char error[8192], argument[512];
    p5mon_parms_defaults(parms);
    if (p5mon_parms_read(in, "fuzz", parms, error, sizeof error)) {
        if (nul) {
            size_t n = size - file_size - 1;
            snprintf(argument, sizeof argument, "%.*s", (int)(n < 511 ? n : 511),
                     (const char *)nul + 1);
            p5mon_parms_override(parms, argument, 1, error, sizeof error);
        }
        p5mon_parms_check(parms, "fuzz", error, sizeof error);
    }
    fclose(in);
    free(parms);
    return 0;
}
