/* Hand-made traces for the timing models' tests: a trace builder (struct
 * tb) writes instructions one at a time into a temporary file, which the
 * test simulates, then removes (unlink(t.path)).  Failures are cmocka
 * assertions. */
#ifndef TESTS_UNIT_MODEL_TRACE_H
#define TESTS_UNIT_MODEL_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "sim/netburst/nbm_model.h"
#include "traces/trace.h"

struct tb {
    char path[64];
    FILE *out;
    struct trace_writer *writer;
};

/* A trace with the header's ISA and flags. */
void tb_open_header(struct tb *t, struct trace_header header);

/* A 64-bit trace with instruction lengths. */
void tb_open(struct tb *t);

/* Ends the trace: the program exited. */
void tb_close(struct tb *t);

/* An instruction at CPL 3 with its code bytes (NULL: none recorded), a
 * branch outcome and at most one data access (kind 0: none). */
struct trace_insn tb_make(uint64_t address, const char *bytes, int length,
                          enum trace_branch branch, uint64_t target,
                          enum trace_access_kind kind, uint64_t data, uint32_t size);

void tb_write(struct tb *t, const struct trace_insn *insn);

/* tb_make()'s instruction, written. */
void tb_insn(struct tb *t, uint64_t address, const char *bytes, int length,
             enum trace_branch branch, uint64_t target, enum trace_access_kind kind,
             uint64_t data, uint32_t size);

/* A straight-line instruction without data access. */
void tb_plain(struct tb *t, uint64_t address, const char *bytes, int length);

/* A straight-line instruction with one data access. */
void tb_access(struct tb *t, uint64_t address, const char *bytes, int length,
               enum trace_access_kind kind, uint64_t data, uint32_t size);

/* A branch without data access. */
void tb_branch(struct tb *t, uint64_t address, const char *bytes, int length,
               enum trace_branch branch, uint64_t target);

/* `iterations` of add eax, 1; dec ecx; jnz at 0x1000 (64-bit, 7 bytes):
 * the jnz taken back to 0x1000 but the last time. */
void tb_loop(struct tb *t, int iterations);

/* The NetBurst model's run of the trace at `path` with `config`, on a PMU
 * of its model with nothing programmed; fails the test on an error. */
struct nbm_result tb_simulate(const char *path, const struct nbm_config *config);

/* The ESCR event-mask bits of the NetBurst event `event`'s sub-events
 * named in `names` ('|'-separated); each must exist. */
uint16_t tb_subevent_mask(int event, const char *names);

#endif
