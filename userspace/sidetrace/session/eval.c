// SPDX-License-Identifier: MIT
/* User-space expressions: see eval.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <stdlib.h>

#include "common/cgroup.h"
#include "common/numa.h"
#include "output/printf_print.h"
#include "parse/functions.h"
#include "session/eval.h"
#include "readout/map_access.h"
#include "bpfload/kread.h"
#include "ctypes/ctypes.h"
#include "tracer/tracer.h"

static void set_int(struct st_eval_val *out, enum st_vtype t, int64_t v)
{
	out->v.type = t == ST_VT_INT ? ST_VT_INT : ST_VT_UINT;
	out->v.i = v;
}

/* A buffer: its whole slot (bpf/sidetrace.h ST_BUF_HDR), NULs included. */
static void set_buf(struct st_eval_val *out, const char *slot)
{
	memcpy(out->str, slot, ST_STR_LEN);
	out->v.type = ST_VT_BUF;
	out->v.s = out->str;
}

static void set_str(struct st_eval_val *out, const char *s)
{
	snprintf(out->str, sizeof(out->str), "%s", s);
	out->v.type = ST_VT_STR;
	out->v.s = out->str;
}

/* bpf_ktime_get_ns() is CLOCK_MONOTONIC: nsecs compares across both sides. */
static int64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The machine's helper bi, as sidetrace itself has it. */
static int host_helper(uint8_t bi, int64_t *v)
{
	switch (bi) {
	case ST_BI_PID:
		*v = getpid();
		return 0;
	case ST_BI_TID:
		*v = gettid();
		return 0;
	case ST_BI_NSECS:
		*v = monotonic_ns();
		return 0;
	case ST_BI_CPU:
		*v = sched_getcpu();
		return 0;
	case ST_BI_UID:
		*v = getuid();
		return 0;
	case ST_BI_GID:
		*v = getgid();
		return 0;
	case ST_BI_NUMAID:
		*v = st_numa_node();
		return 0;
	case ST_BI_RAND:
		*v = (uint32_t)random();
		return 0;
	case ST_BI_CGROUP:
		*v = (int64_t)st_self_cgroup_id();
		return 0;
	default:
		return -EINVAL;
	}
}

void st_eval_helper_failed(const struct st_eval_ctx *x, struct st_pos pos, enum st_helper h,
			   int64_t ret)
{
	if (x->helper_failed && st_helper_checked(x->compiled->helper_checks, h))
		x->helper_failed(x->helper_ctx, pos, h, ret);
}

/* The session's BPF programs, which read the kernel's memory for sidetrace; NULL: none. */
static const struct st_loader *loader(const struct st_eval_ctx *x)
{
	return x->tracer ? &x->tracer->bpf : NULL;
}

/* A builtin, as its row says sidetrace computes it. */
static int eval_builtin(struct st_eval_ctx *x, const struct st_expr *e, struct st_eval_val *out)
{
	const struct st_builtin_row *b = st_builtin(e->builtin);
	int64_t v;
	int err;

	switch (b->host) {
	case ST_BC_HELPER:
		err = host_helper(b->helper, &v);
		if (!err)
			set_int(out, e->vtype, v);
		return err;
	case ST_BC_COMM:
		set_str(out, program_invocation_short_name);
		return 0;
	case ST_BC_PROBE:
		set_str(out, x->probe);
		return 0;
	case ST_BC_ELAPSED:
		set_int(out, e->vtype, monotonic_ns() - x->compiled->start_ns);
		return 0;
	case ST_BC_CPID:
		set_int(out, e->vtype, x->compiled->cpid);
		return 0;
	case ST_BC_TASK:
		err = st_kernel_read(loader(x), 0, NULL, 0, (uint64_t *)&v);
		if (!err)
			set_int(out, e->vtype, v);
		return err;
	default:
		/* The checker keeps the others in probes' events. */
		return -EINVAL;
	}
}

int st_eval_keys(struct st_eval_ctx *x, struct st_expr *const *exprs, uint32_t nr,
		 struct st_eval_val *vals, struct st_key_val *keys)
{
	uint32_t k;
	int err;

	for (k = 0; k < nr; k++) {
		err = st_eval(x, exprs[k], &vals[k]);
		if (err)
			return err;
		keys[k] = vals[k].v;
		if (st_vt_slot(keys[k].type))
			keys[k].s = vals[k].str;
	}
	return 0;
}

static int eval_map(struct st_eval_ctx *x, const struct st_expr *e, struct st_eval_val *out)
{
	struct st_eval_val vals[ST_MAX_MAP_KEYS];
	struct st_key_val keys[ST_MAX_MAP_KEYS];
	struct st_elem_val v;
	int err;

	err = st_eval_keys(x, e->kids, e->nr_kids, vals, keys);
	if (!err)
		err = st_elem_read(x->tracer, x->compiled, e->map_id, keys, &v);
	if (err)
		return err;
	/* bpftrace says a lookup's miss as 0, what its helper returned. */
	if (v.missing)
		st_eval_helper_failed(x, e->pos, ST_H_MAP_LOOKUP, 0);
	if (e->vtype == ST_VT_BUF)
		set_buf(out, v.s);
	else if (e->vtype == ST_VT_STR)
		set_str(out, v.s);
	else
		set_int(out, e->vtype, v.i);
	return 0;
}

/* A function's value, as its row says sidetrace computes it. */
static int eval_call(struct st_eval_ctx *x, const struct st_expr *e, struct st_eval_val *out)
{
	struct st_eval_val t;
	int64_t keep;
	int err;

	switch (st_func(e->func)->host) {
	case ST_FC_KEPT_ARG:
		/* Printed as its kept value where it is printed (runner.c), as the kernel's. */
		err = st_eval(x, st_kept_arg_value(e), out);
		if (!err && e->uval)
			set_int(out, ST_VT_UINT, st_kept_with_arg(out->v.i, (unsigned int)e->uval));
		return err;
	case ST_FC_ADDR:
		/* Named where it is printed (runner.c), as the collector names the kernel's. */
		return st_eval(x, e->kids[e->nr_kids - 1], out);
	case ST_FC_BSWAP:
		err = st_eval(x, e->kids[0], out);
		if (!err && st_bswap_unop(e->uval) >= 0)
			set_int(out, ST_VT_UINT, st_unary(st_bswap_unop(e->uval), out->v.i));
		return err;
	case ST_FC_STRCONTAINS:
		err = st_eval(x, e->kids[0], out) ?: st_eval(x, e->kids[1], &t);
		if (!err)
			set_int(out, ST_VT_UINT,
				memmem(out->v.s, strnlen(out->v.s, ST_STR_LEN), t.v.s,
				       strnlen(t.v.s, ST_STR_LEN)) != NULL);
		return err;
	case ST_FC_STR:
		err = st_eval(x, e->kids[0], out);
		if (err || e->nr_kids < 2)
			return err;
		err = st_eval(x, e->kids[1], &t);
		if (err)
			return err;
		/* Its first n characters: ST_STR_BYTES(n) with the NUL. */
		keep = ST_STR_BYTES(t.v.i) - 1;
		if (keep < (int64_t)strlen(out->str))
			out->str[keep] = '\0';
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * Where the C read e is in the kernel's memory (a member, an element, a
 * pointee), as the engines compute it: a member's offset from its struct,
 * an element's from its array or pointer, what a pointer holds.
 */
static int c_address(struct st_eval_ctx *x, const struct st_expr *e, uint64_t *addr)
{
	const struct st_expr *k = e->kids[0];
	struct st_eval_val v;
	bool place;
	int err;

	/* A member of a struct (not through a pointer), an element of an array: where it is. */
	place = (e->kind == ST_EXPR_MEMBER && !e->arrow) ||
		(e->kind == ST_EXPR_INDEX && k->ctype && k->ctype->kind == ST_CT_ARRAY);
	if (place &&
	    (k->kind == ST_EXPR_MEMBER || k->kind == ST_EXPR_INDEX || k->kind == ST_EXPR_DEREF))
		err = c_address(x, k, addr);
	else if (!(err = st_eval(x, k, &v)))
		*addr = v.v.i;
	if (err)
		return err;
	if (e->kind == ST_EXPR_MEMBER)
		*addr += e->bit_off / 8;
	if (e->kind == ST_EXPR_INDEX) {
		err = st_eval(x, e->kids[1], &v);
		*addr += (uint64_t)v.v.i * (e->ctype ? e->ctype->size : 1);
	}
	return err;
}

/* The value of C read e: read for sidetrace by the kernel; what it cannot read reads 0 or "". */
static int c_read(struct st_eval_ctx *x, const struct st_expr *e, struct st_eval_val *out)
{
	const struct st_ctype *t = e->ctype;
	uint8_t bytes[ST_KREAD_MAX + 8] = {0};
	uint32_t n = t ? t->size : 0, shift;
	uint64_t addr, u = 0;
	int err;

	err = c_address(x, e, &addr);
	if (err)
		return err;
	/* A bit field: the 8 bytes from its first, its bits cut out. */
	if (e->bit_size)
		n = 8;
	if (n > 8 && e->vtype != ST_VT_STR)
		return -EINVAL;
	if (e->vtype == ST_VT_STR)
		n = n < ST_STR_LEN - 1 ? n : ST_STR_LEN - 1;
	err = st_kernel_read(loader(x), addr, bytes, n, NULL);
	if (err && err != -EFAULT)
		return err;
	/* No address space here: bpftrace's plain probe_read. */
	if (err)
		st_eval_helper_failed(x, st_expr_start(e), ST_H_PROBE_READ, err);
	if (e->vtype == ST_VT_STR) {
		set_str(out, (const char *)bytes);
		return 0;
	}
	memcpy(&u, bytes, 8);
	if (e->bit_size) {
		u >>= e->bit_off % 8;
		u &= e->bit_size < 64 ? (1ULL << e->bit_size) - 1 : ~0ULL;
	} else if (n < 8 && t->is_signed) {
		shift = 64 - 8 * n;
		u = (uint64_t)((int64_t)(u << shift) >> shift);
	}
	set_int(out, e->vtype, (int64_t)u);
	return 0;
}

/* Casts, ?:, calls: the kinds that are neither leaves nor operators. */
static int eval_other(struct st_eval_ctx *x, const struct st_expr *e, struct st_eval_val *out)
{
	struct st_eval_val c;
	int err, shift;

	switch (e->kind) {
	case ST_EXPR_TERNARY:
		err = st_eval(x, e->kids[0], &c);
		return err ?: st_eval(x, e->kids[c.v.i ? 1 : 2], out);
	case ST_EXPR_CAST:
		err = st_eval(x, e->kids[0], out);
		shift = 64 - e->cast.bits;
		/* A pointer keeps every bit. */
		if (err || !shift || e->ctype)
			return err;
		if (e->cast.is_signed)
			set_int(out, ST_VT_INT, (int64_t)((uint64_t)out->v.i << shift) >> shift);
		else
			set_int(out, ST_VT_UINT, out->v.i & ((1ULL << e->cast.bits) - 1));
		return 0;
	case ST_EXPR_CALL:
		return eval_call(x, e, out);
	case ST_EXPR_MEMBER:
	case ST_EXPR_INDEX:
	case ST_EXPR_DEREF:
		return c_read(x, e, out);
	default:
		return -EINVAL;
	}
}

int st_eval(struct st_eval_ctx *x, const struct st_expr *e, struct st_eval_val *out)
{
	struct st_eval_val l, r;
	int err, op;

	switch (e->kind) {
	case ST_EXPR_INT:
		set_int(out, e->vtype, (int64_t)e->uval);
		return 0;
	case ST_EXPR_STR:
		if (e->vtype == ST_VT_BUF)
			set_buf(out, e->str);
		else
			set_str(out, e->str);
		return 0;
	case ST_EXPR_BUILTIN:
		return eval_builtin(x, e, out);
	case ST_EXPR_VAR:
		*out = x->vars[e->var_id];
		if (st_vt_slot(out->v.type))
			out->v.s = out->str;
		return 0;
	case ST_EXPR_MAP:
		return eval_map(x, e, out);
	case ST_EXPR_UNARY:
		err = st_eval(x, e->kids[0], &l);
		if (err)
			return err;
		op = st_unop_of(e->op);
		if (op < 0)
			return -EINVAL;
		set_int(out, e->vtype, st_unary(op, l.v.i));
		return 0;
	case ST_EXPR_BINARY:
		err = st_eval(x, e->kids[0], &l);
		if (!err)
			err = st_eval(x, e->kids[1], &r);
		if (err)
			return err;
		if (l.v.type == ST_VT_BUF) {
			set_int(out, ST_VT_UINT,
				!memcmp(l.str, r.str, ST_STR_LEN) == (e->op == ST_OP_EQ));
			return 0;
		}
		if (l.v.type == ST_VT_STR || r.v.type == ST_VT_STR) {
			set_int(out, ST_VT_UINT, !strcmp(l.str, r.str) == (e->op == ST_OP_EQ));
			return 0;
		}
		op = st_binop_of(e);
		if (op < 0)
			return -EINVAL;
		set_int(out, e->vtype, st_binary(op, l.v.i, r.v.i));
		return 0;
	default:
		return eval_other(x, e, out);
	}
}
