/* SPDX-License-Identifier: MIT */
/* The kernel's maps and the engines' read into a dump (dump_maps.c). */
#ifndef SIDETRACE_READOUT_DUMP_MAPS_H
#define SIDETRACE_READOUT_DUMP_MAPS_H

#include "compile/compile.h"
#include "readout/dump.h"
#include "tracer/tracer.h"

/*
 * Every key of map map_id (all maps when -1), with its value, into d:
 * aggregations, slots, values, the engines' too. 0 or a negative errno.
 */
int st_dump_maps(const struct st_tracer *t, const struct st_compiled *c, int map_id,
		 struct dump *d);

#endif /* SIDETRACE_READOUT_DUMP_MAPS_H */
