/* SPDX-License-Identifier: MIT */
/*
 * A hash table in shared memory with the semantics a BPF program sees of
 * BPF_MAP_TYPE_HASH and BPF_MAP_TYPE_PERCPU_HASH: the in-process engine's
 * keyed maps. The application's threads look up (lock-free), insert and
 * delete; the collector, another process, iterates and zeroes.
 *
 * The other process may write anything into the table at any time, so
 * every address is computed from the caller's private geometry (struct
 * st_shm_hash_geom), never from a word read from shared memory: garbage
 * can make an operation fail or return wrong data, never reach outside.
 *
 * Open addressing, linear probing. An entry is a seqlock word (odd while
 * someone owns the entry: an insert, a delete, an overwrite, a zeroing),
 * a state, the key, then nr_values values. Keys and states change only
 * under the table's lock (inserts and deletes) and while owning the entry;
 * values are written by their owner or, through a looked-up pointer, with
 * atomic operations by the caller.
 */
#ifndef SIDETRACE_SHM_HASH_H
#define SIDETRACE_SHM_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sidetrace.h"

/* Update flags, as BPF's. */
#define ST_SHM_ANY 0 /* BPF_ANY */
#define ST_SHM_NOEXIST 1 /* BPF_NOEXIST */
#define ST_SHM_EXIST 2 /* BPF_EXIST */

/* Nothing in shared memory is larger: the layout's own limit. */
#define ST_SHM_MAX_BYTES (1ULL << 40)

/*
 * How long a caller waits for entries the other side owns, over many
 * operations (the collector's reads of one process): each wait for an
 * owner is bounded anyway, but an other side that owns every entry would
 * cost each of them that bound.
 */
struct st_shm_budget {
	/* Back-off rounds left (the caller sets it); once none, one try each. */
	int64_t waits;
	/* Operations given up for an owner that kept an entry or the lock. */
	uint64_t skipped;
};

/* The caller's own copy of a table's shape: the only source of addresses. */
struct st_shm_hash_geom {
	uint32_t key_size; /* bytes, a multiple of 8, at most ST_KEY_MAX */
	uint32_t value_size; /* bytes, a multiple of 8 */
	uint32_t nr_values; /* values per entry: CPU slots, or 1 */
	uint32_t max_entries; /* live keys */
	uint32_t nr_buckets; /* a power of 2, at least 2 * max_entries */
	uint32_t reserved;
	uint64_t entry_size; /* struct st_shm_hash_entry, key, values */
	/* The caller's waits, shared by its tables; NULL (as made): each wait alone. */
	struct st_shm_budget *budget;
};

/* The table's header in shared memory; its entries follow. */
struct st_shm_hash {
	/* The geometry it was made with, for the other side to check. */
	uint32_t key_size;
	uint32_t value_size;
	uint32_t nr_values;
	uint32_t max_entries;
	uint32_t nr_buckets;
	uint32_t live; /* LIVE entries */
	uint32_t lock; /* the owner's thread id, 0 when free */
	uint32_t reserved;
	uint64_t entry_size;
	uint64_t pad[3];
};

_Static_assert(sizeof(struct st_shm_hash) == 64, "hash header size");

enum st_shm_entry_state {
	ST_SHM_EMPTY, /* never used since the chain ended here */
	ST_SHM_LIVE,
	ST_SHM_DELETED, /* a tombstone: probing goes on, an insert reuses it */
};

/* An entry: this, the key, then nr_values values of value_size bytes. */
struct st_shm_hash_entry {
	uint32_t seq; /* odd while owned */
	uint32_t state; /* enum st_shm_entry_state */
};

/*
 * Fills g; false when a size is 0, not a multiple of 8, a key is larger
 * than ST_KEY_MAX, or the table would exceed ST_SHM_MAX_BYTES.
 */
bool st_shm_hash_geom_init(struct st_shm_hash_geom *g, uint32_t key_size, uint32_t value_size,
			   uint32_t nr_values, uint32_t max_entries);

/* Bytes the table takes: the header and every bucket. */
uint64_t st_shm_hash_size(const struct st_shm_hash_geom *g);

/* Writes the header into zeroed memory of st_shm_hash_size() bytes. */
void st_shm_hash_init(const struct st_shm_hash_geom *g, struct st_shm_hash *h);

/* Whether the header in memory is the one st_shm_hash_init() wrote for g. */
bool st_shm_hash_check(const struct st_shm_hash_geom *g, const struct st_shm_hash *h);

/*
 * Value number slot of key's LIVE entry, or NULL (absent, slot out of
 * range, or the entry stayed owned by someone else too long). Lock-free.
 * The pointer stays valid memory for the table's life; its entry may be
 * deleted and reused meanwhile, as a BPF program's pointer may.
 */
void *st_shm_hash_lookup(const struct st_shm_hash_geom *g, struct st_shm_hash *h, const void *key,
			 uint32_t slot);

/*
 * BPF's update with flags ST_SHM_ANY, NOEXIST or EXIST: a new entry gets
 * value in value slot and zeros in the others, an existing one gets value
 * slot overwritten. 0, -EEXIST, -ENOENT, -E2BIG (max_entries live keys),
 * -EBUSY (the lock held by this thread, or too long by another), -EINVAL.
 */
int st_shm_hash_update(const struct st_shm_hash_geom *g, struct st_shm_hash *h, const void *key,
		       const void *value, uint32_t slot, uint64_t flags);

/* Deletes key's entry, from either side: 0, -ENOENT or -EBUSY. */
int st_shm_hash_delete(const struct st_shm_hash_geom *g, struct st_shm_hash *h, const void *key);

/*
 * The reader's iteration: copies the next LIVE entry at or after bucket
 * *pos, its key and all its values, as one consistent state, and sets
 * *pos past it. False at the end. An entry that never stays still long
 * enough to copy is skipped.
 */
bool st_shm_hash_next(const struct st_shm_hash_geom *g, struct st_shm_hash *h, uint32_t *pos,
		      void *key_out, void *values_out);

/* Zeroes every value of key's entry in place: 0, -ENOENT or -EBUSY. */
int st_shm_hash_zero(const struct st_shm_hash_geom *g, struct st_shm_hash *h, const void *key);

#endif /* SIDETRACE_SHM_HASH_H */
