/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The fields of tracepoint: probes (sidetrace_tp, kernel.bpf.h, and the
 * specialized tracepoint programs). Their context is the tracepoint's
 * record; its "site" says where each field is in it
 * (ST_LOC_TP*, from the tracepoint's format), and the fields become the
 * SDT arguments that the loads and the stack machine read as for any
 * other probe. The record is kernel memory: read with
 * bpf_probe_read_kernel(), as are its strings (st_load.kernel).
 */
#ifndef SIDETRACE_TRACEPOINT_BPF_H
#define SIDETRACE_TRACEPOINT_BPF_H

/* Uses loads.bpf.h and interp.bpf.h. */
#if !defined(SIDETRACE_LOADS_BPF_H) || !defined(SIDETRACE_INTERP_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/*
 * The record's address as a number: the verifier tracks a context
 * pointer plus an offset as a pointer, and a program that keeps such
 * values (the addresses of strings in the record) in its state explodes
 * its search; copied through the stack by a helper, it is a plain number.
 */
static __always_inline __u64 rec_base(void *ctx)
{
	__u64 base = 0;
	void *p = ctx;

	bpf_probe_read_kernel(&base, sizeof(base), &p);
	return base;
}

/* Offsets into a record are below 64 KiB (a __data_loc holds 16 bits of one). */
#define TP_OFF(x) ((__u32)(x)&0xffff)

/*
 * Field a of the record at base, as an SDT argument's value; 0 or an
 * error. A global function: the verifier checks its three ways once, not
 * at every field of every program (6.1's gave up on sidetrace_tp_keyed).
 */
__noinline int st_tp_field(__u64 base, const struct st_arg_spec *a, __u64 *out)
{
	__u32 n, loc = 0;
	__u64 v = 0;

	if (!a || !out)
		return ST_C_ERR_USDT;
	n = a->size < 0 ? -a->size : a->size;
	switch (a->loc) {
	case ST_LOC_TP:
		if (n > 8 || bpf_probe_read_kernel(&v, n & 15, (void *)(base + TP_OFF(a->val))))
			return ST_C_ERR_USDT;
		*out = sign_extend(v, n, a->size < 0);
		return 0;
	case ST_LOC_TP_ADDR:
		*out = base + TP_OFF(a->val);
		return 0;
	case ST_LOC_TP_DATA_LOC:
		if (bpf_probe_read_kernel(&loc, sizeof(loc), (void *)(base + TP_OFF(a->val))))
			return ST_C_ERR_USDT;
		*out = base + TP_OFF(loc);
		return 0;
	default:
		return ST_C_ERR_USDT;
	}
}

#ifndef ST_ENGINE_HOST
/* What the steps of read_tp_fields()'s bpf_loop() need. */
struct tp_fields_ctx {
	__u64 base;
	const struct st_site_cfg *site;
	struct st_scratch *s;
	__u32 mask;
};

/* One bpf_loop() step: field i, if in the mask; 1 once no later field is. */
static long tp_field_step(__u32 i, void *data)
{
	struct tp_fields_ctx *c = data;

	if (i >= ST_MAX_SDT_ARGS || !(c->mask >> i))
		return 1;
	if ((c->mask & (1U << i)) && st_tp_field(c->base, &c->site->args[i], &c->s->sdt[i]))
		c->s->sdt_bad |= 1U << i;
	return 0;
}

/*
 * The fields in mask into s->sdt, those that could not be read marked in
 * s->sdt_bad. A bpf_loop(): its step is verified once, where a loop's
 * rounds were each verified with and without their field.
 */
static __always_inline void read_tp_fields(__u64 base, const struct st_site_cfg *site, __u32 mask,
					   struct st_scratch *s)
{
	struct tp_fields_ctx c = {.base = base, .site = site, .s = s, .mask = mask};

	s->sdt_bad = 0;
	bpf_loop(ST_MAX_SDT_ARGS, tp_field_step, &c, 0);
}
#endif /* !ST_ENGINE_HOST: the in-process engine serves no tracepoint */

#endif /* SIDETRACE_TRACEPOINT_BPF_H */
