/* SPDX-License-Identifier: MIT */
/* Maps of whole values: their leaves' maps joined into them (wholes.c). */
#ifndef SIDETRACE_READOUT_WHOLES_H
#define SIDETRACE_READOUT_WHOLES_H

#include "readout/aggregations.h"

/*
 * Every whole value's map of snap (all of prog's maps, by id) gets its
 * leaves' entries joined, one entry a key, its value the whole's text;
 * the leaves are marked leaf. 0 or -ENOMEM.
 */
/* Whether map m is read with others, joined: a whole value's map, or one with whole keys. */
bool st_map_joined(const struct st_map_info *m);

int st_maps_join_wholes(const struct st_program *prog, struct st_maps_snapshot *snap);

#endif /* SIDETRACE_READOUT_WHOLES_H */
