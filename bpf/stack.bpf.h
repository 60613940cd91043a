/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The stack machine's values (interp.bpf.h): its stack of integers, and
 * string references, which name a load's string, comm, a literal of the
 * probe or a temporary of the clause (enum st_str_ref).
 */
#ifndef SIDETRACE_STACK_BPF_H
#define SIDETRACE_STACK_BPF_H

/* Uses scratch.bpf.h. */
#if !defined(SIDETRACE_SCRATCH_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* The machine's stack; the compile step keeps a clause within ST_STACK_DEPTH. */
static __always_inline void push(struct st_scratch *s, __s64 v)
{
	__u32 sp = RD(s->sp);

	s->stack[sp & (ST_STACK_DEPTH - 1)] = v;
	RD(s->sp) = sp + 1;
}

static __always_inline __s64 pop(struct st_scratch *s)
{
	__u32 sp = RD(s->sp) - 1;

	RD(s->sp) = sp;
	return s->stack[sp & (ST_STACK_DEPTH - 1)];
}

/* The bytes behind a string reference; NULL for a load that failed. */
static __always_inline const char *str_ref(const struct st_probe_cfg *cfg, struct st_scratch *s,
					   __s64 ref)
{
	if (ref >= 0 && ref < ST_MAX_LOADS)
		return (s->ok & (1U << ref)) ? s->strs[ref].b : NULL;
	if (ref == ST_STR_REF_COMM) {
		if (!s->comm_done) {
			zero_words(s->strs[ST_STR_REF_COMM].b, ST_STR_LEN / 8);
			bpf_get_current_comm(s->strs[ST_STR_REF_COMM].b, 16);
			s->comm_done = 1;
		}
		return s->strs[ST_STR_REF_COMM].b;
	}
	if (ref == ST_STR_REF_DPATH)
		return s->strs[ST_STR_REF_DPATH].b;
	if (ref >= ST_STR_REF_CONST && ref < ST_STR_REF_TMP)
		return cfg->strs[ref - ST_STR_REF_CONST];
	if (ref >= ST_STR_REF_TMP && ref < ST_NR_STR_REFS)
		return s->tmp[ref - ST_STR_REF_TMP].b;
	return NULL;
}

#endif /* SIDETRACE_STACK_BPF_H */
