/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The values a probe's statements read: its loads (st_probe_cfg.loads),
 * decoded at every event into the scratch from the SDT arguments or the
 * argument vector, with the event's first decode error counted and the
 * fault-in armed for strings that could not be read; and the integer
 * builtins (pid, tid, nsecs, cpu, uid, probe).
 */
#ifndef SIDETRACE_LOADS_BPF_H
#define SIDETRACE_LOADS_BPF_H

/* Uses maps.bpf.h, scratch.bpf.h, usdt.bpf.h and decode.bpf.h. */
#if !defined(SIDETRACE_MAPS_BPF_H) || !defined(SIDETRACE_SCRATCH_BPF_H) || \
	!defined(SIDETRACE_USDT_BPF_H) || !defined(SIDETRACE_DECODE_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* From now on, have sidetrace_fault_in page in the string of load i. */
static __always_inline void arm_fault_in(__u32 probe, __u32 load)
{
	__u32 *armed = bpf_map_lookup_elem(&st_fault_armed, &probe);

	if (armed && !(*armed & (1U << load)))
		__sync_fetch_and_or(armed, 1U << load);
}

/*
 * Decodes load ld, a top-level field from its SDT argument (ST_SRC_SDT),
 * into value slot slot < ST_MAX_LOADS.
 */
static __always_inline int decode_sdt(struct st_scratch *s, const struct st_load *ld, __u32 slot,
				      __u32 probe)
{
	__u32 arg;

	arg = ld->sdt_arg;
	if (arg >= ST_MAX_SDT_ARGS || (s->sdt_bad & (1U << arg)))
		return ST_C_ERR_USDT;
	if (ld->want == ST_WANT_STR && ld->len_arg1) {
		__u32 len_arg = ld->len_arg1 - 1;

		if (len_arg >= ST_MAX_SDT_ARGS || (s->sdt_bad & (1U << len_arg)))
			return ST_C_ERR_USDT;
		return st_read_str_len(&s->strs[slot], s->sdt[arg], s->sdt[len_arg], probe);
	}
	if (ld->want == ST_WANT_STR && ld->kernel)
		return st_read_kernel_str(&s->strs[slot], s->sdt[arg], probe);
	if (ld->want == ST_WANT_STR)
		return st_read_str(&s->strs[slot], s->sdt[arg], probe);
	s->vals[slot] = s->sdt[arg];
	return 0;
}

/* Reads n bytes at addr: the application's memory, or the kernel's (st_load.kernel). */
static __always_inline long read_mem(void *dst, __u32 n, __u64 addr, bool kernel)
{
	return kernel ? bpf_probe_read_kernel(dst, n, (const void *)addr)
		      : bpf_probe_read_user(dst, n, (const void *)addr);
}

/*
 * Decodes load ld (ST_SRC_MEM, sidetrace.h): memory reached from a pointer
 * in an SDT argument, every read bounded and checked. A global function.
 */
__noinline int st_read_mem(struct st_scratch *s, const struct st_load *ld, __u32 slot, __u32 probe)
{
	const struct st_step *last;
	__u32 arg, nr, i, n;
	__u64 addr, v = 0;

	if (!s || !ld || slot >= ST_MAX_LOADS)
		return ST_C_ERR_ARG;
	arg = ld->sdt_arg;
	nr = ld->nr_steps;
	if (arg >= ST_MAX_SDT_ARGS || (s->sdt_bad & (1U << arg)) || !nr || nr > ST_MAX_STEPS)
		return ST_C_ERR_USDT;
	addr = s->sdt[arg];
	for (i = 0; i + 1 < ST_MAX_STEPS && i + 1 < nr; i++) {
		addr += ld->steps[i].index;
		if (ld->steps[i].size == ST_MEM_DEREF &&
		    read_mem(&addr, sizeof(addr), addr, ld->kernel))
			return ST_C_ERR_ARG;
	}
	last = &ld->steps[(nr - 1) & (ST_MAX_STEPS - 1)];
	addr += last->index;
	if (ld->want == ST_WANT_STR) {
		if (last->size && read_mem(&addr, sizeof(addr), addr, ld->kernel))
			return ST_C_ERR_ARG;
		if (ld->kernel)
			return st_read_kernel_str(&s->strs[slot & (ST_MAX_LOADS - 1)], addr, probe);
		return st_read_str(&s->strs[slot & (ST_MAX_LOADS - 1)], addr, probe);
	}
	n = last->size;
	if (!n || n > 8 || read_mem(&v, n & 15, addr, ld->kernel))
		return ST_C_ERR_ARG;
	if (last->label == SIDE_TYPE_BOOL)
		v = sign_extend(v, n, false) != 0;
	else
		v = sign_extend(v, n,
				last->label == SIDE_TYPE_S8 || last->label == SIDE_TYPE_S16 ||
					last->label == SIDE_TYPE_S32 ||
					last->label == SIDE_TYPE_S64);
	s->vals[slot & (ST_MAX_LOADS - 1)] = v;
	return 0;
}

/*
 * Whether the string at p lies in the site's read-only segment (its
 * literals), and if so its offset from the site's address ip, which
 * holds in every process whatever the load base: *off.
 */
static __always_inline bool ro_offset(const struct st_site_cfg *site, __u64 p, __u64 ip, __s64 *off)
{
	*off = p - ip;
	return (__u64)(*off - site->ro_lo) < site->ro_len;
}

/*
 * String load ld of a sidetrace_plain probe, as the offset of a struct
 * st_ro_ref into value slot slot when it points into the site's read-only
 * segment: no read, no copy, and a key part of two words instead of
 * ST_STR_LEN bytes. False: it is read as usual.
 */
static __always_inline bool ro_string(struct st_scratch *s, const struct st_site_cfg *site,
				      const struct st_load *ld, __u32 slot)
{
	__u32 arg = ld->sdt_arg;
	__s64 off;

	if (arg >= ST_MAX_SDT_ARGS || (s->sdt_bad & (1U << arg)))
		return false;
	if (!ro_offset(site, s->sdt[arg], s->ip, &off))
		return false;
	s->vals[slot & (ST_MAX_LOADS - 1)] = off;
	s->addr_loads |= 1U << slot;
	return true;
}

/*
 * Records how load i went in s->ok or s->first_err, and arms the
 * fault-in for a string that could not be read.
 */
static __always_inline void load_done(struct st_scratch *s, __u32 i, int err, __u32 probe)
{
	if (!err) {
		s->ok |= 1U << i;
		return;
	}
	if (!s->first_err)
		s->first_err = err;
	if (err == ST_C_ERR_STR)
		arm_fault_in(probe, i);
}

/* Whether no probe of the session has a load from src: a constant once loaded (st_srcs_used). */
static __always_inline bool src_unused(__u32 src)
{
	return !(st_srcs_used & (1U << src));
}

/*
 * Decodes load i of the probe into value slot i. A global function: the
 * verifier checks it once, not once per load, which keeps the program far
 * below its complexity limit.
 */
__noinline int st_decode_load(struct st_scratch *s, const struct st_probe_cfg *cfg, __u32 i,
			      __u32 probe)
{
	const struct st_load *ld;
	int err;

	if (!s || !cfg || i >= ST_MAX_LOADS)
		return 0;
	ld = &cfg->loads[i];
	/* A load from a source no probe of the session has never comes: that code is dead. */
	err = ST_C_ERR_USDT;
	if (ld->src == ST_SRC_SDT) {
		if (!src_unused(ST_SRC_SDT))
			err = decode_sdt(s, ld, i, probe);
	} else if (ld->src == ST_SRC_MEM) {
		if (!src_unused(ST_SRC_MEM))
			err = st_read_mem(s, ld, i, probe);
	} else if (ld->src == ST_SRC_DYN) {
		if (!src_unused(ST_SRC_DYN))
			err = st_find_dynamic(s, ld);
		if (!err)
			err = st_decode_value(s, ld, 0, i, probe);
	} else if (!src_unused(ST_SRC_VEC)) {
		err = st_follow_path(s, ld);
		if (!err)
			err = st_decode_value(s, ld, ld->nr_steps - 1, i, probe);
	}
	load_done(s, i, err, probe);
	return 0;
}

/* Decodes load i of a sidetrace_plain probe (SDT values only). */
__noinline int st_plain_load(struct st_scratch *s, const struct st_probe_cfg *cfg,
			     const struct st_site_cfg *site, __u32 i, __u32 probe)
{
	if (!s || !cfg || !site || i >= ST_MAX_LOADS)
		return 0;
	if ((cfg->ro_loads & (1U << i)) && ro_string(s, site, &cfg->loads[i], i)) {
		s->ok |= 1U << i;
		return 0;
	}
	load_done(s, i, decode_sdt(s, &cfg->loads[i], i, probe), probe);
	return 0;
}

/* An event's decoding starts with nothing decoded. */
static __always_inline void decode_begin(struct st_scratch *s)
{
	s->ok = 0;
	s->first_err = 0;
	s->comm_done = 0;
	s->top_err = 0;
	s->dyn = 0;
}

/* Decodes the loads, once their SDT arguments are read; counts the event's first error. */
static __always_inline void decode_loads(const struct st_probe_cfg *cfg, struct st_scratch *s,
					 __u32 probe)
{
	__u32 i;

	if (!st_srcs_used)
		return;
	for (i = 0; i < ST_MAX_LOADS; i++) {
		if (i >= cfg->nr_loads)
			break;
		st_decode_load(s, cfg, i, probe);
	}
	if (RD(s->first_err))
		count(probe, RD(s->first_err));
}

/* Decodes every load of the probe; an event counts its first error only. */
static __always_inline void decode_all(void *ctx, const struct st_site_cfg *site,
				       const struct st_probe_cfg *cfg, struct st_scratch *s,
				       __u32 probe)
{
	__u32 arg;

	decode_begin(s);
	if (cfg->nr_loads == 0 && !cfg->whole)
		return;
	st_read_sdt(ctx, site, cfg->sdt_mask, s);
	arg = cfg->vec_arg;
	if (cfg->need_vec) {
		if (arg >= ST_MAX_SDT_ARGS || (s->sdt_bad & (1U << arg))) {
			s->top_err = ST_C_ERR_USDT;
		} else if (bpf_probe_read_user(&s->vec, sizeof(s->vec),
					       (const void *)s->sdt[arg])) {
			s->top_err = ST_C_ERR_VEC;
		} else {
			s->top_sav = (__u64)side_ptr_get(s->vec.sav);
			s->top_len = s->vec.len;
		}
	}
	arg = cfg->dyn_arg;
	if (cfg->variadic) {
		if (arg >= ST_MAX_SDT_ARGS || (s->sdt_bad & (1U << arg)))
			s->first_err = ST_C_ERR_USDT;
		else
			s->dyn = s->sdt[arg];
	}
	decode_loads(cfg, s, probe);
}

/*
 * Integer builtin id (enum st_builtin_id, below ST_BI_FIRST_INTERP) of
 * this event; probe is its own.
 */
static __always_inline __s64 builtin(__u8 id, __u32 probe)
{
	switch (id) {
	case ST_BI_PID:
		return bpf_get_current_pid_tgid() >> 32;
	case ST_BI_TID:
		return (__u32)bpf_get_current_pid_tgid();
	case ST_BI_NSECS:
		return bpf_ktime_get_ns();
	case ST_BI_CPU:
		return bpf_get_smp_processor_id();
	case ST_BI_UID:
		return (__u32)bpf_get_current_uid_gid();
	case ST_BI_PROBE:
		return probe;
	case ST_BI_CGROUP:
		return bpf_get_current_cgroup_id();
	case ST_BI_USTACK:
	case ST_BI_KSTACK:
		/* Taken by take_stacks() into the scratch: only the stack machine reads them. */
		return 0;
	case ST_BI_RAND:
		return bpf_get_prandom_u32();
	default:
		return 0;
	}
}

/* The integer of plain part pt, ST_P_INT or ST_P_BUILTIN; vals: the loads' values, by load. */
static __always_inline __s64 plain_int(const struct st_plain_part *pt, const __s64 *vals,
				       __u32 probe)
{
	if (pt->src == ST_P_BUILTIN)
		return builtin(pt->a, probe);
	return vals[pt->a & (ST_MAX_LOADS - 1)];
}

/*
 * Whether plain statement st runs for this event: its clause's filter
 * holds. Inline, comparisons only: a call per event cost 10 ns more
 * (PERFORMANCE.md, Part 6). A session without filters leaves this dead
 * to the verifier.
 */
static __always_inline bool plain_passes(const struct st_plain_stmt *st, const __s64 *vals,
					 __u32 probe)
{
	if (op_unused(ST_I_FILTER) || !st->filtered)
		return true;
	return st_compare(st->filter_op, plain_int(&st->filter, vals, probe), st->filter_imm);
}

/* The value plain statement st aggregates; vals: its loads' values, by load. */
static __always_inline __s64 plain_value(const struct st_plain_stmt *st, const __s64 *vals,
					 __u32 probe)
{
	const struct st_plain_part *v = &st->value;

	if (v->src == ST_P_CONST)
		return st->imm;
	return plain_int(v, vals, probe);
}

#endif /* SIDETRACE_LOADS_BPF_H */
