/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * sidetrace_keyed: a plain probe of one statement into a keyed map, in a
 * session whose keys fit on the BPF stack (ST_KEYED_KEY_MAX). The key is
 * built on the stack and each string is read straight into its key part:
 * no scratch, no copy, no second lookup to pass the key, and the first
 * two parts without a call (PERFORMANCE.md, Part 6). sidetrace_keyed1 is
 * the same for a key of one part and at most ST_KEYED1_MAX_LOADS loads,
 * the commonest one-liner: its verifier steps are 4,304 against 7,390,
 * which is start-up time.
 */
#ifndef SIDETRACE_KEYED_BPF_H
#define SIDETRACE_KEYED_BPF_H

/* Uses loads.bpf.h and aggregate.bpf.h. */
#if !defined(SIDETRACE_LOADS_BPF_H) || !defined(SIDETRACE_AGGREGATE_BPF_H) || \
	!defined(SIDETRACE_TRACEPOINT_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* The key sidetrace_keyed builds on its stack. */
struct st_key_buf {
	__u64 w[ST_KEYED_KEY_MAX / 8];
};

/* What keyed_parts() needs of the event besides its statement. */
struct st_keyed_in {
	__s64 v[ST_MAX_LOADS]; /* by load, its SDT value: an integer, a string's address */
	__u64 ip; /* the probe site's address in the process */
	__u32 site; /* its index */
	__u32 probe;
	__u32 ro_loads; /* st_probe_cfg.ro_loads: loads that may be keyed by address */
	__u32 ro; /* bit i: load i is a literal, v[i] its st_ro_ref offset */
	__u32 addr; /* bit k: key part k is keyed by address */
	__u32 kernel; /* bit i: load i's string is kernel memory (st_load.kernel) */
	__u32 reserved;
};

/* keyed_parts() wrote the compact form; the bits below: parts by address. */
#define ST_KEYED_COMPACT (1U << ST_MAX_PLAIN_PARTS)

/*
 * Writes key part pt of a sidetrace_keyed probe's key at offset off
 * of its parts. -1 when the part does not fit or its string could not be
 * read (counted, and the fault-in armed).
 */
static __always_inline int keyed_part(struct st_key_buf *key, __u64 off, struct st_keyed_in *in,
				      const struct st_plain_part *pt)
{
	__u32 a;
	__u64 *dst;

	a = pt->a & (ST_MAX_LOADS - 1);
	/* Each branch checks its part's size against the key's, then points at it. */
	if (pt->src == ST_P_COMM) {
		/* It fits the compact form's part; a full one's rest is the key's zeroes. */
		if (part_unused(ST_P_COMM) ||
		    off > ST_KEYED_KEY_MAX - ST_KEY_HDR - ST_COMPACT_STR_LEN)
			return -1;
		bpf_get_current_comm((__u8 *)key + ST_KEY_HDR + off, ST_COMPACT_STR_LEN);
	} else if (pt->src != ST_P_STR) {
		if (off > ST_KEYED_KEY_MAX - ST_KEY_HDR - 8)
			return -1;
		dst = (__u64 *)((__u8 *)key + ST_KEY_HDR + off);
		*dst = pt->src == ST_P_BUILTIN ? builtin(pt->a, in->probe) : in->v[a];
	} else if (part_unused(ST_P_STR)) {
		return -1;
	} else if (in->ro & (1U << a)) {
		if (off > ST_KEYED_KEY_MAX - ST_KEY_HDR - sizeof(struct st_ro_ref))
			return -1;
		dst = (__u64 *)((__u8 *)key + ST_KEY_HDR + off);
		dst[0] = in->site;
		dst[1] = in->v[a];
	} else {
		if (off > ST_KEYED_KEY_MAX - ST_KEY_HDR - ST_STR_LEN)
			return -1;
		dst = (__u64 *)((__u8 *)key + ST_KEY_HDR + off);
		if (read_str_from(dst, in->v[a], in->probe, in->kernel & (1U << a))) {
			count(in->probe, ST_C_ERR_STR);
			arm_fault_in(in->probe, a);
			return -1;
		}
	}
	return 0;
}

/* Where part pt starts among the key's parts, in the compact form when compact. */
static __always_inline __u64 part_off(const struct st_plain_part *pt, __u32 compact)
{
	return compact ? pt->coff : pt->off;
}

/*
 * keyed_part() at the part's offset in the compact form when compact, as
 * a global function: the verifier checks it once, not once per part and
 * combination of parts before it.
 */
__noinline int st_keyed_part(struct st_key_buf *key, struct st_keyed_in *in,
			     const struct st_plain_part *pt, __u32 compact)
{
	if (!key || !in || !pt)
		return -1;
	return keyed_part(key, part_off(pt, compact), in, pt);
}

/*
 * Whether string load a is a literal: then in->v[a] becomes its
 * st_ro_ref offset and bit a of in->ro is set. False: a heap string,
 * read per event.
 */
static __always_inline bool keyed_literal(struct st_keyed_in *in, const struct st_site_cfg *site,
					  __u32 a)
{
	__s64 roff;

	if (RD(in->ro) & (1U << a))
		return true;
	if (!(in->ro_loads & (1U << a)) || !ro_offset(site, in->v[a], in->ip, &roff))
		return false;
	in->v[a] = roff;
	RD(in->ro) |= 1U << a;
	return true;
}

/*
 * keyed_literal() for each string part of st, with the parts keyed by
 * address marked in in->addr: whether all are literals. A global
 * function: its loop is walked once, not once per state of the caller's.
 */
__noinline bool st_keyed_literals(struct st_keyed_in *in, const struct st_site_cfg *site,
				  const struct st_plain_stmt *st)
{
	const struct st_plain_part *pt;
	bool all = true;
	__u32 k;

	if (!in || !site || !st)
		return false;
	for (k = 0; k < ST_MAX_PLAIN_PARTS; k++) {
		if (past_parts(k) || k >= st->nr_parts)
			break;
		pt = &st->parts[k];
		if (pt->src != ST_P_STR)
			continue;
		if (keyed_literal(in, site, pt->a & (ST_MAX_LOADS - 1)))
			in->addr |= 1U << k;
		else
			all = false;
	}
	return all;
}

/*
 * Writes the key parts of statement st, a sidetrace_keyed probe's, into
 * key (zero). String parts that are literals become struct st_ro_ref;
 * the others are read in place. The compact form is used when the map
 * has one and every string part is a literal: a heap string is read once,
 * in full. The first two parts are written here: a call costs more than
 * its instructions on some CPUs (PERFORMANCE.md, Part 6), and most keys
 * have one or two parts. The others are written by st_keyed_part(): each
 * part inline at a variable stack offset multiplies the verifier's
 * states (all parts inline: 386,056 steps). Returns the parts keyed by
 * address, with ST_KEYED_COMPACT for the compact form; -1 when a part
 * could not be written (keyed_part()).
 */
static __always_inline int keyed_parts(struct st_key_buf *key, struct st_keyed_in *in,
				       const struct st_site_cfg *site,
				       const struct st_plain_stmt *st,
				       const volatile struct st_map_cfg *mc, bool one)
{
	const struct st_plain_part *pt = &st->parts[0];
	bool literals, compact;
	__u32 k;

	if (one) {
		literals =
			pt->src != ST_P_STR || keyed_literal(in, site, pt->a & (ST_MAX_LOADS - 1));
		in->addr = pt->src == ST_P_STR && literals;
	} else {
		literals = st_keyed_literals(in, site, st);
	}
	compact = mc->str_parts && literals;
	if (keyed_part(key, 0, in, pt))
		return -1;
	if (!one && st->nr_parts > 1) {
		pt = &st->parts[1];
		/* 8-aligned by the layout; the mask says so to the verifier. */
		if (keyed_part(key, part_off(pt, compact) & ~7ULL, in, pt))
			return -1;
	}
	for (k = 2; !one && k < ST_MAX_PLAIN_PARTS; k++) {
		if (past_parts(k) || k >= st->nr_parts)
			break;
		if (st_keyed_part(key, in, &st->parts[k], compact))
			return -1;
	}
	return in->addr | (compact ? ST_KEYED_COMPACT : 0);
}

/*
 * The SDT values of a keyed probe's first max loads (integers, strings'
 * addresses) into in->v, and which strings are kernel memory: 0, or -1
 * when one could not be read; from a tracepoint's record at base when tp.
 */
static __always_inline int keyed_args(struct pt_regs *ctx, __u64 base, bool tp,
				      const struct st_site_cfg *site,
				      const struct st_probe_cfg *cfg, struct st_keyed_in *in,
				      __u32 max)
{
	__u32 i, arg;

	for (i = 0; i < max; i++) {
		if (i >= cfg->nr_loads)
			break;
		arg = cfg->loads[i].sdt_arg;
		in->kernel |= (__u32)cfg->loads[i].kernel << i;
		if (arg >= ST_MAX_SDT_ARGS ||
		    (tp ? st_tp_field(base, &site->args[arg], (__u64 *)&in->v[i])
			: sdt_arg_inline(ctx, &site->args[arg], (__u64 *)&in->v[i])))
			return -1;
	}
	return 0;
}

/*
 * keyed_args() as global functions: each loop is walked once, not once
 * per state of the caller's.
 */
__noinline int st_keyed_args(struct pt_regs *ctx, const struct st_site_cfg *site,
			     const struct st_probe_cfg *cfg, struct st_keyed_in *in)
{
	if (!ctx || !site || !cfg || !in)
		return -1;
	return keyed_args(ctx, 0, false, site, cfg, in, ST_KEYED_MAX_LOADS);
}

__noinline int st_keyed_fields(__u64 base, const struct st_site_cfg *site,
			       const struct st_probe_cfg *cfg, struct st_keyed_in *in)
{
	if (!site || !cfg || !in)
		return -1;
	return keyed_args(NULL, base, true, site, cfg, in, ST_KEYED_MAX_LOADS);
}

/*
 * A keyed probe's event; tp: at a tracepoint, its fields read from the
 * record; one: the key has one part and the probe at most
 * ST_KEYED1_MAX_LOADS loads (sidetrace_keyed1).
 */
static __always_inline int keyed_event(void *ctx, bool tp, bool one)
{
	const volatile struct st_map_cfg *mc;
	const struct st_plain_stmt *st;
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	struct st_keyed_in in = {};
	struct st_key_buf key = {};
	__u32 site_idx, probe;
	__s64 val;
	int parts, ret;

	if (!cookie_cfg(ctx, &site_idx, &probe, &site, &cfg))
		return 0;
	st = &cfg->plain[0];
	mc = map_cfg(st->map);
	if (!mc)
		return 0;
	if (one)
		ret = keyed_args(ctx, 0, false, site, cfg, &in, ST_KEYED1_MAX_LOADS);
	else if (tp)
		ret = st_keyed_fields(rec_base(ctx), site, cfg, &in);
	else
		ret = st_keyed_args(ctx, site, cfg, &in);
	if (ret) {
		count(probe, ST_C_ERR_USDT);
		return 0;
	}
	if (!plain_passes(st, in.v, probe))
		return 0;
	in.ip = tp ? 0 : CTX_WORD(ctx, ST_PT_REGS_IP);
	in.site = site->ro_site;
	in.probe = probe;
	in.ro_loads = cfg->ro_loads;
	parts = keyed_parts(&key, &in, site, st, mc, one);
	if (parts < 0)
		return 0;
	val = plain_value(st, in.v, probe);
	aggregate_key((__u8 *)&key, parts & ST_KEYED_COMPACT,
		      ST_KEYED_KEY_MAX - ST_KEY_HDR - ST_KEY_BUCKET_SIZE, mc, st->map,
		      parts & (ST_KEYED_COMPACT - 1), val, probe);
	return 0;
}

#ifndef ST_ENGINE_HOST
SEC("uprobe")
int sidetrace_keyed(void *ctx)
{
	return keyed_event(ctx, false, false);
}

SEC("uprobe")
int sidetrace_keyed1(void *ctx)
{
	return keyed_event(ctx, false, true);
}

SEC("tracepoint")
int sidetrace_tp_keyed(void *ctx)
{
	if (other_process())
		return 0;
	return keyed_event(ctx, true, false);
}
#endif /* !ST_ENGINE_HOST: the in-process engine calls keyed_event() */

#endif /* SIDETRACE_KEYED_BPF_H */
