/* SPDX-License-Identifier: MIT */
/*
 * Reading the kernel's aggregations into the printer's plain structures
 * (output.h), and clear()/zero() of maps. Per-CPU values are combined here.
 */
#ifndef SIDETRACE_READOUT_AGGREGATIONS_H
#define SIDETRACE_READOUT_AGGREGATIONS_H

#include "parse/ast.h"
#include "compile/compile.h"
#include "tracer/tracer.h"
#include "output/maps_print.h"

/* A set of read maps; owns every entry, key and string it points to. */
struct st_maps_snapshot {
	struct st_map_result *maps;
	size_t nr_maps;
};

/*
 * Reads map map_id of prog (or every map when map_id is -1) into snap.
 * Returns 0 or a negative errno.
 */
int st_maps_read(const struct st_tracer *t, const struct st_program *prog,
		 const struct st_compiled *c, int map_id, struct st_maps_snapshot *snap);

void st_maps_snapshot_free(struct st_maps_snapshot *snap);

/* clear(@m): removes every key of map map_id (dump_maps.c). 0 or a negative errno. */
int st_maps_clear(const struct st_tracer *t, const struct st_compiled *c, int map_id);

/* zero(@m): keeps the keys of map map_id, with zero values. */
int st_maps_zero(const struct st_tracer *t, const struct st_compiled *c, int map_id);

#endif /* SIDETRACE_READOUT_AGGREGATIONS_H */
