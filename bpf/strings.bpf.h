/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The machine's functions of strings: ==, strcontains(), and debugf()'s
 * format and string values.
 */
#ifndef SIDETRACE_STRINGS_BPF_H
#define SIDETRACE_STRINGS_BPF_H

/* Uses scratch.bpf.h and stack.bpf.h. */
#if !defined(SIDETRACE_SCRATCH_BPF_H) || !defined(SIDETRACE_STACK_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* Whether two strings' ST_STR_LEN bytes (NUL-padded) are the same: == and !=. */
static __always_inline bool str_equal(const char *a, const char *b)
{
	const __u64 *x = (const __u64 *)a, *y = (const __u64 *)b;
	__u64 diff = 0;
	int i;

#pragma unroll
	for (i = 0; i < ST_STR_LEN / 8; i++)
		diff |= x[i] ^ y[i];
	return diff == 0;
}

/* The state of st_str_contains()'s bpf_loop()s. */
struct st_contains_ctx {
	const struct st_str *hay, *needle;
	__u32 at; /* the haystack's byte the needle is compared at */
	int cmp; /* 1: the needle is there; -1: nowhere from here; 0: not there */
	bool found;
};

/* One inner step: the needle's byte j against the haystack's at + j; 1 stops. */
static long contains_byte(__u32 j, void *data)
{
	struct st_contains_ctx *cc = data;
	__u32 k;
	char h;

	if (!cc->hay || !cc->needle || j >= ST_STR_LEN)
		return 1;
	if (!cc->needle->b[j]) {
		cc->cmp = 1;
		return 1;
	}
	/* The haystack ends before the needle does: nowhere further either. */
	k = cc->at + j;
	if (k >= ST_STR_LEN) {
		cc->cmp = -1;
		return 1;
	}
	/* The mask the verifier bounds the read by, kept from the compiler. */
	k &= ST_STR_LEN - 1;
	barrier_var(k);
	h = cc->hay->b[k];
	if (!h || h != cc->needle->b[j]) {
		cc->cmp = h ? 0 : -1;
		return 1;
	}
	return 0;
}

/*
 * One outer step: whether the needle is at byte i of the haystack; 1
 * stops. Each loop's step is verified once, however long the strings.
 */
static long contains_at(__u32 i, void *data)
{
	struct st_contains_ctx *cc = data;

	cc->at = i;
	cc->cmp = 0;
	bpf_loop(ST_STR_LEN, contains_byte, cc, 0);
	cc->found = cc->cmp > 0;
	return cc->cmp != 0;
}

/*
 * Whether string hay holds string needle. A global function, whose
 * bpf_loop() step the verifier checks once.
 */
__noinline int st_str_contains(const struct st_str *hay, const struct st_str *needle)
{
	struct st_contains_ctx cc = {.hay = hay, .needle = needle};

	if (!hay || !needle)
		return 0;
	if (!needle->b[0])
		return 1;
	bpf_loop(ST_STR_LEN, contains_at, &cc, 0);
	return cc.found;
}

/*
 * debugf()'s string value i, the string behind ref, copied into s->dbg[i],
 * where every path finds it: 1 when there is none. A global function,
 * which the verifier checks once, where each inlined lookup multiplies
 * the paths of its caller.
 */
__noinline int st_debugf_str(const struct st_probe_cfg *cfg, struct st_scratch *s, __s64 ref,
			     __u32 i)
{
	const char *src;

	if (!cfg || !s || i >= ST_DEBUGF_ARGS)
		return 1;
	src = str_ref(cfg, s, ref);
	if (!src)
		return 1;
	copy_str(s->dbg[i].b, src);
	return 0;
}

/*
 * debugf() (ST_I_DEBUGF): pops n values, a string reference among them
 * (mask) passed as its bytes' address; prints with string reference fmt as
 * bpf_trace_printk()'s format. 1 aborts the clause. A global function.
 */
__noinline int st_exec_debugf(const struct st_probe_cfg *cfg, struct st_scratch *s, __s64 fmt_ref,
			      __u32 n, __u32 mask)
{
	__u64 v[ST_DEBUGF_ARGS] = {};
	const char *fmt;
	int i;

	if (!cfg || !s)
		return 1;
	for (i = ST_DEBUGF_ARGS - 1; i >= 0; i--) {
		if (i >= (int)n)
			continue;
		v[i] = pop(s);
		if (!(mask & (1U << i)))
			continue;
		if (st_debugf_str(cfg, s, v[i], i))
			return 1;
		v[i] = (__u64)s->dbg[i].b;
	}
	fmt = str_ref(cfg, s, fmt_ref);
	if (!fmt)
		return 1;
#ifndef ST_ENGINE_HOST
	bpf_trace_printk(fmt, ST_STR_LEN, v[0], v[1], v[2]);
#endif
	return 0;
}

/* Whether the string behind hay_ref holds needle: 1, 0, or -1 for no string. */
__noinline int st_contains_ref(const struct st_probe_cfg *cfg, struct st_scratch *s, __s64 hay_ref,
			       const struct st_str *needle)
{
	const char *hay;

	if (!cfg || !s || !needle)
		return -1;
	hay = str_ref(cfg, s, hay_ref);
	return hay ? st_str_contains((const struct st_str *)hay, needle) : -1;
}

/*
 * strcontains() (ST_I_STRSTR): pops the needle, then the haystack; pushes
 * 1 if it holds it. 1 aborts the clause. A global function, whose two
 * lookups are in two, each verified once.
 */
__noinline int st_exec_strstr(const struct st_probe_cfg *cfg, struct st_scratch *s)
{
	const char *needle;
	__s64 hay_ref;
	int found;

	if (!cfg || !s)
		return 1;
	needle = str_ref(cfg, s, pop(s));
	hay_ref = pop(s);
	if (!needle)
		return 1;
	found = st_contains_ref(cfg, s, hay_ref, (const struct st_str *)needle);
	if (found < 0)
		return 1;
	push(s, found);
	return 0;
}

#endif /* SIDETRACE_STRINGS_BPF_H */
