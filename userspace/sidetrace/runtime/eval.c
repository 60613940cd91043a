// SPDX-License-Identifier: MIT
/* User-space expressions: see eval.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compile/compile.h"
#include "runtime/eval.h"

static void set_int(struct st_eval_val *out, enum st_vtype t, int64_t v)
{
	out->v.type = t == ST_VT_INT ? ST_VT_INT : ST_VT_UINT;
	out->v.i = v;
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

static int eval_builtin(const struct st_expr *e, const char *probe, struct st_eval_val *out)
{
	switch (e->builtin) {
	case ST_BUILTIN_PID:
		set_int(out, e->vtype, getpid());
		return 0;
	case ST_BUILTIN_TID:
		set_int(out, e->vtype, gettid());
		return 0;
	case ST_BUILTIN_NSECS:
		set_int(out, e->vtype, monotonic_ns());
		return 0;
	case ST_BUILTIN_CPU:
		set_int(out, e->vtype, sched_getcpu());
		return 0;
	case ST_BUILTIN_UID:
		set_int(out, e->vtype, getuid());
		return 0;
	case ST_BUILTIN_COMM:
		set_str(out, program_invocation_short_name);
		return 0;
	case ST_BUILTIN_PROBE:
		set_str(out, probe);
		return 0;
	}
	return -EINVAL;
}

int st_eval(const struct st_expr *e, const char *probe, struct st_eval_val *out)
{
	struct st_eval_val l, r;
	int err, op;

	switch (e->kind) {
	case ST_EXPR_INT:
		set_int(out, e->vtype, (int64_t)e->uval);
		return 0;
	case ST_EXPR_STR:
		set_str(out, e->str);
		return 0;
	case ST_EXPR_BUILTIN:
		return eval_builtin(e, probe, out);
	case ST_EXPR_UNARY:
		err = st_eval(e->kids[0], probe, &l);
		if (err)
			return err;
		op = st_unop_of(e->op);
		if (op < 0)
			return -EINVAL;
		set_int(out, e->vtype, st_unary(op, l.v.i));
		return 0;
	case ST_EXPR_BINARY:
		err = st_eval(e->kids[0], probe, &l);
		if (!err)
			err = st_eval(e->kids[1], probe, &r);
		if (err)
			return err;
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
		return -EINVAL;
	}
}
