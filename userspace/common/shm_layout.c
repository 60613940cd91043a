// SPDX-License-Identifier: MIT
/*
 * Where each part of the in-process engine's shared memory lies
 * (st_shm_layout(), inproc_abi.h): the header, the counters, the flat
 * values, the three hashes and the ring, each aligned to 64 bytes so that
 * no part shares a cache line with the next one.
 */
#include <string.h>

#include "common/shm_layout.h"

#define PART_ALIGN 64ULL

bool st_shm_geoms(const struct st_shm_params *params, struct st_shm_hash_geom *aggr,
		  struct st_shm_hash_geom *compact, struct st_shm_hash_geom *values)
{
	return st_shm_hash_geom_init(aggr, params->key_size, sizeof(struct st_val),
				     params->nr_slots, params->aggr_entries) &&
	       st_shm_hash_geom_init(compact, params->compact_key_size, sizeof(struct st_val),
				     params->nr_slots, params->compact_entries) &&
	       st_shm_hash_geom_init(values, params->key_size, sizeof(struct st_value), 1,
				     params->values_entries);
}

/* Places a part of bytes at *at (its offset in *off); false past the limit. */
static bool place(uint64_t *at, uint64_t bytes, uint64_t *off)
{
	*off = *at;
	if (bytes > ST_SHM_MAX_BYTES - *at)
		return false;
	*at = (*at + bytes + PART_ALIGN - 1) & ~(PART_ALIGN - 1);
	return *at <= ST_SHM_MAX_BYTES;
}

/* a * b * unit bytes in *out; false past the limit (a, b below 2^32). */
static bool table_bytes(uint32_t a, uint32_t b, uint64_t unit, uint64_t *out)
{
	uint64_t n = (uint64_t)a * b;

	if (n > ST_SHM_MAX_BYTES / unit)
		return false;
	*out = n * unit;
	return true;
}

bool st_shm_layout(const struct st_shm_params *params, struct st_shm_layout *out)
{
	struct st_shm_hash_geom aggr, compact, values;
	uint64_t at = ST_SHM_HDR_SIZE, counters, flat, ring;

	memset(out, 0, sizeof(*out));
	if (!params->nr_slots || !params->nr_probes ||
	    !st_shm_geoms(params, &aggr, &compact, &values))
		return false;
	ring = st_shm_ring_bytes(params->ring_size);
	if (!ring)
		return false;
	if (!table_bytes(params->nr_slots, params->nr_probes, ST_NR_COUNTERS * sizeof(uint64_t),
			 &counters) ||
	    !table_bytes(params->nr_slots, params->nr_flat, sizeof(struct st_val), &flat))
		return false;
	if (!place(&at, counters, &out->counters) || !place(&at, flat, &out->flat) ||
	    !place(&at, st_shm_hash_size(&aggr), &out->aggr) ||
	    !place(&at, st_shm_hash_size(&compact), &out->compact) ||
	    !place(&at, st_shm_hash_size(&values), &out->values) || !place(&at, ring, &out->ring)) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	out->size = at;
	return true;
}
