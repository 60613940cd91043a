/* SPDX-License-Identifier: MIT */
/*
 * The keys of the maps read, copied with their values combined over CPUs,
 * whichever engine counted them: the kernel's maps (aggregations.c) and
 * the in-process engine's memory (inproc_read.c) add to one dump.
 */
#ifndef SIDETRACE_READOUT_DUMP_H
#define SIDETRACE_READOUT_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compile/compile.h"

/* A value read: an aggregation's, or a plain value's bytes (ST_K_VALUE). */
struct dump_val {
	struct st_val v;
	uint8_t raw[ST_STR_LEN];
	/*
	 * A plain value whose bytes win over an equal key's: the in-process
	 * engine's, which started from the kernel's (inproc.c).
	 */
	bool newer;
};

struct dump {
	uint8_t *keys; /* nr keys of st_compiled.key_size bytes */
	struct dump_val *vals;
	size_t nr, cap;
	size_t key_size;
};

/* The map id in a key's header. */
uint32_t st_key_map_id(const uint8_t *key);

/*
 * Sums the CPUs' copies and decodes min and max (see struct st_val): the
 * result holds them as plain values.
 */
void st_val_combine(const struct st_val *percpu, int ncpus, bool is_signed, struct st_val *out);

/* Adds a key with its combined value v or, for a plain value, its bytes raw. */
int st_dump_add(struct dump *d, const uint8_t *key, const struct st_val *v, const void *raw);

/* Keys that read the same, adjacent once sorted, become one: their values add up. */
void st_dump_merge_equal(const struct st_compiled *c, struct dump *d);

void st_dump_free(struct dump *d);

#endif /* SIDETRACE_READOUT_DUMP_H */
