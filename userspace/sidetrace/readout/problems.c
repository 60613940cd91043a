// SPDX-License-Identifier: MIT
/*
 * The problems the BPF programs counted per probe (decode errors, cut
 * strings, full maps, dropped events), and what each means for a person.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "readout/addr_keys.h"
#include "readout/inproc_read.h"
#include "readout/problems.h"

int st_problems_read(const struct st_tracer *t, const struct st_compiled *c,
		     struct st_problem **problems)
{
	uint32_t p, k, nr = c->nr_probes * ST_NR_COUNTERS;
	uint64_t *percpu, *v, *cuts, *inproc;
	struct st_problem *out;
	size_t n = 0;
	int cpu, ret;

	/* All at once: one system call, not one per probe and counter. */
	percpu = calloc((size_t)(nr ? nr : 1) * t->bpf.ncpus, sizeof(*percpu));
	cuts = calloc(c->nr_probes + 1, sizeof(*cuts));
	inproc = calloc(nr + 1, sizeof(*inproc));
	/* Room for every counter: the maps are read once. */
	out = calloc(nr ? nr : 1, sizeof(*out));
	*problems = NULL;
	if (!percpu || !cuts || !inproc || !out) {
		free(percpu);
		free(cuts);
		free(inproc);
		free(out);
		return -ENOMEM;
	}
	ret = st_map_lookup_all(t->bpf.counters_fd, percpu, t->bpf.ncpus * sizeof(*percpu), nr);
	if (!ret)
		ret = st_addr_key_cuts(t, c, cuts);
	st_inproc_counters(st_tracer_inprocs(t), inproc, nr);
	for (p = 0; p < c->nr_probes && !ret; p++) {
		for (k = 0; k < ST_NR_COUNTERS; k++) {
			/* Strings kept by address were not read, nor their cuts counted. */
			uint64_t sum = (k == ST_C_STR_TRUNC ? cuts[p] : 0) +
				       inproc[p * ST_NR_COUNTERS + k];

			v = percpu + (size_t)(p * ST_NR_COUNTERS + k) * t->bpf.ncpus;
			for (cpu = 0; cpu < t->bpf.ncpus; cpu++)
				sum += v[cpu];
			if (!sum)
				continue;
			out[n].probe = p;
			out[n].counter = k;
			out[n].count = sum;
			n++;
		}
	}
	free(percpu);
	free(cuts);
	free(inproc);
	if (ret) {
		free(out);
		return ret;
	}
	*problems = out;
	return (int)n;
}

const char *st_counter_reason(uint32_t counter)
{
	switch (counter) {
	case ST_C_ERR_USDT:
		return "an SDT argument of the probe site could not be read";
	case ST_C_ERR_VEC:
		return "bad pointer to an argument vector";
	case ST_C_ERR_ARG:
		return "bad pointer to an argument";
	case ST_C_ERR_INDEX:
		return "field index beyond the number of arguments passed";
	case ST_C_ERR_LABEL:
		return "argument type differs from the event's declaration";
	case ST_C_ERR_STR:
		return "string unreadable (bad pointer, or page not in memory)";
	case ST_C_ERR_NOFIELD:
		return "dynamic field not passed";
	case ST_C_ERR_DYNTYPE:
		return "dynamic field of a type that cannot be used there";
	case ST_C_STR_TRUNC:
		return "string longer than 63 bytes, truncated";
	case ST_C_MAP_FULL:
		/* The keyed maps share a kernel hash, and one more for compact keys. */
		return "map full, values not counted (the keyed maps share one hash: "
		       "BPFTRACE_MAP_KEYS_MAX sizes it)";
	case ST_C_BUSY:
		return "dropped: too many runs preempted on one CPU";
	case ST_C_LOST:
		return "output buffer full (see --buffer-size)";
	case ST_C_MAP_ERR:
		return "the kernel refused a new key, the map not full";
	case ST_C_STEPS:
		return "a while loop ran past 8192 instructions: the event's clauses stopped there";
	default:
		return "unknown problem";
	}
}

const char *st_counter_name(uint32_t counter)
{
	static const char *const names[ST_NR_COUNTERS] = {
		[ST_C_ERR_USDT] = "sdt_argument",
		[ST_C_ERR_VEC] = "argument_vector",
		[ST_C_ERR_ARG] = "argument",
		[ST_C_ERR_INDEX] = "field_index",
		[ST_C_ERR_LABEL] = "type_label",
		[ST_C_ERR_STR] = "string_unreadable",
		[ST_C_ERR_NOFIELD] = "dynamic_field_absent",
		[ST_C_ERR_DYNTYPE] = "dynamic_field_type",
		[ST_C_STR_TRUNC] = "string_truncated",
		[ST_C_MAP_FULL] = "map_full",
		[ST_C_BUSY] = "busy",
		[ST_C_LOST] = "buffer_full",
		[ST_C_MAP_ERR] = "map_insert_refused",
		[ST_C_STEPS] = "loop_too_long",
	};

	return counter < ST_NR_COUNTERS && names[counter] ? names[counter] : "unknown";
}

bool st_counter_is_loss(uint32_t counter)
{
	return counter != ST_C_STR_TRUNC;
}
