// SPDX-License-Identifier: MIT
/*
 * The kernel's program, compiled for the host: the BPF fragments that
 * decode an event and run its clauses (the bpf/ fragments, up to the stack
 * machine), with bpf_host.h's helpers, and the maps they name resolved
 * here, to the session's shared memory (per-CPU slots, hashes, ring) or
 * to the thread's own scratch. The verifier proved those fragments safe
 * for any configuration the collector may write into the kernel's maps;
 * the maps here check their keys as the kernel's do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <side/abi/type-argument.h>
#include <side/abi/event-description.h>
#include "bpf_host.h"
#include "sidetrace.h"
#include "engine_state.h"
#include "common/shm_ring.h"

/* The ABI layouts come from the headers above, on the host's own types. */
#define SIDETRACE_SIDE_ABI_BPF_H

#pragma GCC diagnostic push
/* The fragments' unroll hints are for clang, and some functions serve kernel programs only. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#pragma GCC diagnostic ignored "-Wunused-function"
#include "maps.bpf.h"
#include "scratch.bpf.h"
#include "usdt.bpf.h"
#include "decode.bpf.h"
#include "loads.bpf.h"
#include "aggregate.bpf.h"
#include "record.bpf.h"
#include "send.bpf.h"
#include "values.bpf.h"
#include "stack.bpf.h"
#include "strings.bpf.h"
#include "mem_reads.bpf.h"
#include "interp.bpf.h"
#include "tracepoint.bpf.h"
#include "keyed.bpf.h"
#pragma GCC diagnostic pop

void st_prog_configure(const struct st_map_cfg *maps, uint32_t nr_maps, uint32_t key_words,
		       uint32_t ckey_words)
{
	uint32_t i;

	for (i = 0; i < ST_MAX_MAPS; i++)
		st_maps[i] = i < nr_maps ? maps[i] : (struct st_map_cfg){0};
	st_key_words = key_words;
	st_ckey_words = ckey_words;
	/* No verifier to spare here: the engine runs every instruction it was sent. */
	st_ops_used = ~0ULL;
	st_helper_checks = 1;
	st_srcs_used = ~0U;
	st_parts_used = ~0U;
	st_plain_parts_max = ST_MAX_PLAIN_PARTS;
	st_kinds_used = ~0U;
	st_stacks_used = ~0U;
}

/* Element k of a per-CPU array of n elements per slot, this CPU's. */
static void *percpu_elem(void *base, size_t elem, uint32_t n, uint32_t k)
{
	if (k >= n)
		return NULL;
	return (char *)base + ((size_t)st_host_slot() * n + k) * elem;
}

static void *st_host_lookup(const void *map, const void *key)
{
	uint32_t k;

	if (map == &st_scratch_map) {
		struct st_scratch *s = st_host_thread_mem(ST_NR_SCRATCH * sizeof(*s));

		k = *(const uint32_t *)key;
		return s && k < ST_NR_SCRATCH ? s + k : NULL;
	}
	if (map == &st_aggr)
		return st_shm_hash_lookup(&st_eng.aggr_geom, st_eng.aggr, key, st_host_slot());
	if (map == &st_aggr_compact)
		return st_shm_hash_lookup(&st_eng.compact_geom, st_eng.compact, key,
					  st_host_slot());
	if (map == &st_values)
		return st_shm_hash_lookup(&st_eng.values_geom, st_eng.values, key, 0);
	k = *(const uint32_t *)key;
	if (map == &st_probes)
		return k < st_eng.prog.nr_probes ? &st_eng.probes[k] : NULL;
	if (map == &st_sites)
		return k <= st_eng.prog.nr_probes ? &st_eng.sites[k] : NULL;
	if (map == &st_counters)
		return percpu_elem(st_eng.counters, sizeof(uint64_t),
				   st_eng.prog.shm.nr_probes * ST_NR_COUNTERS, k);
	if (map == &st_flat)
		return percpu_elem(st_eng.flat, sizeof(struct st_val), st_eng.prog.shm.nr_flat, k);
	if (map == &st_fault_armed)
		return k < st_eng.prog.nr_probes ? &st_eng.fault_armed[k] : NULL;
	/* st_followed, st_stack_pids: no program here uses them. */
	return NULL;
}

static long st_host_update(const void *map, const void *key, const void *value, uint64_t flags)
{
	if (map == &st_aggr)
		return st_shm_hash_update(&st_eng.aggr_geom, st_eng.aggr, key, value,
					  st_host_slot(), flags);
	if (map == &st_aggr_compact)
		return st_shm_hash_update(&st_eng.compact_geom, st_eng.compact, key, value,
					  st_host_slot(), flags);
	if (map == &st_values)
		return st_shm_hash_update(&st_eng.values_geom, st_eng.values, key, value, 0, flags);
	return -EINVAL;
}

static long st_host_delete(const void *map, const void *key)
{
	if (map == &st_aggr)
		return st_shm_hash_delete(&st_eng.aggr_geom, st_eng.aggr, key);
	if (map == &st_values)
		return st_shm_hash_delete(&st_eng.values_geom, st_eng.values, key);
	return -EINVAL;
}

long st_host_ringbuf_output(const void *data, uint64_t size)
{
	if (size > UINT32_MAX)
		return -E2BIG;
	return st_shm_ring_output(st_eng.ring, st_eng.prog.shm.ring_size, &st_eng.ring_tail_seen,
				  data, size);
}

struct st_shm_hdr *st_host_hdr(void)
{
	return st_eng.hdr;
}

/*
 * sidetrace_keyed's body (keyed.bpf.h): the key on the stack, no scratch;
 * sidetrace_keyed1's too (a smaller program for the verifier only).
 */
void st_prog_keyed(void *ctx)
{
	keyed_event(ctx, false, false);
}

/* sidetrace_event's body (interp.bpf.h) but for the stacks, which the engine refuses. */
void st_prog_event(void *ctx)
{
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	struct st_scratch *s;
	__u32 probe;

	s = enter_probe(ctx, &site, &cfg, &probe);
	if (!s)
		return;
	decode_all(ctx, site, cfg, s, probe);
	run(cfg, s, probe, ST_MACHINE_ALL);
	RD(s->busy) = 0;
}
