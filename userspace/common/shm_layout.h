/* SPDX-License-Identifier: MIT */
/*
 * The in-process engine's shared memory as both sides size it: the three
 * hash tables' geometries from the program's st_shm_params, in one place
 * so that the collector that makes the memory and the engine that maps it
 * agree. st_shm_layout() itself is declared in inproc_abi.h.
 */
#ifndef SIDETRACE_SHM_LAYOUT_H
#define SIDETRACE_SHM_LAYOUT_H

#include <stdbool.h>

#include "common/inproc_abi.h"
#include "common/shm_hash.h"
#include "common/shm_ring.h"

/*
 * The aggregation hashes' geometries, of whole and of compact keys (a
 * struct st_val per slot, nr_slots slots), and the plain-value hash's
 * (one struct st_value); false when one is impossible.
 */
bool st_shm_geoms(const struct st_shm_params *params, struct st_shm_hash_geom *aggr,
		  struct st_shm_hash_geom *compact, struct st_shm_hash_geom *values);

#endif /* SIDETRACE_SHM_LAYOUT_H */
