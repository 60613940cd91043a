// SPDX-License-Identifier: MIT
/*
 * The shared-memory hash table (shm_hash.h). Every address is the
 * private geometry's: a bucket index is masked by g->nr_buckets - 1 and
 * every loop is bounded by it, so that words read from shared memory only
 * ever decide what to do, never where.
 *
 * An entry's seq is its seqlock and its owner's token at once: a writer
 * owns the entry by moving seq from even to odd with a compare-and-swap
 * and gives it back at the next even number. Keys and states change only
 * under the table's lock, so that an insert or a delete, which search and
 * then write, see a table no one else reshapes; an overwrite or a zeroing
 * only owns its entry.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "common/shm_hash.h"

/* The table's lock: its holder may have died, so never wait for ever. */
#define LOCK_TRIES 10000
/* An entry's owner copies a few hundred bytes, unless it was preempted or died. */
#define SEQ_TRIES 1000
/* Busy-waits before sched_yield(). */
#define SPIN_TRIES 64
/* Attempts of a zeroing whose entry changes under it. */
#define ZERO_TRIES 64

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

static void backoff(unsigned int n)
{
	if (n < SPIN_TRIES)
		cpu_relax();
	else
		sched_yield();
}

/*
 * After try *n of at most max failed: backs off and counts the try, or
 * false to give up (max tries made, or g's budget spent).
 */
static bool retry(const struct st_shm_hash_geom *g, unsigned int *n, unsigned int max)
{
	if (*n + 1 >= max ||
	    (g->budget && __atomic_sub_fetch(&g->budget->waits, 1, __ATOMIC_RELAXED) < 0))
		return false;
	backoff((*n)++);
	return true;
}

/* An operation given up for an owner that held on: counted in g's budget. */
static void gave_up(const struct st_shm_hash_geom *g)
{
	if (g->budget)
		__atomic_add_fetch(&g->budget->skipped, 1, __ATOMIC_RELAXED);
}

/* A 64x64-bit product, its two halves folded: every input bit reaches the middle ones. */
static inline uint64_t mul_fold(uint64_t a, uint64_t b)
{
	unsigned __int128 p = (unsigned __int128)a * b;

	return (uint64_t)p ^ (uint64_t)(p >> 64);
}

/*
 * Keys are whole words (st_shm_hash_geom_init()). Each 16 bytes are
 * multiplied apart and only summed, so the CPU overlaps the products: a
 * 72-byte key hashes in about a third of the time of one dependent chain
 * (PERFORMANCE.md, Part 11). Each 16 bytes have constants of their own,
 * so that two of them swapped make another sum, and a word of zeros no
 * zero product; the last step mixes the sum's bits.
 */
static uint64_t key_hash(const void *key, uint32_t size)
{
	const unsigned char *p = key;
	uint64_t h = size * 0xff51afd7ed558ccdULL, kw = 0x9e3779b97f4a7c15ULL,
		 kv = 0xc2b2ae3d27d4eb4fULL, w, v;
	uint32_t i;

	for (i = 0; i + 16 <= size; i += 16) {
		memcpy(&w, p + i, 8);
		memcpy(&v, p + i + 8, 8);
		h += mul_fold(w ^ kw, v ^ kv);
		kw += 0x165667b19e3779f9ULL;
		kv += 0xd6e8feb86659fd93ULL;
	}
	if (i < size) {
		memcpy(&w, p + i, 8);
		h += mul_fold(w ^ kw, kv);
	}
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}

bool st_shm_hash_geom_init(struct st_shm_hash_geom *g, uint32_t key_size, uint32_t value_size,
			   uint32_t nr_values, uint32_t max_entries)
{
	uint64_t buckets = 2, entry;

	memset(g, 0, sizeof(*g));
	if (!key_size || key_size % 8 || key_size > ST_KEY_MAX)
		return false;
	if (!value_size || value_size % 8 || !nr_values || !max_entries || max_entries > 1U << 30)
		return false;
	while (buckets < 2ULL * max_entries)
		buckets <<= 1;
	/* Factors below 2^32: the product fits 64 bits before the check. */
	entry = sizeof(struct st_shm_hash_entry) + key_size + (uint64_t)value_size * nr_values;
	if (entry > (ST_SHM_MAX_BYTES - sizeof(struct st_shm_hash)) / buckets)
		return false;
	g->key_size = key_size;
	g->value_size = value_size;
	g->nr_values = nr_values;
	g->max_entries = max_entries;
	g->nr_buckets = buckets;
	g->entry_size = entry;
	return true;
}

uint64_t st_shm_hash_size(const struct st_shm_hash_geom *g)
{
	return sizeof(struct st_shm_hash) + g->entry_size * g->nr_buckets;
}

void st_shm_hash_init(const struct st_shm_hash_geom *g, struct st_shm_hash *h)
{
	memset(h, 0, sizeof(*h));
	h->key_size = g->key_size;
	h->value_size = g->value_size;
	h->nr_values = g->nr_values;
	h->max_entries = g->max_entries;
	h->nr_buckets = g->nr_buckets;
	h->entry_size = g->entry_size;
}

bool st_shm_hash_check(const struct st_shm_hash_geom *g, const struct st_shm_hash *h)
{
	return h->key_size == g->key_size && h->value_size == g->value_size &&
	       h->nr_values == g->nr_values && h->max_entries == g->max_entries &&
	       h->nr_buckets == g->nr_buckets && h->entry_size == g->entry_size;
}

static struct st_shm_hash_entry *entry_at(const struct st_shm_hash_geom *g, struct st_shm_hash *h,
					  uint32_t b)
{
	return (void *)((char *)(h + 1) + (uint64_t)(b & (g->nr_buckets - 1)) * g->entry_size);
}

static uint64_t *key_words(struct st_shm_hash_entry *e)
{
	return (uint64_t *)(e + 1);
}

static uint64_t *value_words(const struct st_shm_hash_geom *g, struct st_shm_hash_entry *e)
{
	return (uint64_t *)((char *)(e + 1) + g->key_size);
}

static uint32_t state_at(const struct st_shm_hash_geom *g, struct st_shm_hash *h, uint32_t b)
{
	return __atomic_load_n(&entry_at(g, h, b)->state, __ATOMIC_RELAXED);
}

/* Shared words are read and written whole: the other side may race. */
static bool key_equal(const struct st_shm_hash_geom *g, struct st_shm_hash_entry *e,
		      const void *key)
{
	const uint64_t *k = key_words(e);
	uint32_t i;
	uint64_t w;

	for (i = 0; i < g->key_size / 8; i++) {
		memcpy(&w, (const char *)key + i * 8, 8);
		if (__atomic_load_n(&k[i], __ATOMIC_RELAXED) != w)
			return false;
	}
	return true;
}

static void words_out(uint64_t *dst, const void *src, uint64_t n)
{
	uint64_t i, w;

	for (i = 0; i < n; i++) {
		if (src)
			memcpy(&w, (const char *)src + i * 8, 8);
		else
			w = 0;
		__atomic_store_n(&dst[i], w, __ATOMIC_RELAXED);
	}
}

static void words_in(void *dst, const uint64_t *src, uint64_t n)
{
	uint64_t i, w;

	for (i = 0; i < n; i++) {
		w = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
		memcpy((char *)dst + i * 8, &w, 8);
	}
}

/*
 * Owns e if its seq is still seq, so that what the caller saw at seq still
 * holds. The odd seq is visible before any of the owner's stores.
 */
static bool own_at(struct st_shm_hash_entry *e, uint32_t seq)
{
	if (seq & 1)
		return false;
	if (!__atomic_compare_exchange_n(&e->seq, &seq, seq + 1, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return false;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	return true;
}

/* Owns e at whatever seq, waiting a bounded time for its owner. */
static bool own(const struct st_shm_hash_geom *g, struct st_shm_hash_entry *e, uint32_t *seq)
{
	unsigned int n = 0;
	uint32_t s;

	do {
		s = __atomic_load_n(&e->seq, __ATOMIC_RELAXED);
		if (own_at(e, s)) {
			*seq = s;
			return true;
		}
	} while (retry(g, &n, SEQ_TRIES));
	gave_up(g);
	return false;
}

static void disown(struct st_shm_hash_entry *e, uint32_t seq)
{
	__atomic_store_n(&e->seq, seq + 2, __ATOMIC_RELEASE);
}

/*
 * Reads e's state and whether it is LIVE with key, as of one even seq;
 * false if e stayed owned by someone too long.
 */
static bool snapshot(const struct st_shm_hash_geom *g, struct st_shm_hash_entry *e, const void *key,
		     uint32_t *seq, uint32_t *state, bool *match)
{
	unsigned int n = 0;
	uint32_t s;

	do {
		s = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);
		if (s & 1)
			continue;
		*state = __atomic_load_n(&e->state, __ATOMIC_RELAXED);
		*match = *state == ST_SHM_LIVE && key_equal(g, e, key);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&e->seq, __ATOMIC_RELAXED) == s) {
			*seq = s;
			return true;
		}
	} while (retry(g, &n, SEQ_TRIES));
	gave_up(g);
	return false;
}

/* find()'s answers besides a bucket. */
#define ABSENT -1
#define STUCK -2 /* an entry on the way stayed owned: don't know */

/* Lock-free: the bucket of key's LIVE entry as of *seq, ABSENT or STUCK. */
static int64_t find(const struct st_shm_hash_geom *g, struct st_shm_hash *h, const void *key,
		    uint32_t *seq)
{
	uint64_t hv = key_hash(key, g->key_size);
	uint32_t i, b, state;
	bool match;

	for (i = 0; i < g->nr_buckets; i++) {
		b = (hv + i) & (g->nr_buckets - 1);
		if (!snapshot(g, entry_at(g, h, b), key, seq, &state, &match))
			return STUCK;
		if (state == ST_SHM_EMPTY)
			return ABSENT;
		if (match)
			return b;
	}
	return ABSENT;
}

/*
 * Under the lock, where keys and states hold still: key's LIVE bucket in
 * *found, the first bucket an insert may take in *spare, or -1 each. A
 * state that is neither EMPTY nor LIVE is a tombstone.
 */
static void locked_find(const struct st_shm_hash_geom *g, struct st_shm_hash *h, const void *key,
			int64_t *found, int64_t *spare)
{
	uint64_t hv = key_hash(key, g->key_size);
	uint32_t i, b, state;

	*found = *spare = -1;
	for (i = 0; i < g->nr_buckets; i++) {
		b = (hv + i) & (g->nr_buckets - 1);
		state = state_at(g, h, b);
		if (state == ST_SHM_LIVE) {
			if (key_equal(g, entry_at(g, h, b), key)) {
				*found = b;
				return;
			}
			continue;
		}
		if (*spare < 0)
			*spare = b;
		if (state == ST_SHM_EMPTY)
			return;
	}
}

/* Holds the table's lock as this thread (its id in the word). */
static int lock_table(const struct st_shm_hash_geom *g, struct st_shm_hash *h, uint32_t *tid)
{
	uint32_t me = gettid(), owner;
	unsigned int n = 0;

	/* A signal handler that interrupted this thread's own insert. */
	if (__atomic_load_n(&h->lock, __ATOMIC_RELAXED) == me)
		return -EBUSY;
	do {
		owner = 0;
		if (__atomic_load_n(&h->lock, __ATOMIC_RELAXED))
			continue;
		if (__atomic_compare_exchange_n(&h->lock, &owner, me, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			*tid = me;
			return 0;
		}
	} while (retry(g, &n, LOCK_TRIES));
	gave_up(g);
	return -EBUSY;
}

static void unlock_table(struct st_shm_hash *h, uint32_t tid)
{
	/* Only if still ours: the other side may have written the word. */
	__atomic_compare_exchange_n(&h->lock, &tid, 0, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

/* Writes value number slot of e, which the caller owns. */
static void put_value(const struct st_shm_hash_geom *g, struct st_shm_hash_entry *e,
		      const void *value, uint32_t slot)
{
	uint64_t words = g->value_size / 8;

	words_out(value_words(g, e) + slot * words, value, words);
}

/* Under the lock: a new entry for key in bucket b, value in slot, zeros elsewhere. */
static int insert(const struct st_shm_hash_geom *g, struct st_shm_hash *h, uint32_t b,
		  const void *key, const void *value, uint32_t slot)
{
	struct st_shm_hash_entry *e = entry_at(g, h, b);
	uint32_t seq;

	if (!own(g, e, &seq))
		return -EBUSY;
	words_out(key_words(e), key, g->key_size / 8);
	words_out(value_words(g, e), NULL, (uint64_t)g->nr_values * (g->value_size / 8));
	put_value(g, e, value, slot);
	__atomic_store_n(&e->state, ST_SHM_LIVE, __ATOMIC_RELAXED);
	disown(e, seq);
	__atomic_store_n(&h->live, __atomic_load_n(&h->live, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
	return 0;
}

static int locked_update(const struct st_shm_hash_geom *g, struct st_shm_hash *h, const void *key,
			 const void *value, uint32_t slot, uint64_t flags)
{
	struct st_shm_hash_entry *e;
	int64_t found, spare;
	uint32_t seq;

	locked_find(g, h, key, &found, &spare);
	if (found >= 0) {
		if (flags == ST_SHM_NOEXIST)
			return -EEXIST;
		e = entry_at(g, h, found);
		if (!own(g, e, &seq))
			return -EBUSY;
		put_value(g, e, value, slot);
		disown(e, seq);
		return 0;
	}
	if (flags == ST_SHM_EXIST)
		return -ENOENT;
	if (__atomic_load_n(&h->live, __ATOMIC_RELAXED) >= g->max_entries || spare < 0)
		return -E2BIG;
	return insert(g, h, spare, key, value, slot);
}

void *st_shm_hash_lookup(const struct st_shm_hash_geom *g, struct st_shm_hash *h, const void *key,
			 uint32_t slot)
{
	uint32_t seq;
	int64_t b;

	if (slot >= g->nr_values)
		return NULL;
	b = find(g, h, key, &seq);
	if (b < 0)
		return NULL;
	return value_words(g, entry_at(g, h, b)) + (uint64_t)slot * (g->value_size / 8);
}

int st_shm_hash_update(const struct st_shm_hash_geom *g, struct st_shm_hash *h, const void *key,
		       const void *value, uint32_t slot, uint64_t flags)
{
	struct st_shm_hash_entry *e;
	uint32_t seq, tid;
	int64_t b;
	int err;

	if (slot >= g->nr_values || flags > ST_SHM_EXIST)
		return -EINVAL;
	/* An existing key needs no lock: owning its entry is enough. */
	b = find(g, h, key, &seq);
	if (b >= 0) {
		if (flags == ST_SHM_NOEXIST)
			return -EEXIST;
		e = entry_at(g, h, b);
		if (own_at(e, seq)) {
			put_value(g, e, value, slot);
			disown(e, seq);
			return 0;
		}
	}
	err = lock_table(g, h, &tid);
	if (err)
		return err;
	err = locked_update(g, h, key, value, slot, flags);
	unlock_table(h, tid);
	return err;
}

/*
 * Under the lock: bucket b's entry leaves. A tombstone followed by an
 * EMPTY bucket ends no probe chain, so b and the tombstones before it
 * become EMPTY while that holds: lookups of absent keys stay short however
 * many keys came and went.
 */
static int remove_at(const struct st_shm_hash_geom *g, struct st_shm_hash *h, uint32_t b)
{
	uint32_t mask = g->nr_buckets - 1, seq, live, state, n;
	struct st_shm_hash_entry *e = entry_at(g, h, b);

	if (!own(g, e, &seq))
		return -EBUSY;
	__atomic_store_n(&e->state, ST_SHM_DELETED, __ATOMIC_RELAXED);
	disown(e, seq);
	live = __atomic_load_n(&h->live, __ATOMIC_RELAXED);
	if (live)
		__atomic_store_n(&h->live, live - 1, __ATOMIC_RELAXED);
	for (n = 0; n < g->nr_buckets; n++, b = (b - 1) & mask) {
		state = state_at(g, h, b);
		if (state == ST_SHM_LIVE || state == ST_SHM_EMPTY)
			break;
		if (state_at(g, h, (b + 1) & mask) != ST_SHM_EMPTY)
			break;
		e = entry_at(g, h, b);
		if (!own(g, e, &seq))
			break;
		__atomic_store_n(&e->state, ST_SHM_EMPTY, __ATOMIC_RELAXED);
		disown(e, seq);
	}
	return 0;
}

int st_shm_hash_delete(const struct st_shm_hash_geom *g, struct st_shm_hash *h, const void *key)
{
	int64_t found, spare;
	uint32_t tid;
	int err;

	err = lock_table(g, h, &tid);
	if (err)
		return err;
	locked_find(g, h, key, &found, &spare);
	err = found < 0 ? -ENOENT : remove_at(g, h, found);
	unlock_table(h, tid);
	return err;
}

/* Copies e if it is LIVE, as of one even seq; false if not, or it never settled. */
static bool copy_entry(const struct st_shm_hash_geom *g, struct st_shm_hash_entry *e, void *key_out,
		       void *values_out)
{
	uint64_t nr_words = (uint64_t)g->nr_values * (g->value_size / 8);
	unsigned int n = 0;
	uint32_t s;

	do {
		s = __atomic_load_n(&e->seq, __ATOMIC_ACQUIRE);
		if (s & 1)
			continue;
		if (__atomic_load_n(&e->state, __ATOMIC_RELAXED) != ST_SHM_LIVE)
			return false;
		if (key_out)
			words_in(key_out, key_words(e), g->key_size / 8);
		if (values_out)
			words_in(values_out, value_words(g, e), nr_words);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&e->seq, __ATOMIC_RELAXED) == s)
			return true;
	} while (retry(g, &n, SEQ_TRIES));
	gave_up(g);
	return false;
}

bool st_shm_hash_next(const struct st_shm_hash_geom *g, struct st_shm_hash *h, uint32_t *pos,
		      void *key_out, void *values_out)
{
	uint32_t b;

	for (b = *pos; b < g->nr_buckets; b++) {
		if (copy_entry(g, entry_at(g, h, b), key_out, values_out)) {
			*pos = b + 1;
			return true;
		}
	}
	*pos = g->nr_buckets;
	return false;
}

int st_shm_hash_zero(const struct st_shm_hash_geom *g, struct st_shm_hash *h, const void *key)
{
	struct st_shm_hash_entry *e;
	unsigned int n = 0;
	uint32_t seq;
	int64_t b;

	do {
		b = find(g, h, key, &seq);
		/* Counted where it stuck. */
		if (b == STUCK)
			return -EBUSY;
		if (b < 0)
			return -ENOENT;
		e = entry_at(g, h, b);
		/* Owned at the seq it was found at: still key's entry. */
		if (own_at(e, seq)) {
			words_out(value_words(g, e), NULL,
				  (uint64_t)g->nr_values * (g->value_size / 8));
			disown(e, seq);
			return 0;
		}
	} while (retry(g, &n, ZERO_TRIES));
	gave_up(g);
	return -EBUSY;
}
