/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * print(args): the whole event copied into a record as items (st_item in
 * sidetrace.h), walking the argument vector and a variadic event's
 * dynamic fields in pre-order, one bpf_loop() step per argument. Every
 * read is bounded; what cannot be read becomes an item with its error
 * (the event's first error counted, as for loads), what does not fit is
 * cut and flagged, never a wrong value.
 */
#ifndef SIDETRACE_RECORD_BPF_H
#define SIDETRACE_RECORD_BPF_H

/* Uses side_abi.bpf.h, maps.bpf.h and scratch.bpf.h. */
#if !defined(SIDETRACE_SIDE_ABI_BPF_H) || !defined(SIDETRACE_MAPS_BPF_H) || \
	!defined(SIDETRACE_SCRATCH_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

/* The largest item: header and a side_arg, or a string. */
#define ST_ITEM_MAX (ST_ITEM_HDR + ST_ITEM_ARG_SIZE)

/* The event's first error, counted once when the walk ends. */
static __always_inline void walk_err(struct st_scratch *s, __u16 err)
{
	if (!s->werr)
		s->werr = err;
}

/* Starts walking count elements at base, stride bytes apart. */
static __always_inline void walk_push(struct st_scratch *s, __u64 base, __u32 len, __u32 stride)
{
	__u32 d = s->wdepth;

	if (d >= ST_PRINT_DEPTH) {
		s->wcut = ST_REC_F_CUT;
		return;
	}
	s->walk[d].base = base;
	s->walk[d].len = len;
	s->walk[d].idx = 0;
	s->walk[d].stride = stride;
	s->wdepth = d + 1;
}

/* An item at the record's end; its payload is written by the caller. */
static __always_inline struct st_item *item_at(struct st_scratch *s, __u32 off)
{
	return (struct st_item *)(s->rec + (off & (ST_REC_MAX - 1)));
}

/* A string item: the bytes at p, NUL included. Returns the bytes used. */
static __always_inline __u32 put_str(struct st_scratch *s, __u32 off, __u16 label, __u64 p)
{
	struct st_item *it = item_at(s, off);
	long n = -1;

	it->label = label;
	it->count = 0;
	it->err = 0;
	if (p && off <= ST_REC_MAX - ST_ITEM_HDR - ST_STR_LEN)
		n = bpf_probe_read_user_str(s->rec + (off & (ST_REC_MAX - 1)) + ST_ITEM_HDR,
					    ST_STR_LEN, (const void *)p);
	if (n <= 0) {
		it->err = ST_C_ERR_STR;
		walk_err(s, ST_C_ERR_STR);
		n = 0;
	}
	it->size = (n + 7) & ~7;
	return ST_ITEM_HDR + it->size;
}

/* A container item whose elements follow: struct, array or vla. */
static __always_inline __u32 put_container(struct st_scratch *s, __u32 off, __u64 vec_ptr,
					   __u32 stride)
{
	struct st_item *it = item_at(s, off);

	it->size = 0;
	it->count = 0;
	if (bpf_probe_read_user(&s->vec, sizeof(s->vec), (const void *)vec_ptr)) {
		it->err = ST_C_ERR_VEC;
		walk_err(s, ST_C_ERR_VEC);
		return ST_ITEM_HDR;
	}
	it->count = s->vec.len > 0xffff ? 0xffff : s->vec.len;
	walk_push(s, (__u64)side_ptr_get(s->vec.sav), it->count, stride);
	return ST_ITEM_HDR;
}

/* A dynamic struct: its fields, each a name and a side_arg. */
static __always_inline __u32 put_dyn_struct(struct st_scratch *s, __u32 off, __u64 ptr)
{
	struct st_item *it = item_at(s, off);

	it->size = 0;
	it->count = 0;
	if (bpf_probe_read_user(&s->dstruct, sizeof(s->dstruct), (const void *)ptr)) {
		it->err = ST_C_ERR_VEC;
		walk_err(s, ST_C_ERR_VEC);
		return ST_ITEM_HDR;
	}
	it->count = s->dstruct.len > 0xffff ? 0xffff : s->dstruct.len;
	walk_push(s, (__u64)side_ptr_get(s->dstruct.fields), it->count,
		  sizeof(struct side_arg_dynamic_field));
	return ST_ITEM_HDR;
}

/* The item of the side_arg in s->arg; returns the bytes used. */
static __always_inline __u32 put_arg(struct st_scratch *s, __u32 off)
{
	struct st_item *it = item_at(s, off);
	__u16 label = s->arg.type.v;

	it->label = label;
	it->err = 0;
	switch (label) {
	case SIDE_TYPE_STRING_UTF8:
		return put_str(s, off, label,
			       (__u64)side_ptr_get(s->arg.u.side_static.string_value));
	case SIDE_TYPE_DYNAMIC_STRING:
		return put_str(s, off, label, s->arg.u.side_dynamic.side_string.value);
	case SIDE_TYPE_STRUCT:
	case SIDE_TYPE_ARRAY:
	case SIDE_TYPE_VLA:
		return put_container(s, off, (__u64)side_ptr_get(s->arg.u.side_static.side_struct),
				     sizeof(struct side_arg));
	case SIDE_TYPE_DYNAMIC_VLA:
		/* side_arg_dynamic_vla starts as side_arg_vec does. */
		return put_container(s, off,
				     (__u64)side_ptr_get(s->arg.u.side_dynamic.side_dynamic_vla),
				     sizeof(struct side_arg));
	case SIDE_TYPE_DYNAMIC_STRUCT:
		return put_dyn_struct(
			s, off, (__u64)side_ptr_get(s->arg.u.side_dynamic.side_dynamic_struct));
	default:
		break;
	}
	it->count = 0;
	it->size = ST_ITEM_ARG_SIZE;
	__builtin_memcpy(s->rec + (off & (ST_REC_MAX - 1)) + ST_ITEM_HDR, &s->arg,
			 ST_ITEM_ARG_SIZE);
	return ST_ITEM_MAX;
}

/* bpf_loop()'s context must live on the stack. */
struct st_copy_ctx {
	struct st_scratch *s;
};

/* One bpf_loop() step: the next argument of the innermost container. */
static long copy_step(__u32 n, void *data)
{
	struct st_scratch *s = ((struct st_copy_ctx *)data)->s;
	__u32 d, off;
	__u64 addr;

	if (!s)
		return 1;
	d = s->wdepth;
	off = s->woff;
	if (!d || d > ST_PRINT_DEPTH)
		return 1;
	d = (d - 1) & (ST_PRINT_DEPTH - 1);
	if (s->walk[d].idx >= s->walk[d].len) {
		s->wdepth = d;
		return 0;
	}
	/* Room for a name item and the largest value item. */
	if (off > ST_REC_MAX - 2 * ST_ITEM_MAX) {
		s->wcut = ST_REC_F_CUT;
		return 1;
	}
	addr = s->walk[d].base + (__u64)s->walk[d].idx * s->walk[d].stride;
	s->walk[d].idx++;
	if (s->walk[d].stride == sizeof(struct side_arg_dynamic_field)) {
		const struct side_arg_dynamic_field *f = (const void *)addr;
		__u64 name = 0;

		bpf_probe_read_user(&name, sizeof(name), &f->field_name);
		off += put_str(s, off, ST_ITEM_NAME, name);
		addr = (__u64)&f->elem;
	}
	if (bpf_probe_read_user(&s->arg, sizeof(s->arg), (const void *)addr)) {
		struct st_item *it = item_at(s, off);

		*it = (struct st_item){.err = ST_C_ERR_ARG};
		walk_err(s, ST_C_ERR_ARG);
		off += ST_ITEM_HDR;
	} else {
		off += put_arg(s, off);
	}
	s->woff = off;
	return 0;
}

/*
 * Fills s->rec with the event's items, the first a struct item for the
 * static fields (its count: those of the nr_fields declared that the
 * application passed, fewer being a counted error); returns
 * their bytes. The caller decoded the probe's loads, which found the
 * argument vector and the dynamic struct (st_probe_cfg.whole).
 */
__noinline int st_copy_event(struct st_scratch *s, __u32 nr_fields, __u32 probe)
{
	struct st_copy_ctx cc = {.s = s};
	struct st_item *root;
	__u32 len;

	if (!s)
		return 0;
	/* Arguments past the declared fields have no name: left out. */
	len = s->top_err ? 0 : s->top_len > nr_fields ? nr_fields : s->top_len;
	if (len > 0xffff)
		len = 0xffff;
	root = item_at(s, 0);
	root->label = SIDE_TYPE_STRUCT;
	root->err = s->top_err;
	root->size = 0;
	root->count = len;
	s->wdepth = 0;
	s->woff = ST_ITEM_HDR;
	s->wcut = 0;
	s->werr = s->top_err;
	if (!s->top_err && s->top_len < nr_fields)
		s->werr = ST_C_ERR_INDEX;
	/* Walked last: pushed first. */
	if (s->dyn && !bpf_probe_read_user(&s->dstruct, sizeof(s->dstruct), (const void *)s->dyn))
		walk_push(s, (__u64)side_ptr_get(s->dstruct.fields), s->dstruct.len,
			  sizeof(struct side_arg_dynamic_field));
	if (len)
		walk_push(s, s->top_sav, len, sizeof(struct side_arg));
	bpf_loop(ST_PRINT_ITEMS, copy_step, &cc, 0);
	if (s->wdepth)
		s->wcut = ST_REC_F_CUT;
	/* As for loads: an event counts its first decode error only. */
	if (s->werr && !s->first_err)
		count(probe, s->werr);
	return s->woff;
}

#endif /* SIDETRACE_RECORD_BPF_H */
