/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * sidetrace_fault_in, the sleepable program that takes the page faults
 * that sidetrace_event cannot. A non-sleepable program reads only pages
 * that are mapped already, and a string literal that the application
 * passes by pointer without ever reading it sits in a page that may never
 * have been mapped: its read fails. This sleepable program runs first at
 * the same sites (the kernel runs a probe site's newest consumer first,
 * and the collector attaches it later) and touches the pages of the
 * strings the probe will read, as the application itself would. A second
 * program at a site costs each event about as much as the first, so the
 * collector attaches it only once sidetrace_event armed it
 * (st_fault_armed) after a failed read, which it counted; and it touches
 * only the loads that failed. Dynamic fields are the exception: their
 * names and string values live wherever the application put them, and the
 * collector arms and attaches it up front for the probes that read them,
 * so that the first event is not lost. Its own failures are left for
 * sidetrace_event to count.
 */
#ifndef SIDETRACE_FAULT_IN_BPF_H
#define SIDETRACE_FAULT_IN_BPF_H

/* Uses side_abi.bpf.h, maps.bpf.h and usdt.bpf.h. */
#if !defined(SIDETRACE_SIDE_ABI_BPF_H) || !defined(SIDETRACE_MAPS_BPF_H) || \
	!defined(SIDETRACE_USDT_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* Touches the string at p, and its next page if it may go on there. */
static __always_inline void touch_str(__u64 p)
{
	char c;

	if (!p || bpf_copy_from_user(&c, 1, (const void *)p))
		return;
	if ((p & 4095) + ST_STR_LEN > 4096)
		bpf_copy_from_user(&c, 1, (const void *)((p | 4095) + 1));
}

/*
 * Follows the member path of load ld (ST_SRC_MEM) from the pointer p with
 * page faults allowed, as st_read_mem() does, and touches the string it
 * ends at.
 */
static __always_inline void fault_in_mem(__u64 p, const struct st_load *ld)
{
	const struct st_step *last;
	__u32 i, nr = ld->nr_steps;

	if (ld->want != ST_WANT_STR || !nr || nr > ST_MAX_STEPS)
		return;
	for (i = 0; i + 1 < ST_MAX_STEPS && i + 1 < nr; i++) {
		p += ld->steps[i].index;
		if (ld->steps[i].size == ST_MEM_DEREF &&
		    bpf_copy_from_user(&p, sizeof(p), (void *)p))
			return;
	}
	last = &ld->steps[(nr - 1) & (ST_MAX_STEPS - 1)];
	p += last->index;
	if (last->size && bpf_copy_from_user(&p, sizeof(p), (const void *)p))
		return;
	touch_str(p);
}

/*
 * Follows the index path of load ld from the argument vector at vec, with
 * page faults allowed, and touches the string it ends at. A global function.
 */
__noinline int st_fault_in_load(__u64 vec, const struct st_load *ld)
{
	struct side_arg_vec v;
	struct side_arg arg;
	__u32 i, nr;
	__u64 sav;

	if (!ld || ld->src != ST_SRC_VEC || ld->want != ST_WANT_STR)
		return 0;
	if (bpf_copy_from_user(&v, sizeof(v), (const void *)vec))
		return 0;
	nr = ld->nr_steps;
	for (i = 0; i < ST_MAX_STEPS; i++) {
		const struct st_step *step = &ld->steps[i];

		if (i >= nr)
			break;
		sav = (__u64)side_ptr_get(v.sav);
		if (step->index >= v.len ||
		    bpf_copy_from_user(&arg, sizeof(arg),
				       (const void *)(sav + (__u64)step->index * sizeof(arg))))
			return 0;
		if (i + 1 == nr)
			break;
		if (arg.type.v != step->label ||
		    bpf_copy_from_user(&v, sizeof(v), side_ptr_get(arg.u.side_static.side_struct)))
			return 0;
	}
	if (arg.type.v != SIDE_TYPE_STRING_UTF8)
		return 0;
	touch_str((__u64)side_ptr_get(arg.u.side_static.string_value));
	return 0;
}

/*
 * Touches the string of load ld at a site whose argument vector is vec. A
 * global function: checked once, not once per load.
 */
__noinline int st_fault_in_one(struct pt_regs *ctx, const struct st_site_cfg *site,
			       const struct st_load *ld, __u64 vec)
{
	__u64 p;

	if (!ctx || !site || !ld)
		return 0;
	if (ld->src == ST_SRC_MEM) {
		if (ld->sdt_arg < ST_MAX_SDT_ARGS && !st_sdt_arg(ctx, &site->args[ld->sdt_arg], &p))
			fault_in_mem(p, ld);
		return 0;
	}
	if (ld->src != ST_SRC_SDT)
		return st_fault_in_load(vec, ld);
	if (ld->sdt_arg < ST_MAX_SDT_ARGS && !st_sdt_arg(ctx, &site->args[ld->sdt_arg], &p))
		touch_str(p);
	return 0;
}

/*
 * Touches what st_find_dynamic() reads of a variadic event's dynamic
 * struct: the name of each of its first ST_MAX_DYN_FIELDS fields and the
 * value of those that are strings. Names are looked up at every event, so
 * all of them, whichever loads armed it. A global function.
 */
__noinline int st_fault_in_dyn(__u64 dyn)
{
	struct side_arg_dynamic_struct ds;
	struct side_arg_dynamic_field f;
	__u64 fields;
	__u32 i;

	if (!dyn || bpf_copy_from_user(&ds, sizeof(ds), (const void *)dyn))
		return 0;
	fields = (__u64)side_ptr_get(ds.fields);
	for (i = 0; i < ST_MAX_DYN_FIELDS; i++) {
		if (i >= ds.len ||
		    bpf_copy_from_user(&f, sizeof(f),
				       (const void *)(fields + (__u64)i * sizeof(f))))
			break;
		touch_str((__u64)side_ptr_get(f.field_name));
		if (f.elem.type.v == SIDE_TYPE_DYNAMIC_STRING)
			touch_str(f.elem.u.side_dynamic.side_string.value);
	}
	return 0;
}

/* Touches the strings of the loads that sidetrace_event armed for this probe. */
SEC("uprobe")
int sidetrace_fault_in(void *ctx)
{
	__u64 cookie = bpf_get_attach_cookie(ctx);
	__u32 key = ST_COOKIE_SITE(cookie), probe = ST_COOKIE_PROBE(cookie), i, *armed, loads;
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	__u64 vec = 0, dstruct;
	bool dyn = false;

	site = bpf_map_lookup_elem(&st_sites, &key);
	if (!site)
		return 0;
	armed = bpf_map_lookup_elem(&st_fault_armed, &probe);
	if (!armed || !*armed)
		return 0;
	cfg = bpf_map_lookup_elem(&st_probes, &probe);
	if (!cfg)
		return 0;
	if (cfg->need_vec && cfg->vec_arg < ST_MAX_SDT_ARGS &&
	    st_sdt_arg(ctx, &site->args[cfg->vec_arg], &vec))
		return 0;
	loads = *armed;
	for (i = 0; i < ST_MAX_LOADS; i++) {
		if (i >= cfg->nr_loads)
			break;
		if (!(loads & (1U << i)))
			continue;
		/* A dynamic field of any type is found by its name, a string. */
		if (cfg->loads[i].src == ST_SRC_DYN)
			dyn = true;
		else if (cfg->str_loads & (1U << i))
			st_fault_in_one(ctx, site, &cfg->loads[i], vec);
	}
	if (dyn && cfg->variadic && cfg->dyn_arg < ST_MAX_SDT_ARGS &&
	    !st_sdt_arg(ctx, &site->args[cfg->dyn_arg], &dstruct))
		st_fault_in_dyn(dstruct);
	return 0;
}

#endif /* SIDETRACE_FAULT_IN_BPF_H */
