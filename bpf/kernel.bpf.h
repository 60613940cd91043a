/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The interpreters of kernel events, one body: sidetrace_tp
 * (tracepoints, fields from the record; sidetrace_tp_print and
 * sidetrace_tp_builtins on the stack machine's smaller copies for
 * clauses that only print), sidetrace_profile (a CPU
 * clock's samples, no fields) and sidetrace_fentry, sidetrace_fexit (a
 * function's trampoline, its arguments). The verifier checks a tracing
 * program for the one function it is loaded for, so the collector loads
 * fentry and fexit in an instance per probe and function
 * (bpfload/trampolines.c), sidetrace_iter in one for its iterator
 * (bpfload/iters.c); the primary object never loads them.
 */
#ifndef SIDETRACE_KERNEL_BPF_H
#define SIDETRACE_KERNEL_BPF_H

/* Uses interp.bpf.h, tracepoint.bpf.h and fentry.bpf.h. */
#if !defined(SIDETRACE_INTERP_BPF_H) || !defined(SIDETRACE_TRACEPOINT_BPF_H) || \
	!defined(SIDETRACE_FENTRY_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* Where an event's fields are: a constant of each program, folded away. */
enum fields_from {
	FIELDS_NONE, /* a profile's sample */
	FIELDS_RECORD, /* a tracepoint's record */
	FIELDS_TRAMPOLINE, /* a trampoline's arguments */
};

/*
 * A constant of the instance the collector loads for one function or
 * iterator (bpfload/instance.h), its own: what path() names (ST_DPATH_*),
 * 0 where the clauses call no path(). The code that names it is dead
 * then, so the verifier checks bpf_d_path() only where the clauses call
 * it, in the programs the kernel allows it (an iterator's, some
 * functions' trampolines).
 */
const volatile __u32 st_dpath SEC(".rodata.inst");

/*
 * Word w of the context, each at its constant offset, which the verifier
 * types from BTF (a trampoline's argument, an iterator's member).
 */
static __always_inline void *ctx_word(void *ctx, __u32 w)
{
	switch (w) {
	case 0:
		return (void *)CTX_WORD(ctx, 0);
	case 1:
		return (void *)CTX_WORD(ctx, 1);
	case 2:
		return (void *)CTX_WORD(ctx, 2);
	case 3:
		return (void *)CTX_WORD(ctx, 3);
	case 4:
		return (void *)CTX_WORD(ctx, 4);
	case 5:
		return (void *)CTX_WORD(ctx, 5);
	}
	return 0;
}

/*
 * path(): the kernel names the path (bpf_d_path()) into the string the
 * clauses read; "" where it cannot (a path longer than a string).
 */
static __always_inline void name_path(void *ctx, struct st_scratch *s)
{
	char *b = s->strs[ST_STR_REF_DPATH].b;
	void *p = ctx_word(ctx, ST_DPATH_WORD(st_dpath));

	zero_words(b, ST_STR_LEN / 8);
	if (p && (st_dpath & ST_DPATH_FILE))
		p = (char *)p + ST_DPATH_OFF(st_dpath);
	if (p && bpf_d_path(p, b, ST_STR_LEN) < 0)
		zero_words(b, ST_STR_LEN / 8);
}

/* The event's clauses run on scratch s; m: the copy of the stack machine they fit. */
static __always_inline int run_kernel_event(void *ctx, struct st_scratch *s,
					    const struct st_site_cfg *site,
					    const struct st_probe_cfg *cfg, __u32 probe,
					    enum fields_from from, enum st_machine m)
{
	decode_begin(s);
	/* st_srcs_used: no probe of the session reads a field. */
	if (from != FIELDS_NONE && st_srcs_used && cfg->nr_loads) {
		if (from == FIELDS_RECORD)
			read_tp_fields(rec_base(ctx), site, cfg->sdt_mask, s);
		else
			read_func_args(ctx, site, cfg->sdt_mask, s);
		decode_loads(cfg, s, probe);
	}
	take_stacks(ctx, cfg, s);
	run(cfg, s, probe, m);
	RD(s->busy) = 0;
	return 0;
}

/* m: the copy of the stack machine the probe's code fits (enum st_machine). */
static __always_inline int on_kernel_event(void *ctx, enum fields_from from, enum st_machine m)
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
	/* A trampoline's path() of an argument. */
	if (from == FIELDS_TRAMPOLINE && st_dpath)
		name_path(ctx, s);
	return run_kernel_event(ctx, s, site, cfg, probe, from, m);
}

SEC("tracepoint")
int sidetrace_tp(void *ctx)
{
	return on_kernel_event(ctx, FIELDS_RECORD, ST_MACHINE_ALL);
}

/* A tracepoint whose clauses only print: the stack machine's copy for them. */
SEC("tracepoint")
int sidetrace_tp_print(void *ctx)
{
	return on_kernel_event(ctx, FIELDS_RECORD, ST_MACHINE_PRINT);
}

/* A tracepoint whose clauses print builtins only: no field is read. */
SEC("tracepoint")
int sidetrace_tp_builtins(void *ctx)
{
	return on_kernel_event(ctx, FIELDS_NONE, ST_MACHINE_BUILTINS);
}

/*
 * profile:hz:N: a CPU clock's sample on every CPU; no arguments, the
 * clauses read what the task was doing (ustack, kstack, comm, pid).
 */
SEC("perf_event")
int sidetrace_profile(void *ctx)
{
	return on_kernel_event(ctx, FIELDS_NONE, ST_MACHINE_ALL);
}

SEC("fentry")
int sidetrace_fentry(void *ctx)
{
	return on_kernel_event(ctx, FIELDS_TRAMPOLINE, ST_MACHINE_ALL);
}

SEC("fexit")
int sidetrace_fexit(void *ctx)
{
	return on_kernel_event(ctx, FIELDS_TRAMPOLINE, ST_MACHINE_ALL);
}

/*
 * iter:TARGET: the context the kernel's iterator hands its program: the
 * iteration's state, then the object (a task, ...) and what else the
 * target has, which the clauses read through ctx typed from the kernel's
 * BTF (struct bpf_iter__TARGET).
 */
struct st_iter_meta {
	void *seq; /* struct seq_file *: what read() of the iterator returns */
};

struct st_iter_ctx {
	struct st_iter_meta *meta;
	__u64 object;
};

/*
 * Set by the collector before it reads the iterator: the cookie of the
 * session's one iter: probe (an iterator's link takes none).
 */
__u64 st_iter_cookie;

/*
 * iter:TARGET, loaded for its target in an instance of its own
 * (bpfload/iters.h). The kernel calls it in the collector's read() of
 * the iterator, once per object and once more with none, which bpftrace
 * skips as well; -p and -c filter no object. A byte per object into the
 * iterator's output paces that read: it returns after as many objects as
 * it asked bytes for, and the collector empties the ring in between.
 */
SEC("iter/task")
int sidetrace_iter(struct st_iter_ctx *ctx)
{
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	struct st_scratch *s;
	__u32 site_idx, probe;
	char beat = 0;

	if (!ctx->object)
		return 0;
	bpf_seq_write(ctx->meta->seq, &beat, sizeof(beat));
	if (!cfg_of_cookie(st_iter_cookie, &site_idx, &probe, &site, &cfg))
		return 0;
	s = scratch_take(ctx, site_idx, probe);
	if (!s)
		return 0;
	if (st_dpath)
		name_path(ctx, s);
	return run_kernel_event(ctx, s, site, cfg, probe, FIELDS_NONE, ST_MACHINE_ALL);
}

#endif /* SIDETRACE_KERNEL_BPF_H */
