/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The fields of fentry: and fexit: probes (sidetrace_fentry and
 * sidetrace_fexit, kernel.bpf.h), called by the kernel's BPF trampoline
 * of a function with its arguments (and at exit its return value) in a
 * context the helpers read: the site's specs say which (ST_LOC_FUNC_ARG,
 * _RET), and the values become the SDT arguments that the loads and the
 * stack machine read as for any other probe.
 */
#ifndef SIDETRACE_FENTRY_BPF_H
#define SIDETRACE_FENTRY_BPF_H

/* Uses scratch.bpf.h. */
#if !defined(SIDETRACE_SCRATCH_BPF_H)
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

#endif /* SIDETRACE_FENTRY_BPF_H */
