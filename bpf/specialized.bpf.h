/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The specialized programs, each serving the probes that need less than
 * sidetrace_event (the collector picks one per probe, see sidetrace.h):
 * sidetrace_count only counts; sidetrace_plain runs the plain statements
 * (st_probe_cfg.plain) on SDT values without the stack machine;
 * sidetrace_flat does that with integers into maps without keys, without
 * a scratch. sidetrace_tp_count and sidetrace_tp_plain are the first two
 * at tracepoints, sidetrace_profile_flat the last at perf events.
 */
#ifndef SIDETRACE_SPECIALIZED_BPF_H
#define SIDETRACE_SPECIALIZED_BPF_H

/* Uses maps.bpf.h, scratch.bpf.h, usdt.bpf.h, loads.bpf.h, aggregate.bpf.h and tracepoint.bpf.h. */
#if !defined(SIDETRACE_MAPS_BPF_H) || !defined(SIDETRACE_SCRATCH_BPF_H) || \
	!defined(SIDETRACE_USDT_BPF_H) || !defined(SIDETRACE_LOADS_BPF_H) || \
	!defined(SIDETRACE_AGGREGATE_BPF_H) || !defined(SIDETRACE_TRACEPOINT_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/*
 * The probe sites of a probe that only counts: no scratch, no decoding. A
 * site that counts in one map has its slot in the cookie.
 */
static __always_inline int count_event(void *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);
	__u32 slot = ST_COOKIE_COUNT_SLOT1(cookie), key = ST_COOKIE_SITE(cookie), i;
	const struct st_site_cfg *site;
	struct st_val *val;

	if (ignored())
		return 0;
	if (slot) {
		slot--;
		val = bpf_map_lookup_elem(&st_flat, &slot);
		if (val)
			__sync_fetch_and_add(&val->count, 1);
		return 0;
	}
	site = bpf_map_lookup_elem(&st_sites, &key);
	if (!site)
		return 0;
	for (i = 0; i < ST_MAX_COUNTS; i++) {
		if (i >= site->nr_counts)
			break;
		val = bpf_map_lookup_elem(&st_flat, &site->counts[i]);
		if (val)
			__sync_fetch_and_add(&val->count, 1);
	}
	return 0;
}

SEC("uprobe")
int sidetrace_count(void *ctx)
{
	return count_event(ctx);
}

/* The same at a tracepoint; -p's process is filtered here (interp.bpf.h). */
SEC("tracepoint")
int sidetrace_tp_count(void *ctx)
{
	if (other_process())
		return 0;
	return count_event(ctx);
}

/* Whether the string of load a fits a compact key part with its NUL. */
static __always_inline bool str_is_short(const struct st_scratch *s, __u32 a)
{
	const __u64 *w = (const __u64 *)s->strs[a & (ST_MAX_LOADS - 1)].b;

	/* NUL-padded (st_read_str): a NUL in byte 15 ends it there. */
	return !(w[1] >> 56);
}

/*
 * Whether statement st's key has a compact form this time: its map is
 * read whole and each string part is by address or short.
 */
static __always_inline bool plain_compact(const struct st_scratch *s,
					  const struct st_plain_stmt *st)
{
	const volatile struct st_map_cfg *mc = map_cfg(st->map);
	const struct st_plain_part *pt;
	__u32 k, a;

	if (!mc || !mc->str_parts)
		return false;
	if (part_unused(ST_P_STR))
		return true;
	for (k = 0; k < ST_MAX_PLAIN_PARTS; k++) {
		if (past_parts(k) || k >= st->nr_parts)
			break;
		pt = &st->parts[k];
		a = pt->a;
		if (pt->src == ST_P_STR && !(s->addr_loads & (1U << a)) && !str_is_short(s, a))
			return false;
	}
	return true;
}

/*
 * Writes part k, pt, of a plain statement into the key parts, of the
 * compact key when compact. Inline: a call per part and event cost more
 * than checking it at each part.
 */
static __always_inline int plain_key_part(struct st_scratch *s, const struct st_plain_part *pt,
					  __u32 k, __u32 probe, bool compact)
{
	const __u64 *src;
	__u32 off, a;
	__u64 *dst;
	int i;

	if (!s || !pt)
		return 0;
	off = compact ? pt->coff : pt->off;
	a = pt->a;
	if (pt->src == ST_P_COMM) {
		/* It fits the compact form's part; a full one's rest is zero: key_clear(). */
		if (part_unused(ST_P_COMM) || off > ST_KEY_PARTS_MAX - ST_COMPACT_STR_LEN)
			return 0;
		bpf_get_current_comm((compact ? s->ckey : s->key) + ST_KEY_HDR + off,
				     ST_COMPACT_STR_LEN);
		return 0;
	}
	if (pt->src == ST_P_STR) {
		if (part_unused(ST_P_STR) || off > ST_KEY_PARTS_MAX - ST_STR_LEN ||
		    a >= ST_MAX_LOADS)
			return 0;
		dst = (__u64 *)((compact ? s->ckey : s->key) + ST_KEY_HDR + off);
		/* The rest of the part is zero: key_clear(). */
		if (s->addr_loads & (1U << a)) {
			dst[0] = s->site;
			dst[1] = s->vals[a];
			s->key_addr |= 1U << k;
			return 0;
		}
		src = (const __u64 *)s->strs[a].b;
		if (compact) {
			dst[0] = src[0];
			dst[1] = src[1];
			return 0;
		}
#pragma unroll
		for (i = 0; i < ST_STR_LEN / 8; i++)
			dst[i] = src[i];
		return 0;
	}
	if (off > ST_KEY_PARTS_MAX - 8)
		return 0;
	*(__s64 *)((compact ? s->ckey : s->key) + ST_KEY_HDR + off) =
		pt->src == ST_P_BUILTIN ? builtin(a, probe) : s->vals[a & (ST_MAX_LOADS - 1)];
	return 0;
}

/*
 * Runs plain statement i of a sidetrace_plain probe: its key parts come
 * straight from the loads, then it aggregates. A global function.
 */
__noinline int st_plain_stmt(const struct st_probe_cfg *cfg, struct st_scratch *s, __u32 i,
			     __u32 probe)
{
	const struct st_plain_stmt *st;
	bool compact;
	__u32 k;

	if (!cfg || !s || i >= ST_MAX_PLAIN)
		return 0;
	st = &cfg->plain[i];
	/* A clause with a load that failed is skipped whole. */
	if ((st->mask & ~s->ok) || !plain_passes(st, s->vals, probe))
		return 0;
	compact = plain_compact(s, st);
	s->key_compact = compact;
	for (k = 0; k < ST_MAX_PLAIN_PARTS; k++) {
		if (past_parts(k) || k >= st->nr_parts)
			break;
		plain_key_part(s, &st->parts[k], k, probe, compact);
	}
	return st_aggregate(s, st->map, plain_value(st, s->vals, probe), probe);
}

/*
 * The probe sites of a probe whose fields are all SDT values and whose
 * statements are plain (st_probe_cfg.plain): no argument vector, no stack
 * machine.
 */
/* A plain probe's event; tp: at a tracepoint, its fields read from the record. */
static __always_inline int plain_event(void *ctx, bool tp)
{
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	struct st_scratch *s;
	__u32 probe, i;

	s = enter_probe(ctx, &site, &cfg, &probe);
	if (!s)
		return 0;
	s->ok = 0;
	s->first_err = 0;
	s->addr_loads = 0;
	/* A tracepoint's strings are no file's literals (ro_strings.h): no address. */
	s->ip = tp ? 0 : CTX_WORD(ctx, ST_PT_REGS_IP);
	if (tp)
		read_tp_fields(rec_base(ctx), site, cfg->sdt_mask, s);
	else
		st_read_sdt(ctx, site, cfg->sdt_mask, s);
	for (i = 0; i < ST_MAX_LOADS; i++) {
		if (i >= cfg->nr_loads)
			break;
		st_plain_load(s, cfg, site, i, probe);
	}
	if (RD(s->first_err))
		count(probe, RD(s->first_err));
	for (i = 0; i < ST_MAX_PLAIN; i++) {
		if (i >= cfg->nr_plain)
			break;
		st_plain_stmt(cfg, s, i, probe);
	}
	RD(s->busy) = 0;
	return 0;
}

SEC("uprobe")
int sidetrace_plain(void *ctx)
{
	return plain_event(ctx, false);
}

SEC("tracepoint")
int sidetrace_tp_plain(void *ctx)
{
	if (other_process())
		return 0;
	return plain_event(ctx, true);
}

/* The integers a sidetrace_flat probe read, by load. */
struct st_flat_vals {
	__s64 v[ST_MAX_LOADS];
	/*
	 * Bit i: load i was read. In memory, so that the verifier does not
	 * follow each combination of loads that succeed and fail.
	 */
	__u32 ok;
};

/* Runs plain statement i of a sidetrace_flat probe, whose loads are in fv. */
static __always_inline void flat_stmt(const struct st_probe_cfg *cfg, const struct st_flat_vals *fv,
				      __u32 i, __u32 probe)
{
	const volatile struct st_map_cfg *mc;
	struct st_val *sv;
	__s64 val;

	val = plain_value(&cfg->plain[i], fv->v, probe);
	mc = map_cfg(cfg->plain[i].map);
	if (!mc)
		return;
	sv = flat_val(mc, val);
	if (sv)
		update(sv, mc->kind, val, mc->flags & ST_MAPF_SIGNED);
}

/* Reads integer load i of a sidetrace_flat probe into fv, a register inline when inl. */
static __always_inline void flat_load(struct pt_regs *ctx, const struct st_site_cfg *site,
				      const struct st_probe_cfg *cfg, struct st_flat_vals *fv,
				      __u32 i, bool inl)
{
	__u32 arg = cfg->loads[i].sdt_arg;
	__u64 x;

	if (arg >= ST_MAX_SDT_ARGS)
		return;
	if (inl ? sdt_arg_inline(ctx, &site->args[arg], &x) : st_sdt_arg(ctx, &site->args[arg], &x))
		return;
	fv->v[i] = x;
	RD(fv->ok) |= 1U << i;
}

/*
 * Reads the integer loads after the first of a sidetrace_flat probe into
 * fv. A global function: its loop is walked once.
 */
__noinline int st_flat_loads(struct pt_regs *ctx, const struct st_site_cfg *site,
			     const struct st_probe_cfg *cfg, struct st_flat_vals *fv)
{
	__u32 i;

	if (!ctx || !site || !cfg || !fv)
		return 0;
	for (i = 1; i < ST_MAX_LOADS; i++) {
		if (i >= cfg->nr_loads)
			break;
		flat_load(ctx, site, cfg, fv, i, false);
	}
	return 0;
}

/*
 * Reads the integer loads of a sidetrace_flat probe into fv: the first
 * inline, a register read in place (two calls per event cost about 20 ns,
 * PERFORMANCE.md Part 6), the others by st_flat_loads(), whose loop the
 * verifier walks once with the register read as a call.
 */
static __always_inline void flat_loads(struct pt_regs *ctx, const struct st_site_cfg *site,
				       const struct st_probe_cfg *cfg, struct st_flat_vals *fv)
{
	if (cfg->nr_loads)
		flat_load(ctx, site, cfg, fv, 0, true);
	if (cfg->nr_loads > 1)
		st_flat_loads(ctx, site, cfg, fv);
}

/*
 * Runs plain statement i of a sidetrace_flat probe, whose loads are in
 * fv, where its clause's loads were read and its filter holds.
 */
static __always_inline void flat_clause(const struct st_probe_cfg *cfg,
					const struct st_flat_vals *fv, __u32 i, __u32 probe)
{
	/* A clause with a load that failed is skipped whole. */
	if (!(cfg->plain[i].mask & ~fv->ok) && plain_passes(&cfg->plain[i], fv->v, probe))
		flat_stmt(cfg, fv, i, probe);
}

/* flat_clause() as a global function: verified once, not once per statement. */
__noinline int st_flat_stmt(const struct st_probe_cfg *cfg, const struct st_flat_vals *fv, __u32 i,
			    __u32 probe)
{
	if (cfg && fv && i < ST_MAX_PLAIN)
		flat_clause(cfg, fv, i, probe);
	return 0;
}

/*
 * Runs the plain statements of a sidetrace_flat probe whose loads are in
 * fv: the first inline (a call per event cost about 10 ns, PERFORMANCE.md
 * Part 6), the others by st_flat_stmt().
 */
static __always_inline void flat_stmts(const struct st_probe_cfg *cfg,
				       const struct st_flat_vals *fv, __u32 probe)
{
	__u32 i;

	if (cfg->nr_plain)
		flat_clause(cfg, fv, 0, probe);
	for (i = 1; i < ST_MAX_PLAIN; i++) {
		if (i >= cfg->nr_plain)
			break;
		st_flat_stmt(cfg, fv, i, probe);
	}
}

/*
 * The probe sites of a plain probe that reads only integers and
 * aggregates only into maps without keys (@ = hist(args.x)): the values
 * stay on the stack, no scratch, no key.
 */
SEC("uprobe")
int sidetrace_flat(void *ctx)
{
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	struct st_flat_vals fv = {};
	__u32 site_idx, probe;

	if (!cookie_cfg(ctx, &site_idx, &probe, &site, &cfg))
		return 0;
	flat_loads(ctx, site, cfg, &fv);
	if (fv.ok != (1U << cfg->nr_loads) - 1)
		count(probe, ST_C_ERR_USDT);
	flat_stmts(cfg, &fv, probe);
	return 0;
}

/*
 * A CPU clock's or another perf event's sample whose statements aggregate
 * builtins into maps without keys (cpuwalk's @ = lhist(cpu, ...)): no
 * loads, no scratch.
 */
SEC("perf_event")
int sidetrace_profile_flat(void *ctx)
{
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	struct st_flat_vals fv = {};
	__u32 site_idx, probe;

	if (other_process() || !cookie_cfg(ctx, &site_idx, &probe, &site, &cfg))
		return 0;
	flat_stmts(cfg, &fv, probe);
	return 0;
}

#endif /* SIDETRACE_SPECIALIZED_BPF_H */
