/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The machine's functions of strings beside == and !=: strcontains(). */
#ifndef SIDETRACE_STRINGS_BPF_H
#define SIDETRACE_STRINGS_BPF_H

/* Uses scratch.bpf.h (struct st_str). */
#if !defined(SIDETRACE_SCRATCH_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* The state of st_str_contains()'s bpf_loop(). */
struct st_contains_ctx {
	const struct st_str *hay, *needle;
	bool found;
};

/* One bpf_loop() step: whether the needle is at byte i of the haystack; 1 stops the loop. */
static long contains_at(__u32 i, void *data)
{
	struct st_contains_ctx *cc = data;
	__u32 j, k;
	char h;

	if (!cc->hay || !cc->needle || i >= ST_STR_LEN)
		return 1;
		/* A loop, not unrolled: the step is verified once, and its code stays small. */
#pragma nounroll
	for (j = 0; j < ST_STR_LEN; j++) {
		if (!cc->needle->b[j]) {
			cc->found = true;
			return 1;
		}
		/* The haystack ends before the needle does: nowhere further either. */
		k = i + j;
		if (k >= ST_STR_LEN)
			return 1;
		/* The mask the verifier bounds the read by, kept from the compiler. */
		k &= ST_STR_LEN - 1;
		barrier_var(k);
		h = cc->hay->b[k];
		if (!h)
			return 1;
		if (h != cc->needle->b[j])
			return 0;
	}
	return 1;
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
