/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The machine's functions of strings beside == and !=: strcontains(). */
#ifndef SIDETRACE_STRINGS_BPF_H
#define SIDETRACE_STRINGS_BPF_H

/* Uses scratch.bpf.h (struct st_str). */
#if !defined(SIDETRACE_SCRATCH_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

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

#endif /* SIDETRACE_STRINGS_BPF_H */
