/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Decoding the SIDE argument vector: strings, static values by type
 * label, dynamic values that carry their own type, the dynamic fields of a
 * variadic event found by name, and index paths through nested structs,
 * arrays and vlas. Every read of application memory goes through
 * bpf_probe_read_user*() with a bounded length and index, and a failure
 * is returned as a decode error (enum st_counter), never as a value.
 */
#ifndef SIDETRACE_DECODE_BPF_H
#define SIDETRACE_DECODE_BPF_H

/* Uses side_abi.bpf.h, maps.bpf.h, scratch.bpf.h and usdt.bpf.h. */
#if !defined(SIDETRACE_SIDE_ABI_BPF_H) || !defined(SIDETRACE_MAPS_BPF_H) || \
	!defined(SIDETRACE_SCRATCH_BPF_H) || !defined(SIDETRACE_USDT_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/*
 * Reads the NUL-terminated string at p into the ST_STR_LEN bytes at dst,
 * which are zero, so that comparisons and keys can work on whole words.
 * A string longer than that is cut and counted; a failed read is an
 * error, never an empty string.
 */
static __always_inline int read_str_from(void *dst, __u64 p, __u32 probe, bool kernel)
{
	const void *last = (const void *)(p + ST_STR_LEN - 1);
	long n;
	char c;

	if (!p)
		return ST_C_ERR_STR;
	n = kernel ? bpf_probe_read_kernel_str(dst, ST_STR_LEN, (const void *)p)
		   : bpf_probe_read_user_str(dst, ST_STR_LEN, (const void *)p);
	if (n < 0)
		return ST_C_ERR_STR;
	if (n == ST_STR_LEN &&
	    !(kernel ? bpf_probe_read_kernel(&c, 1, last) : bpf_probe_read_user(&c, 1, last)) &&
	    c != '\0')
		count(probe, ST_C_STR_TRUNC);
	return 0;
}

/* A string of the application's memory: read_str_from() user memory. */
static __always_inline int read_str(void *dst, __u64 p, __u32 probe)
{
	return read_str_from(dst, p, probe, false);
}

/*
 * Reads a string into a slot, zeroed first (read_str()). A global
 * function: the verifier checks it once, not at every caller's read.
 */
__noinline int st_read_str(struct st_str *dst, __u64 p, __u32 probe)
{
	if (!dst)
		return ST_C_ERR_STR;
	zero_words(dst->b, ST_STR_LEN / 8);
	return read_str(dst->b, p, probe);
}

/* The same for a string in kernel memory (a tracepoint's record). A global function. */
__noinline int st_read_kernel_str(struct st_str *dst, __u64 p, __u32 probe)
{
	if (!dst)
		return ST_C_ERR_STR;
	zero_words(dst->b, ST_STR_LEN / 8);
	return read_str_from(dst->b, p, probe, true);
}

/*
 * Reads the len bytes at p, a string without a NUL (Go's), into a slot
 * zeroed first; more than ST_STR_LEN - 1 bytes are cut and counted. A
 * global function.
 */
__noinline int st_read_str_len(struct st_str *dst, __u64 p, __u64 len, __u32 probe)
{
	__u32 n = len < ST_STR_LEN - 1 ? len : ST_STR_LEN - 1;

	if (!dst)
		return ST_C_ERR_STR;
	zero_words(dst->b, ST_STR_LEN / 8);
	if (!n)
		return 0;
	/* A mask the compiler cannot drop: the verifier wants the bound on this register. */
	barrier_var(n);
	n &= ST_STR_LEN - 1;
	if (!p || bpf_probe_read_user(dst->b, n, (const void *)p))
		return ST_C_ERR_STR;
	if (len > ST_STR_LEN - 1)
		count(probe, ST_C_STR_TRUNC);
	return 0;
}

/* Decodes s->arg, whose label carries its own type (SIDE_TYPE_DYNAMIC_*). */
static __always_inline int decode_dynamic(struct st_scratch *s, __u8 want, __u32 slot, __u32 probe)
{
	const union side_arg_dynamic *d = &s->arg.u.side_dynamic;
	__u16 label = s->arg.type.v;
	__u64 raw;

	if (label == SIDE_TYPE_DYNAMIC_STRING) {
		if (want != ST_WANT_STR || d->side_string.type.unit_size != 1)
			return ST_C_ERR_DYNTYPE;
		return st_read_str(&s->strs[slot], d->side_string.value, probe);
	}
	if (want != ST_WANT_INT)
		return ST_C_ERR_DYNTYPE;
	switch (label) {
	case SIDE_TYPE_DYNAMIC_BOOL:
		raw = d->side_bool.value.side_bool64;
		s->vals[slot] = sign_extend(raw, d->side_bool.type.bool_size, false) != 0;
		return 0;
	case SIDE_TYPE_DYNAMIC_BYTE:
		s->vals[slot] = d->side_byte.value;
		return 0;
	case SIDE_TYPE_DYNAMIC_INTEGER:
	case SIDE_TYPE_DYNAMIC_POINTER:
		raw = d->side_integer.value.side_u64;
		s->vals[slot] = sign_extend(raw, d->side_integer.type.integer_size,
					    d->side_integer.type.signedness);
		return 0;
	default:
		return ST_C_ERR_DYNTYPE;
	}
}

/*
 * Decodes s->arg, which step last of load ld reached, into value slot
 * slot. A global function, checked once for every kind of load.
 */
__noinline int st_decode_value(struct st_scratch *s, const struct st_load *ld, __u32 last,
			       __u32 slot, __u32 probe)
{
	const union side_arg_static *v;
	const struct st_step *step;
	__u16 label;
	__u8 want;
	__u64 raw;

	if (!s || !ld || slot >= ST_MAX_LOADS)
		return ST_C_ERR_LABEL;
	step = &ld->steps[last & (ST_MAX_STEPS - 1)];
	want = ld->want;
	v = &s->arg.u.side_static;
	label = s->arg.type.v;
	if (step->label == ST_LABEL_ANY_DYNAMIC)
		return decode_dynamic(s, want, slot, probe);
	if (label != step->label)
		return ST_C_ERR_LABEL;
	if (label == SIDE_TYPE_STRING_UTF8) {
		if (want != ST_WANT_STR)
			return ST_C_ERR_LABEL;
		return st_read_str(&s->strs[slot], (__u64)side_ptr_get(v->string_value), probe);
	}
	if (want != ST_WANT_INT)
		return ST_C_ERR_LABEL;
	raw = v->integer_value.side_u64;
	switch (label) {
	case SIDE_TYPE_BOOL:
		s->vals[slot] = sign_extend(raw, step->size, false) != 0;
		return 0;
	case SIDE_TYPE_BYTE:
	case SIDE_TYPE_U8:
		s->vals[slot] = (__u8)raw;
		return 0;
	case SIDE_TYPE_U16:
		s->vals[slot] = (__u16)raw;
		return 0;
	case SIDE_TYPE_U32:
	case SIDE_TYPE_FLOAT_BINARY32:
		s->vals[slot] = (__u32)raw;
		return 0;
	case SIDE_TYPE_S8:
		s->vals[slot] = (__s8)raw;
		return 0;
	case SIDE_TYPE_S16:
		s->vals[slot] = (__s16)raw;
		return 0;
	case SIDE_TYPE_S32:
		s->vals[slot] = (__s32)raw;
		return 0;
	case SIDE_TYPE_U64:
	case SIDE_TYPE_S64:
	case SIDE_TYPE_U128:
	case SIDE_TYPE_S128:
	case SIDE_TYPE_POINTER:
	case SIDE_TYPE_FLOAT_BINARY64:
		s->vals[slot] = (__s64)raw;
		return 0;
	default:
		return ST_C_ERR_LABEL;
	}
}

/* The state of st_find_dynamic()'s bpf_loop(). */
struct st_dyn_ctx {
	struct st_scratch *s;
	const struct st_load *ld;
	__u64 fields;
	__u32 len;
	int err; /* the search's result */
};

/*
 * One bpf_loop() step of st_find_dynamic(): compares the name of dynamic
 * field i; 1 stops the search, with its result in dc->err.
 */
static long dyn_field(__u32 i, void *data)
{
	const struct side_arg_dynamic_field *f;
	struct st_dyn_ctx *dc = data;
	struct st_scratch *s = dc->s;
	const __u64 *want, *got;
	__u64 name;

	if (!s || !dc->ld || i >= dc->len)
		return 1;
	want = (const __u64 *)dc->ld->name;
	got = (const __u64 *)s->name;
	f = (const void *)(dc->fields + (__u64)i * sizeof(*f));
	if (bpf_probe_read_user(&name, sizeof(name), &f->field_name)) {
		dc->err = ST_C_ERR_ARG;
		return 1;
	}
	zero_words(s->name, ST_NAME_LEN / 8);
	if (bpf_probe_read_user_str(s->name, ST_NAME_LEN, (const void *)name) < 0) {
		dc->err = ST_C_ERR_STR;
		return 1;
	}
	if (got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3])
		return 0;
	dc->err = bpf_probe_read_user(&s->arg, sizeof(s->arg), &f->elem) ? ST_C_ERR_ARG : 0;
	return 1;
}

/*
 * Finds the dynamic field named ld->name among the first
 * ST_MAX_DYN_FIELDS and reads its argument into s->arg. A global
 * function, whose bpf_loop() step the verifier checks once.
 */
__noinline int st_find_dynamic(struct st_scratch *s, const struct st_load *ld)
{
	struct st_dyn_ctx dc = {.s = s, .ld = ld, .err = ST_C_ERR_NOFIELD};

	if (!s || !ld || !s->dyn)
		return ST_C_ERR_NOFIELD;
	if (bpf_probe_read_user(&s->dstruct, sizeof(s->dstruct), (const void *)s->dyn))
		return ST_C_ERR_VEC;
	dc.fields = (__u64)side_ptr_get(s->dstruct.fields);
	dc.len = s->dstruct.len;
	bpf_loop(ST_MAX_DYN_FIELDS, dyn_field, &dc, 0);
	return dc.err;
}

/*
 * Follows the index path of load ld from the event's argument vector and
 * reads the argument it ends at into s->arg. A global function.
 */
__noinline int st_follow_path(struct st_scratch *s, const struct st_load *ld)
{
	__u32 i, nr, len;
	__u64 sav;

	if (!s || !ld)
		return ST_C_ERR_INDEX;
	if (s->top_err)
		return s->top_err;
	sav = s->top_sav;
	len = s->top_len;
	nr = ld->nr_steps;
	for (i = 0; i < ST_MAX_STEPS; i++) {
		const struct st_step *step = &ld->steps[i];
		__u64 elem;

		if (i >= nr)
			break;
		if (step->index >= len)
			return ST_C_ERR_INDEX;
		elem = sav + (__u64)step->index * sizeof(struct side_arg);
		if (bpf_probe_read_user(&s->arg, sizeof(s->arg), (const void *)elem))
			return ST_C_ERR_ARG;
		if (i + 1 == nr)
			return 0;
		/* A struct, array or vla: its vector holds the next step. */
		if (s->arg.type.v != step->label)
			return ST_C_ERR_LABEL;
		if (bpf_probe_read_user(&s->vec, sizeof(s->vec),
					side_ptr_get(s->arg.u.side_static.side_struct)))
			return ST_C_ERR_VEC;
		sav = (__u64)side_ptr_get(s->vec.sav);
		len = s->vec.len;
	}
	return ST_C_ERR_INDEX;
}

#endif /* SIDETRACE_DECODE_BPF_H */
