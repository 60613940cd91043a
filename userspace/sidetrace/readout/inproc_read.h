/* SPDX-License-Identifier: MIT */
/*
 * The in-process engines' counts, for the readers of the kernel's maps
 * (inproc_read.c). ip is the list of the session's processes; NULL: none,
 * nothing added. Per-CPU values come process after process.
 */
#ifndef SIDETRACE_READOUT_INPROC_READ_H
#define SIDETRACE_READOUT_INPROC_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "inproc/inproc.h"

/* CPU slots of each per-CPU value, over every process: 0 without one. */
uint32_t st_inproc_nr_slots(const struct st_inproc *ip);

/* st_flat slot's values, one per CPU slot, into out[st_inproc_nr_slots()]. */
void st_inproc_flat(const struct st_inproc *ip, uint32_t slot, struct st_val *out);

/* Zeroes st_flat slot; true if it had counted something. */
bool st_inproc_flat_zero(const struct st_inproc *ip, uint32_t slot);

/* Adds the per-probe counters (st_counters' layout) to totals[nr]. */
void st_inproc_counters(const struct st_inproc *ip, uint64_t *totals, uint32_t nr);

/*
 * Calls fn for each key of map map_id (all: -1) of the list's processes,
 * aggregations with their value over CPU slots, then with values also
 * the plain values (plain, value: its struct st_value), until fn fails.
 * A key that names what its process may not (another pid, a stack, a
 * literal outside its objects) is left out and counted. 0 or -errno.
 */
int st_inproc_each_key(const struct st_inproc *ip, const struct st_compiled *c, int map_id,
		       bool values,
		       int (*fn)(void *ctx, const uint8_t *key, const struct st_val *val,
				 bool plain, const void *value),
		       void *ctx);

/* clear() (zero false: the keys go) or zero() of map map_id (all: -1). 0 or -errno. */
int st_inproc_reset_keys(const struct st_inproc *ip, const struct st_compiled *c, int map_id,
			 bool zero);

/*
 * Hands each record in each process's ring to cb, in order, with its
 * process: data is in memory that process can write (st_shm_ring_consume()).
 * cb returns 0 to go on, -EAGAIN to leave the rest of that ring to a
 * later call (the next process then), another negative errno to stop
 * (returned). 0 or that errno.
 */
int st_inproc_consume(const struct st_inproc *ip,
		      int (*cb)(void *ctx, const struct st_inproc *ip, const void *data,
				uint32_t len),
		      void *ctx);

/* Map mc's element at key: its values per CPU slot into out[st_inproc_nr_slots()]. */
void st_inproc_elem_agg(const struct st_inproc *ip, const struct st_map_cfg *mc, const void *key,
			struct st_val *out);

/* The plain value at key into *out; false when there is none. */
bool st_inproc_elem_value(const struct st_inproc *ip, const void *key, struct st_value *out);

/* Stores a plain value at key. 0 or a negative errno. */
int st_inproc_elem_write(const struct st_inproc *ip, const void *key, const struct st_value *v);

/* Deletes key from the plain values or the aggregations; whether some engine had it. */
bool st_inproc_elem_delete(const struct st_inproc *ip, bool plain, const void *key);

/*
 * Tells, per process, what reading its memory left out (st_inproc_tally),
 * counted at every read of the maps.
 */
void st_inproc_report(const struct st_inproc *ip);

#endif /* SIDETRACE_READOUT_INPROC_READ_H */
