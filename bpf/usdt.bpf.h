/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The SDT arguments of a probe site: where each one is (st_arg_spec, from
 * the site's note) and how it is read from the uprobe's struct pt_regs or
 * the memory a register points to, widened as its size says. Reads nothing
 * of the SIDE ABI: that is decode.bpf.h.
 */
#ifndef SIDETRACE_USDT_BPF_H
#define SIDETRACE_USDT_BPF_H

/* Uses scratch.bpf.h. */
#if !defined(SIDETRACE_SCRATCH_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* The low size bytes of raw as a 64-bit value, widened as is_signed says. */
static __always_inline __s64 sign_extend(__u64 raw, __u32 size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (__s64)(__s8)raw : (__s64)(__u8)raw;
	case 2:
		return is_signed ? (__s64)(__s16)raw : (__s64)(__u16)raw;
	case 4:
		return is_signed ? (__s64)(__s32)raw : (__s64)(__u32)raw;
	default:
		/* 8 bytes; 128-bit values keep their low 64 bits. */
		return (__s64)raw;
	}
}

/*
 * Reads 8-byte word reg of the uprobe's struct pt_regs. The verifier
 * allows only constant offsets into the context, and the compiler could
 * merge the cases of a plain switch into one load at a computed offset:
 * each case is an inline assembly load at its own constant offset. The
 * in-process engine has a CTX_WORD of its own (userspace/lib/inproc).
 */
#ifndef CTX_WORD
#define CTX_WORD(ctx, i) \
	({ \
		__u64 __v; \
		asm volatile("%[v] = *(u64 *)(%[c] + %[o])" \
			     : [v] "=r"(__v) \
			     : [c] "r"(ctx), [o] "i"((i)*8)); \
		__v; \
	})
#endif

/*
 * The word of struct pt_regs that holds the instruction pointer: at a
 * uprobe, the probed address (the kernel sets it before the handlers).
 */
#define ST_PT_REGS_IP 16

/* Word reg of the uprobe's struct pt_regs; 0 beyond the 21 it has (ST_NO_REG). */
static __always_inline __u64 sdt_reg(struct pt_regs *ctx, __u32 reg)
{
	switch (reg) {
	case 0:
		return CTX_WORD(ctx, 0);
	case 1:
		return CTX_WORD(ctx, 1);
	case 2:
		return CTX_WORD(ctx, 2);
	case 3:
		return CTX_WORD(ctx, 3);
	case 4:
		return CTX_WORD(ctx, 4);
	case 5:
		return CTX_WORD(ctx, 5);
	case 6:
		return CTX_WORD(ctx, 6);
	case 7:
		return CTX_WORD(ctx, 7);
	case 8:
		return CTX_WORD(ctx, 8);
	case 9:
		return CTX_WORD(ctx, 9);
	case 10:
		return CTX_WORD(ctx, 10);
	case 11:
		return CTX_WORD(ctx, 11);
	case 12:
		return CTX_WORD(ctx, 12);
	case 13:
		return CTX_WORD(ctx, 13);
	case 14:
		return CTX_WORD(ctx, 14);
	case 15:
		return CTX_WORD(ctx, 15);
	case 16:
		return CTX_WORD(ctx, 16);
	case 17:
		return CTX_WORD(ctx, 17);
	case 18:
		return CTX_WORD(ctx, 18);
	case 19:
		return CTX_WORD(ctx, 19);
	case 20:
		return CTX_WORD(ctx, 20);
	default:
		return 0;
	}
}

/*
 * The value of an SDT argument, widened as its size says; 0 or an error.
 * A global function: the verifier explores the 21 ways of its register
 * read once, not at every SDT argument read of its callers.
 */
__noinline int st_sdt_arg(struct pt_regs *ctx, const struct st_arg_spec *a, __u64 *out)
{
	__u64 v = 0, reg;
	__s8 size;
	__u32 n;

	if (!ctx || !a || !out)
		return ST_C_ERR_USDT;
	size = a->size;
	n = size < 0 ? -size : size;
	if (a->loc == ST_LOC_CONST) {
		*out = a->val;
		return 0;
	}
	reg = sdt_reg(ctx, a->reg);
	if (a->loc == ST_LOC_MEM_INDEX)
		reg += sdt_reg(ctx, a->idx_reg) * a->scale;
	if (a->loc == ST_LOC_REG)
		v = reg;
	else if (a->loc == ST_LOC_REG_OFFSET)
		v = reg + a->val;
	/* Little-endian: the value's bytes are the low ones. */
	else if ((a->loc != ST_LOC_MEM && a->loc != ST_LOC_MEM_INDEX) || n > 8 ||
		 bpf_probe_read_user(&v, n, (const void *)(reg + a->val)))
		return ST_C_ERR_USDT;
	*out = sign_extend(v, n, size < 0);
	return 0;
}

/*
 * Reads SDT argument a into *out: an argument in a register here, inline,
 * any other through st_sdt_arg(). Two calls per argument cost about 20
 * ns an event in sidetrace_keyed (PERFORMANCE.md, Part 6).
 */
static __always_inline int sdt_arg_inline(struct pt_regs *ctx, const struct st_arg_spec *a,
					  __u64 *out)
{
	__s8 size = a->size;

	if (a->loc != ST_LOC_REG)
		return st_sdt_arg(ctx, a, out);
	*out = sign_extend(sdt_reg(ctx, a->reg), size < 0 ? -size : size, size < 0);
	return 0;
}

/*
 * Reads the SDT arguments in mask into s->sdt, marking those that could
 * not be read in s->sdt_bad. A global function: its loop is walked once.
 * In a process's engine every argument is a "register" (the event's
 * value), read inline: a call per argument was a sixth of a printf.
 */
__noinline int st_read_sdt(struct pt_regs *ctx, const struct st_site_cfg *site, __u32 mask,
			   struct st_scratch *s)
{
	__u32 i;

	if (!ctx || !site || !s)
		return 0;
	s->sdt_bad = 0;
	for (i = 0; i < ST_MAX_SDT_ARGS; i++) {
		if (!(mask >> i))
			break;
#ifdef ST_ENGINE_HOST
		if ((mask & (1U << i)) && sdt_arg_inline(ctx, &site->args[i], &s->sdt[i]))
#else
		if ((mask & (1U << i)) && st_sdt_arg(ctx, &site->args[i], &s->sdt[i]))
#endif
			s->sdt_bad |= 1U << i;
	}
	return 0;
}

#endif /* SIDETRACE_USDT_BPF_H */
