/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Aggregation: a value into a map without keys (a slot of st_flat per
 * value or bucket) or into the per-CPU hash st_aggr under the key parts
 * that the statement wrote into the scratch. Buckets and the min/max
 * encoding come from sidetrace_arith.h, shared with the collector.
 */
#ifndef SIDETRACE_AGGREGATE_BPF_H
#define SIDETRACE_AGGREGATE_BPF_H

/* Uses maps.bpf.h and scratch.bpf.h. */
#if !defined(SIDETRACE_MAPS_BPF_H) || !defined(SIDETRACE_SCRATCH_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* What a new key of st_aggr starts from. */
static const struct st_val st_zero_val;

/*
 * Zeroes *words words of key parts and bucket; the header is rewritten at
 * every use. *words is read at each step: a loop with a bound the
 * compiler knows becomes a memset(), which BPF does not have.
 */
static __always_inline void key_words_clear(__u8 *key, const volatile __u32 *words)
{
	__u64 *p = (__u64 *)(key + ST_KEY_HDR);
	__u32 i;

	for (i = 0; i < (ST_KEY_MAX - ST_KEY_HDR) / 8; i++) {
		if (i >= *words)
			break;
		p[i] = 0;
	}
}

/* Zeroes the key parts and bucket of the full key. */
static __always_inline void key_clear(struct st_scratch *s)
{
	key_words_clear(s->key, &st_key_words);
}

/* lhist() bucket of v in map mc (sidetrace_arith.h). */
static __always_inline __u64 lhist_bucket(__s64 v, const volatile struct st_map_cfg *mc)
{
	return st_lhist_bucket(v, mc->lmin, mc->lmax, mc->lstep);
}

/* *p = max(*p, v), unsigned; atomic: a preempted run may be updating it. */
static __always_inline void atomic_umax(__u64 *p, __u64 v)
{
	__u64 old = *p, prev;
	int i;

	for (i = 0; i < 4; i++) {
		if (old >= v)
			return;
		prev = __sync_val_compare_and_swap(p, old, v);
		if (prev == old)
			return;
		old = prev;
	}
}

/*
 * Adds v to a value; see struct st_val for the encoding of min and max.
 * A histogram bucket keeps its sum too: `sidetrace serve` exports it as
 * the Prometheus histogram's _sum.
 */
static __always_inline void update(struct st_val *val, __u32 kind, __s64 v, bool is_signed)
{
	__sync_fetch_and_add(&val->count, 1);
	switch (kind) {
	case ST_K_SUM:
	case ST_K_AVG:
	case ST_K_STATS:
	case ST_K_HIST:
	case ST_K_LHIST:
		__sync_fetch_and_add(&val->sum, v);
		break;
	case ST_K_MIN:
		if (!kind_unused(ST_K_MIN))
			atomic_umax(&val->min, st_min_encode(v, is_signed));
		break;
	case ST_K_MAX:
		if (!kind_unused(ST_K_MAX))
			atomic_umax(&val->max, st_max_encode(v, is_signed));
		break;
	default:
		break;
	}
}

/*
 * update() as a global function: the verifier checks its paths once, not
 * once for each path of its callers that leads here.
 */
__noinline int st_update(struct st_val *val, __u32 kind, __s64 v, __u32 is_signed)
{
	if (val)
		update(val, kind, v, is_signed);
	return 0;
}

/* The slot of v in map mc, a map without keys; NULL if out of range. */
static __always_inline struct st_val *flat_val(const volatile struct st_map_cfg *mc, __s64 v)
{
	__u64 bucket = 0;
	__u32 slot;

	if (mc->kind == ST_K_HIST && !kind_unused(ST_K_HIST))
		bucket = st_hist_bucket(v, mc->flags & ST_MAPF_SIGNED);
	else if (mc->kind == ST_K_LHIST && !kind_unused(ST_K_LHIST))
		bucket = lhist_bucket(v, mc);
	if (bucket >= mc->flat_len)
		return NULL;
	slot = mc->flat_base + bucket;
	return bpf_map_lookup_elem(&st_flat, &slot);
}

/*
 * Aggregates v into map map_id, mc, under key: its parts are in place, in
 * compact form when compact (st_aggr_compact), the header and bucket are
 * written here. The key is a scratch's or the stack's; parts_max bounds
 * its parts. A full map is counted, never dropped silently; the counter
 * is also returned (0: aggregated) for the collector's own updates.
 */
static __always_inline __u32 aggregate_key(__u8 *key, bool compact, __u32 parts_max,
					   const volatile struct st_map_cfg *mc, __u32 map_id,
					   __u32 addr, __s64 v, __u32 probe)
{
	struct st_key_hdr *hdr = (void *)key;
	bool is_signed = mc->flags & ST_MAPF_SIGNED;
	__u8 kind = mc->kind;
	__u32 ks, why = ST_C_MAP_FULL;
	struct st_val *val;
	__u64 bucket = 0;

	/* A multiple of 8: the mask says so to the verifier (a stack key). */
	ks = (compact ? mc->compact_size : mc->key_size) & ~7U;
	if (ks > parts_max)
		return ST_C_MAP_ERR;
	hdr->map_id = map_id;
	hdr->addr_parts = mc->flags & ST_MAPF_READ_WHOLE ? addr : 0;
	if (kind == ST_K_HIST && !kind_unused(ST_K_HIST))
		bucket = st_hist_bucket(v, is_signed);
	else if (kind == ST_K_LHIST && !kind_unused(ST_K_LHIST))
		bucket = lhist_bucket(v, mc);
	if (st_kind_has_bucket(kind))
		*(__u64 *)(key + st_key_bucket_off(ks)) = bucket;
	if (compact)
		val = lookup_or_try_init(&st_aggr_compact, key, &st_zero_val, &why);
	else
		val = lookup_or_try_init(&st_aggr, key, &st_zero_val, &why);
	if (!val) {
		count(probe, why);
		return why;
	}
	/* Inline: a call per keyed event costs more than its check here. */
	update(val, kind, v, is_signed);
	return 0;
}

/*
 * Aggregates v into map map_id under the key parts in s->key (s->ckey when
 * s->key_compact), then clears them. A global function, shared by the
 * programs that aggregate.
 */
__noinline int st_aggregate(struct st_scratch *s, __u32 map_id, __s64 v, __u32 probe)
{
	const volatile struct st_map_cfg *mc;
	__u32 slot, addr, compact;
	struct st_scratch *ms;

	if (!s)
		return 0;
	/* Taken at once: only a plain statement's key parts set them, just before. */
	addr = s->key_addr;
	compact = s->key_compact;
	s->key_addr = 0;
	s->key_compact = 0;
	mc = map_cfg(map_id);
	if (!mc)
		return 0;
	if (mc->flags & ST_MAPF_FLAT)
		return st_update(flat_val(mc, v), mc->kind, v, mc->flags & ST_MAPF_SIGNED);
	/*
	 * s is an argument of a global function, so the verifier knows it
	 * only as memory, and older kernels (6.1) take a map key only from the
	 * stack, a packet or a map value: look the same scratch up again to
	 * pass its key as a map value: one array lookup per keyed update.
	 */
	slot = s->self;
	ms = bpf_map_lookup_elem(&st_scratch_map, &slot);
	if (!ms)
		return 0;
	if (compact) {
		aggregate_key(ms->ckey, true, ST_KEY_PARTS_MAX, mc, map_id, addr, v, probe);
		/* A compact key shorter than the longest is followed by zeros. */
		key_words_clear(ms->ckey, &st_ckey_words);
	} else {
		aggregate_key(ms->key, false, ST_KEY_PARTS_MAX, mc, map_id, addr, v, probe);
		key_clear(ms);
	}
	return 0;
}

#endif /* SIDETRACE_AGGREGATE_BPF_H */
