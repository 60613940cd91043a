/* SPDX-License-Identifier: MIT */
/*
 * One element of a map from user space, as BEGIN, END and interval clauses
 * read, assign and delete it: the key built from typed values with the
 * layout the compile step chose, the value read from whichever BPF map
 * holds it (st_values, st_aggr, st_flat).
 */
#ifndef SIDETRACE_READOUT_MAP_ACCESS_H
#define SIDETRACE_READOUT_MAP_ACCESS_H

#include "compile/compile.h"
#include "output/maps_print.h"
#include "tracer/tracer.h"

/* A map element's value: an integer, or a string (ST_MAPF_STR). */
struct st_elem_val {
	int64_t i;
	char s[ST_STR_LEN];
	bool missing; /* a plain value's key was not there (-kk's failed lookup) */
};

/*
 * Reads map m at keys (its nr_keys typed values): a plain value, or the
 * aggregation's scalar (count, sum, min, max, avg). A missing key reads 0
 * or "". 0 or a negative errno.
 */
int st_elem_read(const struct st_tracer *t, const struct st_compiled *c, uint32_t m,
		 const struct st_key_val *keys, struct st_elem_val *out);

/* Stores a plain value: @m[k] = v in user space. */
int st_elem_write(const struct st_tracer *t, const struct st_compiled *c, uint32_t m,
		  const struct st_key_val *keys, const struct st_elem_val *v);

/*
 * @m[k] = agg(v) in user space (count() takes v = 0): aggregated by the
 * kernel into the running CPU's value, as a probe does (bpf/user.bpf.h).
 * 0; -E2BIG when the map is full; another negative errno: the kernel's.
 */
int st_elem_aggregate(const struct st_tracer *t, const struct st_compiled *c, uint32_t m,
		      const struct st_key_val *keys, int64_t v);

/*
 * delete(@m[k]) in user space: 0, or -ENOENT when no map had the key,
 * which -k reports and nothing else minds.
 */
int st_elem_delete(const struct st_tracer *t, const struct st_compiled *c, uint32_t m,
		   const struct st_key_val *keys);

#endif /* SIDETRACE_READOUT_MAP_ACCESS_H */
