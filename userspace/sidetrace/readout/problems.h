/* SPDX-License-Identifier: MIT */
/*
 * The problems the BPF programs counted per probe: read, and told.
 */
#ifndef SIDETRACE_READOUT_PROBLEMS_H
#define SIDETRACE_READOUT_PROBLEMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compile/compile.h"
#include "tracer/tracer.h"

/* One kind of problem seen by the BPF program, summed over CPUs. */
struct st_problem {
	uint32_t probe; /* index in st_compiled.probes */
	uint32_t counter; /* enum st_counter */
	uint64_t count;
};

/*
 * Reads the per-probe counters once: the problems seen (decode errors,
 * truncated strings, full maps, dropped events) in *problems, which the
 * caller frees, and how many there are; or a negative errno (*problems
 * is then NULL).
 */
int st_problems_read(const struct st_tracer *t, const struct st_compiled *c,
		     struct st_problem **problems);

/* What a counter means, for "N events could not be decoded: REASON". */
const char *st_counter_reason(uint32_t counter);

/* The counter's name as a word, for labels ("map_full", "string_unreadable"). */
const char *st_counter_name(uint32_t counter);

/* True for counters that cost the event (decode errors and drops). */
bool st_counter_is_loss(uint32_t counter);

#endif /* SIDETRACE_READOUT_PROBLEMS_H */
