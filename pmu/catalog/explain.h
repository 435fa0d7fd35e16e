/* Checking raw ESCR/CCCR/PEBS/CESR values: the verdict of `pmubench
 * decode`.  Each problem is an error (the value is wrong: it faults, or
 * cannot count what it seems to ask for) or a warning (legal but suspicious).
 * docs/decode.md lists every check and its source. */
#ifndef PMU_CATALOG_EXPLAIN_H
#define PMU_CATALOG_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "netburst_msrs.h"

enum { EXPLAIN_MAX_PROBLEMS = 24 };

struct explain_problem {
    bool error;
    char text[400];
};

struct explain_problems {
    struct explain_problem problems[EXPLAIN_MAX_PROBLEMS];
    int n;
};

/* What `pmubench decode` was given; absent parts are false/-1. */
struct nb_explain_input {
    bool has_escr, has_cccr, has_pebs_enable, has_matrix_vert;
    uint64_t escr, cccr, pebs_enable, matrix_vert;
    int escr_index;  /* nb_escrs index of the ESCR the value is for, or -1 */
    int counter;     /* the counter of the CCCR, or -1 */
};

/* The ESCR a CCCR reads: given explicitly, or through the counter's
 * routing; -1 when unknown or when no ESCR sits behind the select. */
int nb_explain_escr(const struct nb_explain_input *in, const struct nb_pmu_config *config);

void nb_explain_check(const struct nb_explain_input *in, const struct nb_pmu_config *config,
                      struct explain_problems *report);

void p5_explain_check(uint64_t cesr, struct explain_problems *report);

bool explain_has_errors(const struct explain_problems *report);
bool explain_has_warnings(const struct explain_problems *report);

#endif
