/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * sidetrace_fentry and sidetrace_fexit: the programs of fentry: and
 * fexit: probes, called by the kernel's BPF trampoline of a function
 * with its arguments (and at exit its return value) in a context the
 * helpers read: the site's specs say which (ST_LOC_FUNC_ARG, _RET), and
 * the values become the SDT arguments that the loads and the stack
 * machine read as for any other probe. The verifier checks a program of
 * this type for the one function it is loaded for, so the collector
 * loads one instance per probe and function (runtime/trampolines.c);
 * the primary object never loads them.
 */
#ifndef SIDETRACE_FENTRY_BPF_H
#define SIDETRACE_FENTRY_BPF_H

/* Uses loads.bpf.h and interp.bpf.h. */
#if !defined(SIDETRACE_LOADS_BPF_H) || !defined(SIDETRACE_INTERP_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* The arguments in mask into s->sdt, those that could not be read marked in s->sdt_bad. */
static __always_inline void read_func_args(void *ctx, const struct st_site_cfg *site, __u32 mask,
					   struct st_scratch *s)
{
	const struct st_arg_spec *a;
	__u64 v;
	__u32 i;
	long err;

	s->sdt_bad = 0;
	for (i = 0; i < ST_MAX_SDT_ARGS; i++) {
		if (!(mask >> i))
			break;
		if (!(mask & (1U << i)))
			continue;
		a = &site->args[i];
		v = 0;
		if (a->loc == ST_LOC_FUNC_RET)
			err = bpf_get_func_ret(ctx, &v);
		else
			err = bpf_get_func_arg(ctx, a->val & 15, &v);
		if (err)
			s->sdt_bad |= 1U << i;
		else
			s->sdt[i] = v;
	}
}

static __always_inline int on_trampoline(void *ctx)
{
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	struct st_scratch *s;
	__u32 probe;

	if (other_process())
		return 0;
	s = enter_probe(ctx, &site, &cfg, &probe);
	if (!s)
		return 0;
	decode_begin(s);
	if (cfg->nr_loads) {
		read_func_args(ctx, site, cfg->sdt_mask, s);
		decode_loads(cfg, s, probe);
	}
	take_stacks(ctx, cfg, s);
	run(cfg, s, probe);
	RD(s->busy) = 0;
	return 0;
}

SEC("fentry")
int sidetrace_fentry(void *ctx)
{
	return on_trampoline(ctx);
}

SEC("fexit")
int sidetrace_fexit(void *ctx)
{
	return on_trampoline(ctx);
}

#endif /* SIDETRACE_FENTRY_BPF_H */
