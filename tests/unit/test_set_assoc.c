/* The set-associative LRU array of both timing models
 * (sim/common/set_assoc.h): sets by the key's low bits, entries that stay
 * where they were put, exact LRU replacement (an empty way first), dirty
 * bits, state and data, peeking without touching the order, every 64-bit
 * key (0 and UINT64_MAX too) told from an empty way; and, over a long
 * random run, the same hits and victims as a most-recently-used-first
 * list per set (the textbook LRU). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/common/set_assoc.h"

static struct set_assoc make(uint32_t entries, uint32_t ways, uint32_t block_bytes)
{
    struct set_assoc c;
    assert_true(set_assoc_init(&c, entries, ways, block_bytes));
    return c;
}

/* Inserts `key` (absent) and checks what it evicted: `evicted` + 1 (there
 * before, gone after), or 0 for an empty way (every key there before
 * still there). */
static long insert_evicting(struct set_assoc *c, uint64_t key, uint64_t evicted_plus_1)
{
    long held[64];
    uint32_t first = (uint32_t)(key & c->set_mask) * c->ways;
    assert_true(c->ways <= 64);
    for (uint32_t w = 0; w < c->ways; w++)
        held[w] = c->stamps[first + w] ? set_assoc_peek(c, c->keys[first + w]) : -1;
    if (evicted_plus_1)
        assert_true(set_assoc_peek(c, evicted_plus_1 - 1) >= 0);
    struct set_assoc_victim victim;
    long i = set_assoc_insert(c, key, &victim);
    if (evicted_plus_1)
        assert_int_equal(set_assoc_peek(c, evicted_plus_1 - 1), -1);
    else
        assert_int_equal(held[i - first], -1); /* the way was empty */
    assert_int_equal(set_assoc_peek(c, key), i);
    return i;
}

static void test_sets_are_the_low_bits(void **state)
{
    (void)state;
    struct set_assoc c = make(8, 2, 1); /* 4 sets of 2 ways */
    assert_int_equal(insert_evicting(&c, 0x10, 0), 0);   /* set 0, way 0 */
    assert_int_equal(insert_evicting(&c, 0x11, 0), 2);   /* set 1 */
    assert_int_equal(insert_evicting(&c, 0x13, 0), 6);   /* set 3 */
    assert_int_equal(insert_evicting(&c, 0x21, 0), 3);   /* set 1, way 1 */
    assert_int_equal(insert_evicting(&c, 0x31, 0x12), 2); /* set 1 full: 0x11 goes */
    assert_int_equal(set_assoc_find(&c, 0x10), 0);
    assert_int_equal(set_assoc_find(&c, 0x13), 6);
    assert_int_equal(set_assoc_find(&c, 0x21), 3);
    assert_int_equal(set_assoc_find(&c, 0x31), 2);
    assert_int_equal(set_assoc_find(&c, 0x11), -1);
    assert_int_equal(set_assoc_find(&c, 0x12), -1);
    set_assoc_free(&c);
}

static void test_block_is_the_address_shifted(void **state)
{
    (void)state;
    struct set_assoc c = make(4, 1, 32);
    assert_int_equal(c.block_shift, 5);
    assert_int_equal(set_assoc_block(&c, 0x1234), 0x91);
    assert_int_equal(set_assoc_block(&c, 0x1f), 0);
    set_assoc_free(&c);
    c = make(4, 1, 1);
    assert_int_equal(set_assoc_block(&c, 0x1234), 0x1234);
    set_assoc_free(&c);
}

/* One set of four ways: the empty ways are taken in order, then each
 * insert evicts the least recently found or inserted key. */
static void test_the_least_recently_used_is_evicted(void **state)
{
    (void)state;
    struct set_assoc c = make(4, 4, 1);
    for (uint64_t key = 10; key < 14; key++)
        assert_int_equal(insert_evicting(&c, key, 0), (long)(key - 10));
    /* order, most recent first: 13 12 11 10 */
    assert_int_equal(set_assoc_find(&c, 10), 0);  /* 10 13 12 11 */
    assert_int_equal(set_assoc_find(&c, 12), 2);  /* 12 10 13 11 */
    assert_int_equal(insert_evicting(&c, 14, 12), 1); /* 11 goes: 14 12 10 13 */
    assert_int_equal(insert_evicting(&c, 15, 14), 3); /* 13 goes: 15 14 12 10 */
    assert_int_equal(set_assoc_find(&c, 10), 0);  /* 10 15 14 12 */
    assert_int_equal(insert_evicting(&c, 16, 13), 2); /* 12 goes: 16 10 15 14 */
    assert_int_equal(insert_evicting(&c, 17, 15), 1); /* 14 goes: 17 16 10 15 */
    assert_int_equal(insert_evicting(&c, 18, 16), 3); /* 15 goes: 18 17 16 10 */
    assert_int_equal(set_assoc_peek(&c, 10), 0);
    assert_int_equal(set_assoc_peek(&c, 17), 1);
    assert_int_equal(set_assoc_peek(&c, 16), 2);
    assert_int_equal(set_assoc_peek(&c, 18), 3);
    assert_int_equal(set_assoc_peek(&c, 15), -1);
    set_assoc_free(&c);
}

/* Two keys found in turn (the shortcut of the entry found before the last)
 * and a miss: each find makes its key the most recent, a miss nothing. */
static void test_alternating_finds_keep_the_order(void **state)
{
    (void)state;
    struct set_assoc c = make(3, 3, 1);
    insert_evicting(&c, 1, 0);
    insert_evicting(&c, 2, 0);
    insert_evicting(&c, 3, 0);                   /* 3 2 1 */
    assert_int_equal(set_assoc_find(&c, 2), 1);  /* 2 3 1 */
    assert_int_equal(set_assoc_find(&c, 3), 2);  /* 3 2 1 */
    assert_int_equal(set_assoc_find(&c, 1), 0);  /* 1 3 2 */
    assert_int_equal(set_assoc_find(&c, 3), 2);  /* 3 1 2 */
    assert_int_equal(set_assoc_find(&c, 9), -1); /* absent: the order stays */
    assert_int_equal(set_assoc_find(&c, 3), 2);  /* the most recent again */
    assert_int_equal(insert_evicting(&c, 4, 3), 1);
    assert_int_equal(insert_evicting(&c, 5, 2), 0);
    assert_int_equal(insert_evicting(&c, 6, 4), 2);
    set_assoc_free(&c);
}

static void test_peek_leaves_the_order(void **state)
{
    (void)state;
    struct set_assoc c = make(2, 2, 1);
    insert_evicting(&c, 7, 0);
    insert_evicting(&c, 8, 0);
    assert_int_equal(set_assoc_peek(&c, 7), 0);
    assert_int_equal(set_assoc_peek(&c, 8), 1);
    assert_int_equal(set_assoc_peek(&c, 9), -1);
    assert_int_equal(insert_evicting(&c, 9, 8), 0); /* 7, peeked, still the least recent */
    assert_int_equal(set_assoc_find(&c, 8), 1);
    assert_int_equal(insert_evicting(&c, 10, 10), 0); /* a find does move it: 9 goes */
    set_assoc_free(&c);
}

/* An entry's dirty bit, state and data are its own until it is evicted;
 * the victim says whether it was dirty; a new entry starts clean, 0, 0. */
static void test_dirty_state_and_data_stay_with_the_entry(void **state)
{
    (void)state;
    struct set_assoc c = make(4, 2, 1); /* 2 sets */
    long a = insert_evicting(&c, 0x20, 0);
    long b = insert_evicting(&c, 0x22, 0);
    long d = insert_evicting(&c, 0x21, 0);
    assert_int_equal(a, 0);
    assert_int_equal(b, 1);
    assert_int_equal(d, 2);
    c.dirty[a] = true;
    c.state[a] = 3;
    c.data[a] = 0x401000;
    c.state[b] = 0xff;
    assert_int_equal(set_assoc_find(&c, 0x21), d);
    assert_int_equal(set_assoc_find(&c, 0x22), b);
    assert_int_equal(set_assoc_find(&c, 0x20), a);
    assert_true(c.dirty[a]);
    assert_int_equal(c.state[a], 3);
    assert_int_equal(c.data[a], 0x401000);
    assert_false(c.dirty[b]);
    assert_int_equal(c.state[b], 0xff);

    struct set_assoc_victim victim;
    assert_int_equal(set_assoc_insert(&c, 0x24, &victim), b); /* 0x22: clean */
    assert_false(victim.dirty);
    assert_int_equal(set_assoc_peek(&c, 0x22), -1);
    assert_int_equal(c.state[b], 0);
    assert_int_equal(set_assoc_insert(&c, 0x26, &victim), a); /* 0x20: dirty */
    assert_true(victim.dirty);
    assert_int_equal(set_assoc_peek(&c, 0x20), -1);
    assert_false(c.dirty[a]);
    assert_int_equal(c.state[a], 0);
    assert_int_equal(c.data[a], 0);
    assert_int_equal(set_assoc_insert(&c, 0x23, &victim), 3); /* set 1's empty way */
    assert_false(victim.dirty);
    assert_int_equal(set_assoc_insert(&c, 0x25, NULL), 2);
    set_assoc_free(&c);
}

/* Every 64-bit value is a key, none an empty way: in an empty cache each
 * misses (the shortcuts of the last entries found included); 0 and
 * UINT64_MAX are found once put in, and only then; a direct-mapped entry
 * put in again stops answering for its old key. */
static void test_every_key_is_a_key(void **state)
{
    (void)state;
    const uint64_t edge[] = {0, 1, UINT64_MAX, UINT64_MAX - 1, 1ull << 63};
    enum { EDGES = sizeof edge / sizeof edge[0] };
    struct set_assoc c = make(8, 2, 1);
    for (int k = 0; k < EDGES; k++) {
        assert_int_equal(set_assoc_find(&c, edge[k]), -1);
        assert_int_equal(set_assoc_peek(&c, edge[k]), -1);
    }
    long max = insert_evicting(&c, UINT64_MAX, 0);
    assert_int_equal(max, 6); /* set 3, way 0 */
    assert_int_equal(set_assoc_find(&c, UINT64_MAX), max);
    assert_int_equal(set_assoc_find(&c, UINT64_MAX - 4), -1); /* set 3's empty way */
    assert_int_equal(set_assoc_find(&c, 0), -1);
    long zero = insert_evicting(&c, 0, 0);
    assert_int_equal(zero, 0);
    assert_int_equal(set_assoc_find(&c, 0), zero);
    assert_int_equal(set_assoc_find(&c, UINT64_MAX), max);
    assert_int_equal(set_assoc_find(&c, 8), -1); /* set 0's empty way holds nothing */
    assert_int_equal(set_assoc_peek(&c, 8), -1);
    for (int k = 0; k < EDGES; k++)
        assert_int_equal(set_assoc_peek(&c, edge[k]) >= 0, edge[k] == 0 || edge[k] == UINT64_MAX);
    set_assoc_free(&c);

    /* Direct-mapped: the entry found last, put in again with another key. */
    c = make(4, 1, 1);
    assert_int_equal(insert_evicting(&c, 5, 0), 1);
    assert_int_equal(set_assoc_find(&c, 5), 1);
    assert_int_equal(insert_evicting(&c, 9, 6), 1);
    assert_int_equal(set_assoc_find(&c, 5), -1);
    assert_int_equal(set_assoc_find(&c, 9), 1);
    assert_int_equal(insert_evicting(&c, 2, 0), 2);
    assert_int_equal(set_assoc_find(&c, 9), 1);
    assert_int_equal(insert_evicting(&c, 13, 10), 1);
    assert_int_equal(set_assoc_find(&c, 9), -1); /* the shortcut's entry holds 13 now */
    assert_int_equal(set_assoc_find(&c, 2), 2);
    assert_int_equal(set_assoc_find(&c, 9), -1);
    set_assoc_free(&c);
}

/* ---- against the textbook LRU: per set, its keys most recent first. */

enum { SETS = 4, WAYS = 4, KEYS = 40, STEPS = 200000 };

struct reference {
    uint64_t keys[SETS][WAYS]; /* key + 1, most recent first; 0 empty */
    bool dirty[SETS][WAYS];
};

/* The way of `key` in its set (moved to the front when `touch`), or -1. */
static int reference_find(struct reference *r, uint64_t key, bool touch)
{
    uint64_t *set = r->keys[key % SETS];
    bool *dirty = r->dirty[key % SETS];
    for (int w = 0; w < WAYS; w++) {
        if (set[w] != key + 1)
            continue;
        if (!touch)
            return w;
        bool d = dirty[w];
        memmove(&set[1], &set[0], (size_t)w * sizeof *set);
        memmove(&dirty[1], &dirty[0], (size_t)w * sizeof *dirty);
        set[0] = key + 1;
        dirty[0] = d;
        return 0;
    }
    return -1;
}

/* What the reference evicted. */
struct reference_victim {
    bool valid; /* false: an empty way */
    bool dirty;
    uint64_t key;
};

static struct reference_victim reference_insert(struct reference *r, uint64_t key)
{
    uint64_t *set = r->keys[key % SETS];
    bool *dirty = r->dirty[key % SETS];
    struct reference_victim victim = {set[WAYS - 1] != 0, dirty[WAYS - 1], set[WAYS - 1] - 1};
    memmove(&set[1], &set[0], (WAYS - 1) * sizeof *set);
    memmove(&dirty[1], &dirty[0], (WAYS - 1) * sizeof *dirty);
    set[0] = key + 1;
    dirty[0] = false;
    return victim;
}

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void test_same_as_the_textbook_lru(void **state)
{
    (void)state;
    struct set_assoc c = make(SETS * WAYS, WAYS, 1);
    struct reference r;
    memset(&r, 0, sizeof r);
    uint64_t x = 0x9e3779b97f4a7c15ull;
    uint64_t hits = 0, dirty_victims = 0;
    for (int step = 0; step < STEPS; step++) {
        /* a few hot keys, so that the shortcuts and the sets both work */
        uint64_t random = next_random(&x);
        uint64_t key = random % 4 < 2 ? random % 3 : (random >> 8) % KEYS;
        if ((random >> 32) % 8 == 0) {
            long i = set_assoc_peek(&c, key);
            assert_int_equal(i >= 0, reference_find(&r, key, false) >= 0);
            continue;
        }
        long i = set_assoc_find(&c, key);
        int way = reference_find(&r, key, true);
        assert_int_equal(i >= 0, way >= 0);
        if (i < 0) {
            struct reference_victim want = reference_insert(&r, key);
            struct set_assoc_victim got;
            i = set_assoc_insert(&c, key, &got);
            assert_int_equal(got.dirty, want.valid && want.dirty);
            if (want.valid) {
                assert_int_equal(set_assoc_peek(&c, want.key), -1);
                dirty_victims += want.dirty;
            }
        } else {
            hits++;
        }
        if ((random >> 40) % 3 == 0) { /* a write */
            c.dirty[i] = true;
            r.dirty[key % SETS][0] = true;
        }
    }
    /* the run tried both outcomes plenty of times */
    assert_in_range(hits, STEPS / 4, STEPS - STEPS / 4);
    assert_true(dirty_victims > 1000);
    set_assoc_free(&c);
}

/* Whether a and b (same geometry) hold the same entries, LRU order and
 * shortcuts. */
static void assert_same_arrays(const struct set_assoc *a, const struct set_assoc *b)
{
    uint32_t entries = (uint32_t)(a->set_mask + 1) * a->ways;
    assert_memory_equal(a->keys, b->keys, entries * sizeof *a->keys);
    assert_memory_equal(a->stamps, b->stamps, entries * sizeof *a->stamps);
    assert_int_equal(a->mru, b->mru);
    assert_int_equal(a->previous, b->previous);
    assert_int_equal(a->mru_key, b->mru_key);
    assert_int_equal(a->clock, b->clock);
}

/* set_assoc_find_from() against set_assoc_find() on twin arrays: the same
 * answers and the same state after every look-up, whatever entry the
 * remembered ones name (right, stale, an empty way, another set's); key
 * 0 in an empty array too. */
static void test_find_from_is_find(void **state)
{
    (void)state;
    struct set_assoc a = make(SETS * WAYS, WAYS, 1), b = make(SETS * WAYS, WAYS, 1);
    enum { LOOK_UPS = 16 };
    uint32_t last[LOOK_UPS] = {0};
    uint32_t zero = 0;
    assert_int_equal(set_assoc_find_from(&b, 0, &zero), set_assoc_find(&a, 0));
    assert_same_arrays(&a, &b);
    uint64_t x = 0x2545f4914f6cdd1dull;
    uint64_t remembered = 0;
    for (int step = 0; step < STEPS; step++) {
        uint64_t random = next_random(&x);
        /* each look-up mostly the same key, sometimes another */
        unsigned look_up = (unsigned)(random % LOOK_UPS);
        uint64_t key = (random >> 8) % 8 ? look_up * 3 % KEYS : (random >> 16) % KEYS;
        if ((random >> 32) % 64 == 0)
            last[look_up] = (uint32_t)((random >> 40) % (SETS * WAYS));
        uint32_t before = last[look_up];
        long want = set_assoc_find(&a, key);
        long got = set_assoc_find_from(&b, key, &last[look_up]);
        assert_int_equal(got, want);
        remembered += got >= 0 && got != a.previous && before == (uint32_t)got;
        assert_same_arrays(&a, &b);
        if (want < 0) {
            assert_int_equal(set_assoc_insert(&b, key, NULL), set_assoc_insert(&a, key, NULL));
            assert_same_arrays(&a, &b);
        }
    }
    /* the remembered entry answered often, beyond the two shortcuts */
    assert_true(remembered > STEPS / 10);
    set_assoc_free(&a);
    set_assoc_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sets_are_the_low_bits),
        cmocka_unit_test(test_block_is_the_address_shifted),
        cmocka_unit_test(test_the_least_recently_used_is_evicted),
        cmocka_unit_test(test_every_key_is_a_key),
        cmocka_unit_test(test_alternating_finds_keep_the_order),
        cmocka_unit_test(test_peek_leaves_the_order),
        cmocka_unit_test(test_dirty_state_and_data_stay_with_the_entry),
        cmocka_unit_test(test_same_as_the_textbook_lru),
        cmocka_unit_test(test_find_from_is_find),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
