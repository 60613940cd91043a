// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The sidetrace programs, attached at SIDE probe sites (USDT) as uprobes
 * whose cookie is the site's index (st_sites). sidetrace_event reads the
 * SDT arguments and decodes the SIDE argument vector as the collector's
 * configuration says, runs each clause's filter and statements on a small
 * stack machine and aggregates in per-CPU maps; sidetrace_count serves
 * the probes that only count, sidetrace_plain those whose fields are SDT
 * values and whose statements need no stack machine (no filter, keys and
 * values plain fields or builtins), and sidetrace_flat the plain ones that
 * read integers into maps without keys. Only the programs that the probes
 * need are loaded. See sidetrace.h for the configuration.
 *
 * No kernel structure is read, so the object has no CO-RE relocation and
 * libbpf never loads the kernel's BTF: the SDT arguments are read from the
 * uprobe's struct pt_regs by constant offsets (see sdt_reg()).
 *
 * Application memory is only read through bpf_probe_read_user*(), with
 * every length and index bounded by the configuration, so a corrupted
 * argument vector costs a counted decode error and nothing else.
 */
#include <linux/bpf.h>
#include <asm/ptrace.h>
#include <bpf/bpf_helpers.h>
#include "side_abi.bpf.h"
#include "maps.bpf.h"
#include "sidetrace.h"

#ifndef __TARGET_ARCH_x86
#error "SDT argument registers are laid out for x86-64 only"
#endif

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by the collector before load. */
const volatile struct st_map_cfg st_maps[ST_MAX_MAPS];

/*
 * Set by the collector before load: the 8-byte words after the header
 * that the largest hash key uses (parts and bucket). The verifier sees
 * the constant, so clearing a key walks only those.
 */
const volatile __u32 st_key_words;

/* exit() in a probe: the collector polls this. */
__u32 st_exit_requested;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* the number of probes, set at load */
	__type(key, __u32);
	__type(value, struct st_probe_cfg);
} st_probes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* the number of sites, set at load */
	__type(key, __u32);
	__type(value, struct st_site_cfg);
} st_sites SEC(".maps");

/* The maps without keys: no hashing, one slot per value or bucket. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1); /* the slots the maps need, set at load */
	__type(key, __u32);
	__type(value, struct st_val);
} st_flat SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ST_NR_COUNTERS); /* probes * counters, at load */
	__type(key, __u32);
	__type(value, __u64);
} st_counters SEC(".maps");

/*
 * Per probe, the string loads whose read failed: sidetrace_fault_in pages
 * in only those, so that events pay for it only once a failure was seen.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* the number of probes, set at load */
	__type(key, __u32);
	__type(value, __u32);
} st_fault_armed SEC(".maps");

/*
 * Not preallocated: creating 10240 per-CPU entries up front costs
 * milliseconds at every start, and kernels since 6.1 allocate elements
 * from a per-CPU cache that is safe in any context.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, ST_DEFAULT_MAP_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(key_size, ST_KEY_MAX); /* shrunk to the largest key at load */
	__uint(value_size, sizeof(struct st_val));
} st_aggr SEC(".maps");

/* A string value, NUL-padded. */
struct st_str {
	char b[ST_STR_LEN];
};

/*
 * Working memory of one run; too large for the 512-byte BPF stack. Uprobe
 * programs run with migration disabled but may be preempted, and another
 * event on the same CPU then runs before the first one ends: each CPU has
 * ST_NR_SCRATCH of them, and a run takes the first free one.
 */
struct st_scratch {
	__u32 busy; /* set while a run owns this scratch */
	__u32 self; /* its index in st_scratch_map, see aggregate() */
	__u32 pc; /* kept in memory, see RD() */
	__u32 sp;
	__u32 clause_end;
	__u32 ok; /* bit i: load i decoded */
	__u32 first_err; /* the event's first decode error */
	__u32 comm_done;
	__u32 top_len;
	__u32 top_err;
	__u32 sdt_bad; /* bit i: SDT argument i could not be read */
	__u64 top_sav;
	__u64 dyn;
	__u64 sdt[ST_MAX_SDT_ARGS]; /* the SDT arguments in sdt_mask */
	__s64 vals[ST_MAX_LOADS];
	__s64 stack[ST_STACK_DEPTH];
	struct st_str strs[ST_STR_REF_COMM + 1];
	char name[ST_NAME_LEN];
	__u8 key[ST_KEY_MAX];
	struct side_arg arg;
	struct side_arg_vec vec;
	struct side_arg_dynamic_struct dstruct;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ST_NR_SCRATCH);
	__type(key, __u32);
	__type(value, struct st_scratch);
} st_scratch_map SEC(".maps");

static const struct st_val st_zero_val;

/*
 * The machine's pc and sp live in memory and are re-read at every use, so
 * the verifier sees them as bounded unknowns, not as constants that differ
 * on every path: that keeps the number of states it explores linear in
 * the instruction count instead of exponential.
 */
#define RD(x) (*(volatile typeof(x) *)&(x))

static __always_inline void count(__u32 probe, __u32 counter)
{
	__u32 idx = probe * ST_NR_COUNTERS + counter;
	__u64 *v;

	v = bpf_map_lookup_elem(&st_counters, &idx);
	if (v)
		__sync_fetch_and_add(v, 1);
}

static __always_inline void zero_words(void *buf, int words)
{
	__u64 *p = buf;
	int i;

#pragma unroll
	for (i = 0; i < words; i++)
		p[i] = 0;
}

/* Zeroes the key parts and bucket; the header is rewritten at every use. */
static __always_inline void key_clear(struct st_scratch *s)
{
	__u64 *p = (__u64 *)(s->key + ST_KEY_HDR);
	__u32 i;

	for (i = 0; i < (ST_KEY_MAX - ST_KEY_HDR) / 8; i++) {
		if (i >= st_key_words)
			break;
		p[i] = 0;
	}
}

/*
 * Reads a NUL-terminated string into a zeroed slot, so that comparisons
 * and keys can work on whole words. A string longer than the slot is cut
 * and counted; a failed read is an error, never an empty string. A global
 * function: the verifier checks it once, not at every caller's read.
 */
__noinline int st_read_str(struct st_str *dst, __u64 p, __u32 probe)
{
	long n;
	char c;

	if (!dst)
		return ST_C_ERR_STR;
	zero_words(dst->b, ST_STR_LEN / 8);
	if (!p)
		return ST_C_ERR_STR;
	n = bpf_probe_read_user_str(dst->b, ST_STR_LEN, (const void *)p);
	if (n < 0)
		return ST_C_ERR_STR;
	if (n == ST_STR_LEN && !bpf_probe_read_user(&c, 1, (const void *)(p + ST_STR_LEN - 1)) &&
	    c != '\0')
		count(probe, ST_C_STR_TRUNC);
	return 0;
}

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
 * each case is an inline assembly load at its own constant offset.
 */
#define CTX_WORD(ctx, i) \
	({ \
		__u64 __v; \
		asm volatile("%[v] = *(u64 *)(%[c] + %[o])" \
			     : [v] "=r"(__v) \
			     : [c] "r"(ctx), [o] "i"((i)*8)); \
		__v; \
	})

/* Word reg of the uprobe's struct pt_regs; 0 beyond the 21 it has. */
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
	if (a->loc == ST_LOC_REG)
		v = reg;
	/* Little-endian: the value's bytes are the low ones. */
	else if (a->loc != ST_LOC_MEM || n > 8 ||
		 bpf_probe_read_user(&v, n, (const void *)(reg + a->val)))
		return ST_C_ERR_USDT;
	*out = sign_extend(v, n, size < 0);
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

/* From now on, have sidetrace_fault_in page in the string of load i. */
static __always_inline void arm_fault_in(__u32 probe, __u32 load)
{
	__u32 *armed = bpf_map_lookup_elem(&st_fault_armed, &probe);

	if (armed && !(*armed & (1U << load)))
		__sync_fetch_and_or(armed, 1U << load);
}

/*
 * Decodes load ld, a top-level field from its SDT argument (ST_SRC_SDT),
 * into value slot slot < ST_MAX_LOADS.
 */
static __always_inline int decode_sdt(struct st_scratch *s, const struct st_load *ld, __u32 slot,
				      __u32 probe)
{
	__u32 arg;

	arg = ld->sdt_arg;
	if (arg >= ST_MAX_SDT_ARGS || (s->sdt_bad & (1U << arg)))
		return ST_C_ERR_USDT;
	if (ld->want == ST_WANT_STR)
		return st_read_str(&s->strs[slot], s->sdt[arg], probe);
	s->vals[slot] = s->sdt[arg];
	return 0;
}

/*
 * Records how load i went in s->ok or s->first_err, and arms the
 * fault-in for a string that could not be read.
 */
static __always_inline void load_done(struct st_scratch *s, __u32 i, int err, __u32 probe)
{
	if (!err) {
		s->ok |= 1U << i;
		return;
	}
	if (!s->first_err)
		s->first_err = err;
	if (err == ST_C_ERR_STR)
		arm_fault_in(probe, i);
}

/*
 * Decodes load i of the probe into value slot i. A global function: the
 * verifier checks it once, not once per load, which keeps the program far
 * below its complexity limit.
 */
__noinline int st_decode_load(struct st_scratch *s, const struct st_probe_cfg *cfg, __u32 i,
			      __u32 probe)
{
	const struct st_load *ld;
	int err;

	if (!s || !cfg || i >= ST_MAX_LOADS)
		return 0;
	ld = &cfg->loads[i];
	if (ld->src == ST_SRC_SDT) {
		err = decode_sdt(s, ld, i, probe);
	} else {
		if (ld->src == ST_SRC_DYN)
			err = st_find_dynamic(s, ld);
		else
			err = st_follow_path(s, ld);
		if (!err)
			err = st_decode_value(s, ld, ld->src == ST_SRC_DYN ? 0 : ld->nr_steps - 1,
					      i, probe);
	}
	load_done(s, i, err, probe);
	return 0;
}

/* Decodes load i of a sidetrace_plain probe (SDT values only). */
__noinline int st_plain_load(struct st_scratch *s, const struct st_probe_cfg *cfg, __u32 i,
			     __u32 probe)
{
	if (!s || !cfg || i >= ST_MAX_LOADS)
		return 0;
	load_done(s, i, decode_sdt(s, &cfg->loads[i], i, probe), probe);
	return 0;
}

/*
 * Reads the SDT arguments in mask into s->sdt, marking those that could
 * not be read in s->sdt_bad. A global function: its loop is walked once.
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
		if ((mask & (1U << i)) && st_sdt_arg(ctx, &site->args[i], &s->sdt[i]))
			s->sdt_bad |= 1U << i;
	}
	return 0;
}

/* Decodes every load of the probe; an event counts its first error only. */
static __always_inline void decode_all(void *ctx, const struct st_site_cfg *site,
				       const struct st_probe_cfg *cfg, struct st_scratch *s,
				       __u32 probe)
{
	__u32 i, arg;

	s->ok = 0;
	s->first_err = 0;
	s->comm_done = 0;
	s->top_err = 0;
	s->dyn = 0;
	if (cfg->nr_loads == 0)
		return;
	st_read_sdt(ctx, site, cfg->sdt_mask, s);
	arg = cfg->vec_arg;
	if (cfg->need_vec) {
		if (arg >= ST_MAX_SDT_ARGS || (s->sdt_bad & (1U << arg))) {
			s->top_err = ST_C_ERR_USDT;
		} else if (bpf_probe_read_user(&s->vec, sizeof(s->vec),
					       (const void *)s->sdt[arg])) {
			s->top_err = ST_C_ERR_VEC;
		} else {
			s->top_sav = (__u64)side_ptr_get(s->vec.sav);
			s->top_len = s->vec.len;
		}
	}
	arg = cfg->dyn_arg;
	if (cfg->variadic) {
		if (arg >= ST_MAX_SDT_ARGS || (s->sdt_bad & (1U << arg)))
			s->first_err = ST_C_ERR_USDT;
		else
			s->dyn = s->sdt[arg];
	}
	for (i = 0; i < ST_MAX_LOADS; i++) {
		if (i >= cfg->nr_loads)
			break;
		st_decode_load(s, cfg, i, probe);
	}
	if (RD(s->first_err))
		count(probe, RD(s->first_err));
}

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
	if (ref >= ST_STR_REF_CONST && ref < ST_NR_STR_REFS)
		return cfg->strs[ref - ST_STR_REF_CONST];
	return NULL;
}

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

/* lhist() bucket of v in map mc (sidetrace_arith.h). */
static __always_inline __u64 lhist_bucket(__s64 v, const volatile struct st_map_cfg *mc)
{
	return st_lhist_bucket(v, mc->lmin, mc->lmax, mc->lstep);
}

/* *p = max(*p, v), unsigned; atomic: a preempted run may be updating it. */
static __always_inline void atomic_umax(__u64 *p, __u64 v)
{
	__u64 old = *p, prev;
	int i;

	for (i = 0; i < 4; i++) {
		if (old >= v)
			return;
		prev = __sync_val_compare_and_swap(p, old, v);
		if (prev == old)
			return;
		old = prev;
	}
}

/* Adds v to a value; see struct st_val for the encoding of min and max. */
static __always_inline void update(struct st_val *val, __u32 kind, __s64 v, bool is_signed)
{
	__sync_fetch_and_add(&val->count, 1);
	switch (kind) {
	case ST_K_SUM:
	case ST_K_AVG:
	case ST_K_STATS:
		__sync_fetch_and_add(&val->sum, v);
		break;
	case ST_K_MIN:
		atomic_umax(&val->min, st_min_encode(v, is_signed));
		break;
	case ST_K_MAX:
		atomic_umax(&val->max, st_max_encode(v, is_signed));
		break;
	default:
		break;
	}
}

/*
 * update() as a global function: the verifier checks its paths once, not
 * once for each path of its callers that leads here.
 */
__noinline int st_update(struct st_val *val, __u32 kind, __s64 v, __u32 is_signed)
{
	if (val)
		update(val, kind, v, is_signed);
	return 0;
}

/* The slot of v in map mc, a map without keys; NULL if out of range. */
static __always_inline struct st_val *flat_val(const volatile struct st_map_cfg *mc, __s64 v)
{
	__u64 bucket = 0;
	__u32 slot;

	if (mc->kind == ST_K_HIST)
		bucket = st_hist_bucket(v, mc->flags & ST_MAPF_SIGNED);
	else if (mc->kind == ST_K_LHIST)
		bucket = lhist_bucket(v, mc);
	if (bucket >= mc->flat_len)
		return NULL;
	slot = mc->flat_base + bucket;
	return bpf_map_lookup_elem(&st_flat, &slot);
}

/*
 * Aggregates v into map map_id under the key parts in s->key, then clears
 * them. A global function, shared by the programs that aggregate.
 */
__noinline int st_aggregate(struct st_scratch *s, __u32 map_id, __s64 v, __u32 probe)
{
	const volatile struct st_map_cfg *mc;
	struct st_key_hdr *hdr;
	struct st_scratch *ms;
	struct st_val *val;
	__u64 bucket = 0;
	__u32 ks, slot;
	bool is_signed;
	__u8 kind;

	if (!s || map_id >= ST_MAX_MAPS)
		return 0;
	hdr = (void *)s->key;
	mc = &st_maps[map_id];
	kind = mc->kind;
	is_signed = mc->flags & ST_MAPF_SIGNED;
	if (mc->flags & ST_MAPF_FLAT)
		return st_update(flat_val(mc, v), kind, v, is_signed);
	if (kind == ST_K_HIST)
		bucket = st_hist_bucket(v, is_signed);
	else if (kind == ST_K_LHIST)
		bucket = lhist_bucket(v, mc);
	ks = mc->key_size;
	if (ks > ST_KEY_PARTS_MAX)
		return 0;
	hdr->map_id = map_id;
	hdr->reserved = 0;
	if (st_kind_has_bucket(kind))
		*(__u64 *)(s->key + st_key_bucket_off(ks)) = bucket;
	/*
	 * s is an argument of a global function, so the verifier knows it
	 * only as memory, and older kernels (6.1) take a map key only from the
	 * stack, a packet or a map value: look the same scratch up again to
	 * pass its key as a map value: one array lookup per keyed update.
	 */
	slot = s->self;
	ms = bpf_map_lookup_elem(&st_scratch_map, &slot);
	if (!ms)
		return 0;
	val = lookup_or_try_init(&st_aggr, ms->key, &st_zero_val);
	/* Clear the parts and bucket written, for the next statement. */
	key_clear(s);
	if (!val) {
		count(probe, ST_C_MAP_FULL);
		return 0;
	}
	st_update(val, kind, v, is_signed);
	return 0;
}

static __always_inline __s64 sdiv(__s64 a, __s64 b, bool mod)
{
	__u64 ua = a < 0 ? -(__u64)a : (__u64)a;
	__u64 ub = b < 0 ? -(__u64)b : (__u64)b;
	__u64 r;

	if (!ub)
		return 0;
	if (mod) {
		r = ua % ub;
		return a < 0 ? -(__s64)r : (__s64)r;
	}
	r = ua / ub;
	return (a < 0) != (b < 0) ? -(__s64)r : (__s64)r;
}

static __always_inline __s64 binary(__u8 op, __s64 l, __s64 r)
{
	__u64 ul = l, ur = r;

	switch (op) {
	case ST_B_ADD:
		return ul + ur;
	case ST_B_SUB:
		return ul - ur;
	case ST_B_MUL:
		return ul * ur;
	case ST_B_DIV:
		return sdiv(l, r, false);
	case ST_B_MOD:
		return sdiv(l, r, true);
	case ST_B_UDIV:
		return ur ? ul / ur : 0;
	case ST_B_UMOD:
		return ur ? ul % ur : 0;
	case ST_B_AND:
		return ul & ur;
	case ST_B_OR:
		return ul | ur;
	case ST_B_XOR:
		return ul ^ ur;
	case ST_B_SHL:
		return ul << (ur & 63);
	case ST_B_SHR:
		return ul >> (ur & 63);
	case ST_B_SAR:
		return l >> (ur & 63);
	case ST_B_EQ:
		return l == r;
	case ST_B_NE:
		return l != r;
	case ST_B_LT:
		return l < r;
	case ST_B_LE:
		return l <= r;
	case ST_B_GT:
		return l > r;
	case ST_B_GE:
		return l >= r;
	case ST_B_ULT:
		return ul < ur;
	case ST_B_ULE:
		return ul <= ur;
	case ST_B_UGT:
		return ul > ur;
	case ST_B_UGE:
		return ul >= ur;
	case ST_B_LAND:
		return l && r;
	case ST_B_LOR:
		return l || r;
	default:
		return 0;
	}
}

static __always_inline __s64 builtin(__u8 id, __u32 probe)
{
	switch (id) {
	case ST_BI_PID:
		return bpf_get_current_pid_tgid() >> 32;
	case ST_BI_TID:
		return (__u32)bpf_get_current_pid_tgid();
	case ST_BI_NSECS:
		return bpf_ktime_get_ns();
	case ST_BI_CPU:
		return bpf_get_smp_processor_id();
	case ST_BI_UID:
		return (__u32)bpf_get_current_uid_gid();
	case ST_BI_PROBE:
		return probe;
	default:
		return 0;
	}
}

/* Leaves the current clause: its key and stack are discarded. */
static __always_inline void abort_clause(struct st_scratch *s)
{
	RD(s->pc) = RD(s->clause_end);
	key_clear(s);
}

/* Copies the string behind a reference into the key; false if none. */
static __always_inline bool key_str(const struct st_probe_cfg *cfg, struct st_scratch *s, __s64 ref,
				    __s64 off)
{
	const __u64 *src;
	__u64 *dst;
	int i;

	src = (const __u64 *)str_ref(cfg, s, ref);
	if (!src || off < 0 || off > ST_KEY_PARTS_MAX - ST_STR_LEN)
		return false;
	dst = (__u64 *)(s->key + ST_KEY_HDR + off);
#pragma unroll
	for (i = 0; i < ST_STR_LEN / 8; i++)
		dst[i] = src[i];
	return true;
}

/*
 * Executes the instruction at s->pc; returns 1 once the program is done.
 * A global function, checked once by the verifier (see st_decode_load()).
 */
__noinline int st_exec(const struct st_probe_cfg *cfg, struct st_scratch *s, __u32 probe)
{
	const struct st_insn *in;
	bool abort = false;
	const char *a, *b;
	__s64 l, r;
	__u32 pc;

	if (!cfg || !s)
		return 1;
	pc = RD(s->pc);
	if (pc >= cfg->nr_insns || pc >= ST_MAX_INSNS)
		return 1;
	in = &cfg->insns[pc];
	RD(s->pc) = pc + 1;
	switch (in->op) {
	case ST_I_CLAUSE:
		RD(s->clause_end) = in->imm;
		RD(s->sp) = 0;
		abort = in->mask & ~s->ok;
		break;
	case ST_I_FILTER:
		abort = !pop(s);
		break;
	case ST_I_CONST:
		push(s, in->imm);
		break;
	case ST_I_FIELD:
		abort = in->a >= ST_MAX_LOADS || !(s->ok & (1U << in->a));
		if (!abort)
			push(s, s->vals[in->a]);
		break;
	case ST_I_STR:
		push(s, in->a);
		break;
	case ST_I_BUILTIN:
		push(s, builtin(in->a, probe));
		break;
	case ST_I_UNARY:
		l = pop(s);
		push(s, in->a == ST_U_NEG ? -l : in->a == ST_U_LNOT ? !l : ~l);
		break;
	case ST_I_BINARY:
		r = pop(s);
		l = pop(s);
		push(s, binary(in->a, l, r));
		break;
	case ST_I_STREQ:
	case ST_I_STRNE:
		b = str_ref(cfg, s, pop(s));
		a = str_ref(cfg, s, pop(s));
		abort = !a || !b;
		if (!abort)
			push(s, str_equal(a, b) == (in->op == ST_I_STREQ));
		break;
	case ST_I_KEY_INT:
		l = pop(s);
		abort = in->imm < 0 || in->imm > ST_KEY_PARTS_MAX - 8;
		if (!abort)
			*(__s64 *)(s->key + ST_KEY_HDR + in->imm) = l;
		break;
	case ST_I_KEY_STR:
		abort = !key_str(cfg, s, pop(s), in->imm);
		break;
	case ST_I_AGG:
		st_aggregate(s, in->a, pop(s), probe);
		break;
	case ST_I_EXIT:
		st_exit_requested = 1;
		break;
	default:
		abort = true;
		break;
	}
	if (abort)
		abort_clause(s);
	return 0;
}

/* What the steps of run()'s bpf_loop() need. */
struct st_run_ctx {
	const struct st_probe_cfg *cfg;
	struct st_scratch *s;
	__u32 probe;
};

/* One bpf_loop() step: executes an instruction; 1 stops the loop. */
static long run_step(__u32 n, void *data)
{
	struct st_run_ctx *rc = data;

	return st_exec(rc->cfg, rc->s, rc->probe) ? 1 : 0;
}

/*
 * Runs the probe's code. bpf_loop() (kernel 5.17) lets the verifier check
 * one step instead of walking ST_MAX_INSNS iterations of a loop.
 */
static __always_inline void run(const struct st_probe_cfg *cfg, struct st_scratch *s, __u32 probe)
{
	struct st_run_ctx rc = {.cfg = cfg, .s = s, .probe = probe};

	RD(s->pc) = 0;
	RD(s->sp) = 0;
	RD(s->clause_end) = 0;
	bpf_loop(ST_MAX_INSNS, run_step, &rc, 0);
}

/* The probe sites of a probe that only counts: no scratch, no decoding. */
SEC("uprobe")
int sidetrace_count(void *ctx)
{
	__u32 cookie = bpf_get_attach_cookie(ctx), i;
	const struct st_site_cfg *site;
	struct st_val *val;

	site = bpf_map_lookup_elem(&st_sites, &cookie);
	if (!site)
		return 0;
	for (i = 0; i < ST_MAX_COUNTS; i++) {
		if (i >= site->nr_counts)
			break;
		val = bpf_map_lookup_elem(&st_flat, &site->counts[i]);
		if (val)
			__sync_fetch_and_add(&val->count, 1);
	}
	return 0;
}

/* The first free scratch of this CPU, or NULL when all are in use. */
static __always_inline struct st_scratch *scratch_get(void)
{
	struct st_scratch *s;
	__u32 i, key;

	/* Unrolled: the key's stack slot would hide the counter's progress. */
#pragma unroll
	for (i = 0; i < ST_NR_SCRATCH; i++) {
		key = i;
		s = bpf_map_lookup_elem(&st_scratch_map, &key);
		if (s && !__sync_lock_test_and_set(&s->busy, 1)) {
			s->self = i;
			return s;
		}
	}
	return NULL;
}

/*
 * How the programs that use a scratch slot start: the site of the uprobe's
 * cookie, its probe's configuration, and a free scratch slot of this CPU
 * (none free is counted). NULL: nothing to do for this event.
 */
static __always_inline struct st_scratch *enter_probe(void *ctx, const struct st_site_cfg **site,
						      const struct st_probe_cfg **cfg, __u32 *probe)
{
	__u32 cookie = bpf_get_attach_cookie(ctx);
	struct st_scratch *s;

	*site = bpf_map_lookup_elem(&st_sites, &cookie);
	if (!*site)
		return NULL;
	*probe = (*site)->probe;
	*cfg = bpf_map_lookup_elem(&st_probes, probe);
	if (!*cfg)
		return NULL;
	s = scratch_get();
	if (!s)
		count(*probe, ST_C_BUSY);
	return s;
}

SEC("uprobe")
int sidetrace_event(void *ctx)
{
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	struct st_scratch *s;
	__u32 probe;

	s = enter_probe(ctx, &site, &cfg, &probe);
	if (!s)
		return 0;
	decode_all(ctx, site, cfg, s, probe);
	run(cfg, s, probe);
	/* Only runs on this CPU read the flag: a plain store releases it. */
	RD(s->busy) = 0;
	return 0;
}

/*
 * Writes part pt of a plain statement into the key parts. A global
 * function: checked once, not once per part.
 */
__noinline int st_plain_part(struct st_scratch *s, const struct st_plain_part *pt, __u32 probe)
{
	const __u64 *src;
	__u32 off, a;
	__u64 *dst;
	int i;

	if (!s || !pt)
		return 0;
	off = pt->off;
	a = pt->a;
	if (pt->src == ST_P_STR) {
		if (off > ST_KEY_PARTS_MAX - ST_STR_LEN || a >= ST_MAX_LOADS)
			return 0;
		src = (const __u64 *)s->strs[a].b;
		dst = (__u64 *)(s->key + ST_KEY_HDR + off);
#pragma unroll
		for (i = 0; i < ST_STR_LEN / 8; i++)
			dst[i] = src[i];
		return 0;
	}
	if (off > ST_KEY_PARTS_MAX - 8)
		return 0;
	*(__s64 *)(s->key + ST_KEY_HDR + off) =
		pt->src == ST_P_BUILTIN ? builtin(a, probe) : s->vals[a & (ST_MAX_LOADS - 1)];
	return 0;
}

/*
 * Runs plain statement i of a sidetrace_plain probe: its key parts come
 * straight from the loads, then it aggregates. A global function.
 */
__noinline int st_plain_stmt(const struct st_probe_cfg *cfg, struct st_scratch *s, __u32 i,
			     __u32 probe)
{
	const struct st_plain_stmt *st;
	const struct st_plain_part *v;
	__s64 val;
	__u32 k;

	if (!cfg || !s || i >= ST_MAX_PLAIN)
		return 0;
	st = &cfg->plain[i];
	/* A clause with a load that failed is skipped whole. */
	if (st->mask & ~s->ok)
		return 0;
	for (k = 0; k < ST_MAX_PLAIN_PARTS; k++) {
		if (k >= st->nr_parts)
			break;
		st_plain_part(s, &st->parts[k], probe);
	}
	v = &st->value;
	if (v->src == ST_P_CONST)
		val = st->imm;
	else if (v->src == ST_P_BUILTIN)
		val = builtin(v->a, probe);
	else
		val = s->vals[v->a & (ST_MAX_LOADS - 1)];
	return st_aggregate(s, st->map, val, probe);
}

/*
 * The probe sites of a probe whose fields are all SDT values and whose
 * statements are plain (st_probe_cfg.plain): no argument vector, no stack
 * machine.
 */
SEC("uprobe")
int sidetrace_plain(void *ctx)
{
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	struct st_scratch *s;
	__u32 probe, i;

	s = enter_probe(ctx, &site, &cfg, &probe);
	if (!s)
		return 0;
	s->ok = 0;
	s->first_err = 0;
	st_read_sdt(ctx, site, cfg->sdt_mask, s);
	for (i = 0; i < ST_MAX_LOADS; i++) {
		if (i >= cfg->nr_loads)
			break;
		st_plain_load(s, cfg, i, probe);
	}
	if (RD(s->first_err))
		count(probe, RD(s->first_err));
	for (i = 0; i < ST_MAX_PLAIN; i++) {
		if (i >= cfg->nr_plain)
			break;
		st_plain_stmt(cfg, s, i, probe);
	}
	RD(s->busy) = 0;
	return 0;
}

/* The integers a sidetrace_flat probe read, by load. */
struct st_flat_vals {
	__s64 v[ST_MAX_LOADS];
	/*
	 * Bit i: load i was read. In memory, so that the verifier does not
	 * follow each combination of loads that succeed and fail.
	 */
	__u32 ok;
};

/* Runs plain statement i of a sidetrace_flat probe, whose loads are in fv. */
static __always_inline void flat_stmt(const struct st_probe_cfg *cfg, const struct st_flat_vals *fv,
				      __u32 i, __u32 probe)
{
	const volatile struct st_map_cfg *mc;
	const struct st_plain_part *v;
	struct st_val *sv;
	__s64 val;
	__u32 map;

	v = &cfg->plain[i].value;
	if (v->src == ST_P_CONST)
		val = cfg->plain[i].imm;
	else if (v->src == ST_P_BUILTIN)
		val = builtin(v->a, probe);
	else
		val = fv->v[v->a & (ST_MAX_LOADS - 1)];
	map = cfg->plain[i].map;
	if (map >= ST_MAX_MAPS)
		return;
	mc = &st_maps[map];
	sv = flat_val(mc, val);
	if (sv)
		update(sv, mc->kind, val, mc->flags & ST_MAPF_SIGNED);
}

/*
 * Reads the integer loads of a sidetrace_flat probe into fv. A global
 * function: its loop is walked once.
 */
__noinline int st_flat_loads(struct pt_regs *ctx, const struct st_site_cfg *site,
			     const struct st_probe_cfg *cfg, struct st_flat_vals *fv)
{
	__u32 i, arg;
	__u64 x;

	if (!ctx || !site || !cfg || !fv)
		return 0;
	fv->ok = 0;
	for (i = 0; i < ST_MAX_LOADS; i++) {
		if (i >= cfg->nr_loads)
			break;
		arg = cfg->loads[i].sdt_arg;
		if (arg < ST_MAX_SDT_ARGS && !st_sdt_arg(ctx, &site->args[arg], &x)) {
			fv->v[i] = x;
			RD(fv->ok) |= 1U << i;
		}
	}
	return 0;
}

/*
 * The probe sites of a plain probe that reads only integers and
 * aggregates only into maps without keys (@ = hist(args.x)): the values
 * stay on the stack, no scratch, no key.
 */
SEC("uprobe")
int sidetrace_flat(void *ctx)
{
	__u32 cookie = bpf_get_attach_cookie(ctx), probe, i, ok;
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	struct st_flat_vals fv = {};

	site = bpf_map_lookup_elem(&st_sites, &cookie);
	if (!site)
		return 0;
	probe = site->probe;
	cfg = bpf_map_lookup_elem(&st_probes, &probe);
	if (!cfg)
		return 0;
	st_flat_loads(ctx, site, cfg, &fv);
	ok = fv.ok;
	if (ok != (1U << cfg->nr_loads) - 1)
		count(probe, ST_C_ERR_USDT);
	for (i = 0; i < ST_MAX_PLAIN; i++) {
		if (i >= cfg->nr_plain)
			break;
		/* A clause with a load that failed is skipped whole. */
		if (!(cfg->plain[i].mask & ~ok))
			flat_stmt(cfg, &fv, i, probe);
	}
	return 0;
}

/*
 * Takes the page faults that sidetrace_event cannot. A non-sleepable
 * program reads only pages that are mapped already, and a string literal
 * that the application passes by pointer without ever reading it sits in
 * a page that may never have been mapped: its read fails. This sleepable
 * program runs first at the same sites (the kernel runs a probe site's
 * newest consumer first, and the collector attaches it later) and touches
 * the pages of the strings the probe will read, as the application itself
 * would. A second program at a site costs each event about as much as the
 * first, so the collector attaches it only once sidetrace_event armed it
 * (st_fault_armed) after a failed read, which it counted; and it touches
 * only the loads that failed. Its own failures are left for
 * sidetrace_event to count.
 */
/* Touches the string at p, and its next page if it may go on there. */
static __always_inline void touch_str(__u64 p)
{
	char c;

	if (!p || bpf_copy_from_user(&c, 1, (const void *)p))
		return;
	if ((p & 4095) + ST_STR_LEN > 4096)
		bpf_copy_from_user(&c, 1, (const void *)((p | 4095) + 1));
}

__noinline int st_fault_in_load(__u64 vec, const struct st_load *ld)
{
	struct side_arg_vec v;
	struct side_arg arg;
	__u32 i, nr;
	__u64 sav;

	if (!ld || ld->src != ST_SRC_VEC || ld->want != ST_WANT_STR)
		return 0;
	if (bpf_copy_from_user(&v, sizeof(v), (const void *)vec))
		return 0;
	nr = ld->nr_steps;
	for (i = 0; i < ST_MAX_STEPS; i++) {
		const struct st_step *step = &ld->steps[i];

		if (i >= nr)
			break;
		sav = (__u64)side_ptr_get(v.sav);
		if (step->index >= v.len ||
		    bpf_copy_from_user(&arg, sizeof(arg),
				       (const void *)(sav + (__u64)step->index * sizeof(arg))))
			return 0;
		if (i + 1 == nr)
			break;
		if (arg.type.v != step->label ||
		    bpf_copy_from_user(&v, sizeof(v), side_ptr_get(arg.u.side_static.side_struct)))
			return 0;
	}
	if (arg.type.v != SIDE_TYPE_STRING_UTF8)
		return 0;
	touch_str((__u64)side_ptr_get(arg.u.side_static.string_value));
	return 0;
}

/*
 * Touches the string of load ld at a site whose argument vector is vec. A
 * global function: checked once, not once per load.
 */
__noinline int st_fault_in_one(struct pt_regs *ctx, const struct st_site_cfg *site,
			       const struct st_load *ld, __u64 vec)
{
	__u64 p;

	if (!ctx || !site || !ld)
		return 0;
	if (ld->src != ST_SRC_SDT)
		return st_fault_in_load(vec, ld);
	if (ld->sdt_arg < ST_MAX_SDT_ARGS && !st_sdt_arg(ctx, &site->args[ld->sdt_arg], &p))
		touch_str(p);
	return 0;
}

SEC("uprobe")
int sidetrace_fault_in(void *ctx)
{
	__u32 cookie = bpf_get_attach_cookie(ctx), probe, i, *armed, loads;
	const struct st_probe_cfg *cfg;
	const struct st_site_cfg *site;
	__u64 vec = 0;

	site = bpf_map_lookup_elem(&st_sites, &cookie);
	if (!site)
		return 0;
	probe = site->probe;
	armed = bpf_map_lookup_elem(&st_fault_armed, &probe);
	if (!armed || !*armed)
		return 0;
	cfg = bpf_map_lookup_elem(&st_probes, &probe);
	if (!cfg)
		return 0;
	if (cfg->need_vec && cfg->vec_arg < ST_MAX_SDT_ARGS &&
	    st_sdt_arg(ctx, &site->args[cfg->vec_arg], &vec))
		return 0;
	loads = *armed & cfg->str_loads;
	for (i = 0; i < ST_MAX_LOADS; i++) {
		if (i >= cfg->nr_loads)
			break;
		if (loads & (1U << i))
			st_fault_in_one(ctx, site, &cfg->loads[i], vec);
	}
	return 0;
}
