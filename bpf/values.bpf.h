/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Plain values (ST_K_VALUE maps in st_values): read, stored, added to and
 * deleted under the key the stack machine built, as @m[k] in expressions,
 * @m[k] = v, @m[k] += v and delete(@m[k]). delete() of an aggregation's
 * key is here too: the same key, in st_aggr.
 */
#ifndef SIDETRACE_VALUES_BPF_H
#define SIDETRACE_VALUES_BPF_H

/* Uses maps.bpf.h, scratch.bpf.h and aggregate.bpf.h. */
#if !defined(SIDETRACE_MAPS_BPF_H) || !defined(SIDETRACE_SCRATCH_BPF_H) || \
	!defined(SIDETRACE_AGGREGATE_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

static const struct st_value st_zero_value;

/*
 * op (ST_I_MAP_GET, _SET, _ADD, _DEL) on map map_id at the key parts in
 * s->key, which it clears. GET leaves the value in s->vres (for strings:
 * copies it into temporary string v - ST_STR_REF_TMP, and s->vres = v);
 * SET stores v, or s->vstr for strings; ADD adds v atomically. Returns
 * what failed, for -k: the helper's error (a lookup's miss: -ENOENT),
 * else 0; ADD's failures are counted instead. A global function, checked
 * once by the verifier.
 */
__noinline int st_value_op(struct st_scratch *s, __u32 op, __u32 map_id, __s64 v, __u32 probe)
{
	const volatile struct st_map_cfg *mc = map_cfg(map_id);
	struct st_key_hdr *hdr;
	struct st_scratch *ms;
	__u32 slot, why = ST_C_MAP_FULL;
	struct st_value *val;
	int err = 0;
	bool str;

	if (!s || !mc)
		return 0;
	str = mc->flags & ST_MAPF_STR;
	hdr = (void *)s->key;
	hdr->map_id = map_id;
	hdr->addr_parts = 0;
	s->vres = 0;
	/* The key as a map value, for 6.1: see st_aggregate(). */
	slot = s->self;
	ms = bpf_map_lookup_elem(&st_scratch_map, &slot);
	if (!ms)
		goto out;
	switch (op) {
	case ST_I_MAP_GET:
		val = bpf_map_lookup_elem(&st_values, ms->key);
		if (str) {
			slot = (v - ST_STR_REF_TMP) & (ST_MAX_TMPSTR - 1);
			copy_str(s->tmp[slot].b, val ? val->b : st_zero_value.b);
			s->vres = ST_STR_REF_TMP + slot;
		} else if (val) {
			s->vres = *(__s64 *)val->b;
		}
		if (!val)
			err = -2; /* ENOENT */
		break;
	case ST_I_MAP_SET:
		/* The value, too, as a map value for 6.1 (ms is s). */
		if (!str)
			*(__s64 *)ms->vstr.b = v;
		/* Its low half only: see insert_failed(). */
		err = (int)bpf_map_update_elem(&st_values, ms->key, &ms->vstr, BPF_ANY);
		if (err)
			count(probe, insert_failed(err));
		break;
	case ST_I_MAP_ADD:
		val = lookup_or_try_init(&st_values, ms->key, &st_zero_value, &why);
		if (!val)
			count(probe, why);
		else
			__sync_fetch_and_add((__s64 *)val->b, v);
		break;
	case ST_I_MAP_DEL:
		/* Its low half only: see insert_failed(). */
		if (mc->kind == ST_K_VALUE)
			err = (int)bpf_map_delete_elem(&st_values, ms->key);
		else
			err = (int)bpf_map_delete_elem(&st_aggr, ms->key);
		break;
	}
out:
	key_clear(s);
	return err;
}

#endif /* SIDETRACE_VALUES_BPF_H */
