/* The NetBurst model's block memo (sim/netburst/nbm_block.h): an
 * instruction's op is decoded the first time it runs, as the per-record
 * driver decoded it, and given from the memo after; its uops are laid out
 * once (nbm_shape_of); an instruction without code gets the generic op;
 * once the decode cache has replaced an op (the code at an address
 * changed), each execution is decoded again and the memo keeps nothing of
 * it; an undecodable instruction fails where it runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/netburst/nbm_block.h"

/* A block of three instructions at 0x1000: mov eax,[ebx] (a load);
 * add [ebx],eax (a load and a store); jnz back (taken). */
static struct trace_block_insn insns[3];
static struct trace_access accesses[3];
static struct trace_block block;

static void set_insn(unsigned i, uint64_t address, const uint8_t *bytes, uint8_t length,
                     enum trace_branch branch, uint16_t first_access, uint16_t n_accesses)
{
    memset(&insns[i], 0, sizeof insns[i]);
    insns[i].address = address;
    insns[i].length = length;
    insns[i].has_bytes = true;
    memcpy(insns[i].bytes, bytes, length);
    insns[i].branch = branch;
    insns[i].first_access = first_access;
    insns[i].n_accesses = n_accesses;
}

static void make_block(uint32_t id)
{
    static const uint8_t mov[] = {0x8b, 0x03}, add[] = {0x01, 0x03}, jnz[] = {0x75, 0xfa};
    set_insn(0, 0x1000, mov, 2, TRACE_NOT_BRANCH, 0, 1);
    set_insn(1, 0x1002, add, 2, TRACE_NOT_BRANCH, 1, 2);
    set_insn(2, 0x1004, jnz, 2, TRACE_BRANCH_TAKEN, 3, 0);
    accesses[0] = (struct trace_access){.kind = TRACE_LOAD, .address = 0x8000, .size = 4};
    accesses[1] = (struct trace_access){.kind = TRACE_LOAD, .address = 0x8000, .size = 4};
    accesses[2] = (struct trace_access){.kind = TRACE_STORE, .address = 0x8000, .size = 4};
    block = (struct trace_block){.id = id, .n_insns = 3, .n_accesses = 3, .insns = insns,
                                 .accesses = accesses, .next_address = 0x1000};
}

struct fixture {
    struct nbm_decode_cache cache, reference;
    struct nbm_block_memos memos;
};

static int setup(void **state)
{
    static struct fixture f;
    if (!nbm_decode_cache_init(&f.cache, X86_MODE_32) ||
        !nbm_decode_cache_init(&f.reference, X86_MODE_32))
        return -1;
    nbm_block_memos_init(&f.memos);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    nbm_block_memos_free(&f->memos);
    nbm_decode_cache_free(&f->cache);
    nbm_decode_cache_free(&f->reference);
    return 0;
}

/* What the per-record driver had: the op nbm_decode gives. */
static struct nbm_op reference_op(struct fixture *f, unsigned i)
{
    const struct nbm_op *op;
    assert_int_equal(nbm_decode(&f->reference, insns[i].address, insns[i].length, insns[i].bytes,
                                &op),
                     DECODE_OK);
    return *op;
}

static void assert_same_op(const struct nbm_op *a, const struct nbm_op *b)
{
    assert_int_equal(a->address, b->address);
    assert_int_equal(a->length, b->length);
    assert_int_equal(a->uops, b->uops);
    assert_int_equal(a->branch, b->branch);
    assert_int_equal(a->classified, b->classified);
    assert_int_equal(a->has_target, b->has_target);
    assert_int_equal(a->target, b->target);
    assert_int_equal(a->regs_read, b->regs_read);
    assert_int_equal(a->regs_written, b->regs_written);
    for (int g = 0; g < NBM_NUM_TIMING_GROUPS; g++) {
        assert_int_equal(a->timing[g].latency, b->timing[g].latency);
        assert_int_equal(a->timing[g].interval, b->timing[g].interval);
        assert_int_equal(a->timing[g].unit, b->timing[g].unit);
    }
}

static void run_block(struct fixture *f, struct nbm_block_memo *memo,
                      const struct nbm_block_insn *got[3])
{
    for (uint32_t i = 0; i < block.n_insns; i++)
        assert_int_equal(nbm_block_insn(memo, &block, i, true, &f->cache, &got[i]), DECODE_OK);
}

static void test_memo_gives_the_decoded_op_and_uops(void **state)
{
    struct fixture *f = *state;
    make_block(0);
    struct nbm_block_memo *memo = nbm_block_memo(&f->memos, &block);
    assert_non_null(memo);
    assert_int_equal(memo->n_known, 0);
    const struct nbm_block_insn *first[3], *again[3];
    run_block(f, memo, first);
    assert_int_equal(memo->n_known, 3);
    assert_ptr_equal(nbm_block_memo(&f->memos, &block), memo);
    run_block(f, memo, again);
    for (unsigned i = 0; i < 3; i++) {
        assert_ptr_equal(first[i], again[i]);
        assert_ptr_equal(first[i], &memo->insns[i]);
        struct nbm_op op = reference_op(f, i);
        assert_same_op(&first[i]->op, &op);
        struct nbm_shape shape;
        nbm_shape_of(&accesses[insns[i].first_access], insns[i].n_accesses, &op, &shape);
        assert_int_equal(first[i]->shape.n, shape.n);
        assert_memory_equal(first[i]->shape.role, shape.role, shape.n);
    }
    /* add [ebx],eax: its load first, its store-address/store-data pair last. */
    const struct nbm_shape *add = &first[1]->shape;
    assert_int_equal(add->n_load, 1);
    assert_int_equal(add->n_store, 1);
    assert_int_equal(add->load[0], 0);
    assert_int_equal(add->store[0], 1);
    assert_int_equal(add->role[0], NBM_ROLE_LOAD);
    assert_int_equal(add->role[add->n - 2], NBM_ROLE_STA);
    assert_int_equal(add->role[add->n - 1], NBM_ROLE_STD);
    assert_false(f->cache.replaced);
}

static void test_generic_op_without_code(void **state)
{
    struct fixture *f = *state;
    make_block(1);
    struct nbm_block_memo *memo = nbm_block_memo(&f->memos, &block);
    const struct nbm_block_insn *got;
    assert_int_equal(nbm_block_insn(memo, &block, 0, false, &f->cache, &got), DECODE_OK);
    struct nbm_op op;
    nbm_op_generic(0x1000, 2, TRACE_NOT_BRANCH, &op);
    assert_same_op(&got->op, &op);
    assert_int_equal(got->shape.n, 1);
    assert_int_equal(memo->n_known, 1);
}

/* The code at 0x1002 changes (block 3 has sub [ebx],eax there): from then
 * on every execution decodes again, so the cache holds, as the per-record
 * driver left it, the op of the code that ran last at each address. */
static void test_replaced_code_decodes_each_execution(void **state)
{
    struct fixture *f = *state;
    make_block(2);
    struct nbm_block_memo *old = nbm_block_memo(&f->memos, &block);
    const struct nbm_block_insn *got[3];
    run_block(f, old, got);
    static const uint8_t sub[] = {0x29, 0x03};
    make_block(3);
    memcpy(insns[1].bytes, sub, 2);
    struct nbm_block_memo *changed = nbm_block_memo(&f->memos, &block);
    const struct nbm_block_insn *one;
    assert_int_equal(nbm_block_insn(changed, &block, 0, true, &f->cache, &one), DECODE_OK);
    assert_false(f->cache.replaced);
    assert_int_equal(nbm_block_insn(changed, &block, 1, true, &f->cache, &one), DECODE_OK);
    assert_true(f->cache.replaced);
    assert_ptr_equal(one, &changed->decoded);
    assert_int_equal(changed->n_known, 1);
    struct nbm_op sub_op = reference_op(f, 1);
    assert_same_op(nbm_decode_lookup(&f->cache, 0x1002), &sub_op);
    assert_same_op(&one->op, &sub_op);
    make_block(2);
    assert_int_equal(nbm_block_insn(old, &block, 0, true, &f->cache, &one), DECODE_OK);
    assert_int_equal(nbm_block_insn(old, &block, 1, true, &f->cache, &one), DECODE_OK);
    assert_ptr_equal(one, &old->decoded);
    struct nbm_op add = reference_op(f, 1);
    assert_same_op(nbm_decode_lookup(&f->cache, 0x1002), &add);
    assert_same_op(&one->op, &add);
}

static void test_undecodable_fails_where_it_runs(void **state)
{
    struct fixture *f = *state;
    make_block(5);
    memset(insns[2].bytes, 0, sizeof insns[2].bytes);
    insns[2].bytes[0] = 0x0f; /* the first byte of a two-byte opcode alone */
    insns[2].length = 1;
    struct nbm_block_memo *memo = nbm_block_memo(&f->memos, &block);
    const struct nbm_block_insn *got;
    assert_int_equal(nbm_block_insn(memo, &block, 0, true, &f->cache, &got), DECODE_OK);
    assert_int_equal(nbm_block_insn(memo, &block, 1, true, &f->cache, &got), DECODE_OK);
    assert_int_not_equal(nbm_block_insn(memo, &block, 2, true, &f->cache, &got), DECODE_OK);
    assert_int_equal(memo->n_known, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_memo_gives_the_decoded_op_and_uops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_generic_op_without_code, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replaced_code_decodes_each_execution, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_undecodable_fails_where_it_runs, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
