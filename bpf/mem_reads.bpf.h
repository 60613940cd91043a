/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The stack machine's reads of memory at computed addresses: *p, str(p),
 * str(p, n), buf(p, n) (ST_I_READ, ST_I_READ_STR, ST_I_READ_BUF). What
 * cannot be read reads 0, "" or no bytes, as bpftrace reads it; under
 * -kk the failed read is reported at its place (out_helper_err()).
 */
#ifndef SIDETRACE_MEM_READS_BPF_H
#define SIDETRACE_MEM_READS_BPF_H

/* Uses scratch.bpf.h, loads.bpf.h, send.bpf.h and stack.bpf.h. */
#if !defined(SIDETRACE_SCRATCH_BPF_H) || !defined(SIDETRACE_LOADS_BPF_H) || \
	!defined(SIDETRACE_SEND_BPF_H) || !defined(SIDETRACE_STACK_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* ST_I_READ: the integer at the address popped pushed, 0 where it cannot be read. */
static __always_inline void read_int_insn(struct st_scratch *s, const struct st_insn *in,
					  __u32 probe)
{
	__u32 n = in->a & ST_READ_SIZE;
	__u64 v = 0, addr = pop(s);
	long err;

	if (n == 0 || n > 8) {
		push(s, 0);
		return;
	}
	/* 1..8 as every kernel's verifier sees it (6.12's loses the bounds above). */
	n = ((n - 1) & 7) + 1;
	err = read_mem(&v, n, addr, in->a & ST_READ_KERNEL);
	push(s, err ? 0 : sign_extend(v, n, in->a & ST_READ_SIGNED));
	if (err)
		out_helper_err(s, in, err, probe);
}

/* ST_I_READ_STR's and ST_I_STRN's bytes: imm, or the length popped (ST_READ_LEN). */
static __always_inline __s64 str_bytes(struct st_scratch *s, const struct st_insn *in)
{
	__s64 n;

	if (!(in->mask & ST_READ_LEN))
		return in->imm;
	n = pop(s);
	return ST_STR_BYTES(n);
}

/*
 * ST_I_READ_STR: the string at addr into temporary slot, "" where it
 * cannot be read; 0 or the read's error.
 */
static __always_inline long read_str_at(struct st_scratch *s, __u32 slot, __u64 addr, __s64 max,
					__u32 how)
{
	char *to = s->tmp[slot & (ST_MAX_TMPSTR - 1)].b;
	__u32 n = max > 0 && max < ST_STR_LEN ? max : ST_STR_LEN;
	long err;

	/* 1..ST_STR_LEN as every kernel's verifier sees it (6.12's loses the bounds above). */
	n = ((n - 1) & (ST_STR_LEN - 1)) + 1;
	zero_words(to, ST_STR_LEN / 8);
	if (how & ST_READ_ARRAY) {
		/* Its last byte stays the NUL that ends the string. */
		n = n < ST_STR_LEN ? n : ST_STR_LEN - 1;
		err = read_mem(to, ((n - 1) & (ST_STR_LEN - 1)) + 1, addr, how & ST_READ_KERNEL);
		if (err)
			zero_words(to, ST_STR_LEN / 8);
		return err;
	}
	if (how & ST_READ_KERNEL)
		err = bpf_probe_read_kernel_str(to, n, (const void *)addr);
	else
		err = bpf_probe_read_user_str(to, n, (const void *)addr);
	return err < 0 ? err : 0;
}

/* ST_I_READ_STR: its length (str_bytes()), then its address popped; its reference pushed. */
static __always_inline void read_str_insn(struct st_scratch *s, const struct st_insn *in,
					  __u32 probe)
{
	__s64 max = str_bytes(s, in);
	long err;

	err = read_str_at(s, in->a - ST_STR_REF_TMP, pop(s), max, in->mask);
	push(s, in->a);
	if (err)
		out_helper_err(s, in, err, probe);
}

/*
 * ST_I_READ_BUF: len bytes at addr into temporary slot after their
 * header (see ST_BUF_HDR); where they cannot be read, a buffer of none.
 * 0 or the read's error.
 */
static __always_inline long read_buf_at(struct st_scratch *s, __u32 slot, __u64 addr, __s64 len,
					__u32 kind, __u32 how)
{
	char *to = s->tmp[slot & (ST_MAX_TMPSTR - 1)].b;
	__u32 n = len > 0 && len < ST_BUF_MAX ? len : len > 0 ? ST_BUF_MAX : 0;
	long err = 0;

	zero_words(to, ST_STR_LEN / 8);
	if (!n)
		goto hdr;
	/*
	 * 1..ST_STR_LEN as every kernel's verifier sees it, within the
	 * scratch (the slots are followed by more of it); n is at most
	 * ST_BUF_MAX, so the bytes stay in their slot.
	 */
	err = read_mem(to + 1, ((n - 1) & (ST_STR_LEN - 1)) + 1, addr, how & ST_READ_KERNEL);
	if (err) {
		zero_words(to, ST_STR_LEN / 8);
		n = 0;
	}
hdr:
	to[0] = ST_BUF_HDR(kind & 3, n);
	return err;
}

/* ST_I_READ_BUF: its length, then its address popped; its reference pushed. */
static __always_inline void read_buf_insn(struct st_scratch *s, const struct st_insn *in,
					  __u32 probe)
{
	__s64 len = pop(s);
	long err;

	err = read_buf_at(s, in->a - ST_STR_REF_TMP, pop(s), len, in->imm, in->mask);
	push(s, in->a);
	if (err)
		out_helper_err(s, in, err, probe);
}

#endif /* SIDETRACE_MEM_READS_BPF_H */
