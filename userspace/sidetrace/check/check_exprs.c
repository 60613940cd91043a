// SPDX-License-Identifier: MIT
/*
 * Typing expressions: operators, literals, builtins, fields, calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "objfile/symbols.h"

/* How an expression is named in messages. */
static void expr_text(const struct st_expr *e, char *buf, size_t size)
{
	switch (e->kind) {
	case ST_EXPR_FIELD:
		ck_path_text(e, e->nr_path, buf, size);
		break;
	case ST_EXPR_BUILTIN:
		snprintf(buf, size, "%s", st_builtin_name(e->builtin));
		break;
	case ST_EXPR_STR:
		snprintf(buf, size, "\"%s\"", e->str);
		break;
	default:
		snprintf(buf, size, "the operand");
		break;
	}
}

const char *ck_ctx_ctype(const struct st_event *ev, char *buf, size_t size)
{
	if (!st_event_kind(ev)->ctx_ctype)
		return NULL;
	snprintf(buf, size, st_event_kind(ev)->ctx_ctype, ev->name);
	return buf;
}

/*
 * The C type builtin b points to: its row's, or where the row lets the
 * probe kind say, the kind's for the clause's event (iter:task's ctx:
 * struct bpf_iter__task). An iter: clause has one event (check_points.c).
 */
static const char *builtin_ctype(const struct checker *c, const struct st_builtin_row *b, char *buf,
				 size_t size)
{
	const struct st_event *ev = c->clause->nr_events ? c->clause->events[0] : NULL;
	const char *kind = b->kind_ctype && ev ? ck_ctx_ctype(ev, buf, size) : NULL;

	return kind ?: b->ctype;
}

/* A builtin where its row says it has a value. */
static int check_builtin(struct checker *c, struct st_expr *e)
{
	const struct st_builtin_row *b = st_builtin(e->builtin);
	char ctype[128];
	uint32_t i;

	if ((b->avail & ST_AVAIL_COMMAND) && !c->prog->has_command)
		return ck_err(c, e->pos, b->why_not, "the program");
	if (c->no_args && !(b->avail & ST_AVAIL_SESSION))
		return ck_err(c, e->pos, b->why_not, ck_point_kind_name(c->no_args));
	for (i = 0; (b->avail & ST_AVAIL_FUNCTION) && i < c->clause->nr_events; i++)
		if (!st_probe_kind_function(st_event_kind(c->clause->events[i])))
			return ck_err(c, e->pos, b->why_not,
				      st_event_kind(c->clause->events[i])->name);
	e->vtype = b->vtype;
	c->prog->kernel_reads |= c->no_args && b->host == ST_BC_TASK;
	return b->ctype ? ck_kernel_pointer(c, e, builtin_ctype(c, b, ctype, sizeof(ctype))) : 0;
}

/*
 * A value kept with its call's literal (strftime()'s, cgroup_path()'s:
 * parse/builtins.h) is printed, not computed with or tested, as in bpftrace.
 */
static int kept_with_arg(struct checker *c, const struct st_expr *x, const char *role)
{
	enum st_kept k = st_expr_kept(x);

	if (k != ST_KEPT_TIME && k != ST_KEPT_CGROUP)
		return 0;
	return ck_err(c, x->pos, "%s: %s is printed as text, not computed with or tested", role,
		      k == ST_KEPT_TIME ? "strftime()'s time" : "cgroup_path()'s cgroup");
}

/* kept_with_arg() for an operator's operand. */
static int kept_operand(struct checker *c, const struct st_expr *x, enum st_op op)
{
	char role[32];

	snprintf(role, sizeof(role), "'%s'", st_op_name(op));
	return kept_with_arg(c, x, role);
}

static int check_unary(struct checker *c, struct st_expr *e)
{
	struct st_expr *x = e->kids[0];
	char what[256];
	int err;

	if (e->op == ST_OP_NOT) {
		e->vtype = ST_VT_BOOL;
		return ck_cond(c, &e->kids[0], "'!'");
	}
	err = ck_expr(c, x);
	if (!err)
		err = ck_settle(c, x, ST_VT_INT, "used as a number") ?: kept_operand(c, x, e->op);
	if (err)
		return err;
	if (!ck_is_int(x->vtype)) {
		expr_text(x, what, sizeof(what));
		return ck_err(c, e->pos, "'%s' needs an integer, but %s is a string",
			      st_op_name(e->op), what);
	}
	if (e->op == ST_OP_BNOT && x->vtype != ST_VT_INT)
		e->vtype = ST_VT_UINT;
	else
		e->vtype = ST_VT_INT;
	return 0;
}

/*
 * Dynamic operands take their type from the operator: == and != from the
 * other operand (a string when both are dynamic, see ck_settle_default()),
 * every other operator needs integers.
 */
static int settle_operands(struct checker *c, struct st_expr *e)
{
	struct st_expr *l = e->kids[0], *r = e->kids[1];
	int err;

	if (e->op != ST_OP_EQ && e->op != ST_OP_NE) {
		err = ck_settle(c, l, ST_VT_INT, "used as a number");
		return err ? err : ck_settle(c, r, ST_VT_INT, "used as a number");
	}
	if (l->vtype == ST_VT_NONE && r->vtype == ST_VT_NONE) {
		err = ck_settle_default(c, l, "compared with a dynamic field");
		if (err)
			return err;
	}
	if (l->vtype == ST_VT_NONE)
		return ck_settle(c, l, r->vtype == ST_VT_STR ? ST_VT_STR : ST_VT_INT,
				 r->vtype == ST_VT_STR ? "compared with a string"
						       : "compared with an integer");
	return ck_settle(c, r, l->vtype == ST_VT_STR ? ST_VT_STR : ST_VT_INT,
			 l->vtype == ST_VT_STR ? "compared with a string"
					       : "compared with an integer");
}

/* The literal 0, signed or not (-0 is 0). */
static bool is_zero(const struct st_expr *e)
{
	if (e->kind == ST_EXPR_UNARY && e->op == ST_OP_NEG)
		e = e->kids[0];
	return e->kind == ST_EXPR_INT && e->uval == 0;
}

static int check_binary(struct checker *c, struct st_expr *e)
{
	struct st_expr *l = e->kids[0], *r = e->kids[1];
	bool lstr, rstr;
	char what[256];
	int err;

	if (e->op == ST_OP_LAND || e->op == ST_OP_LOR) {
		e->vtype = ST_VT_BOOL;
		snprintf(what, sizeof(what), "'%s'", st_op_name(e->op));
		err = ck_cond(c, &e->kids[0], what);
		return err ? err : ck_cond(c, &e->kids[1], what);
	}
	if (e->op == ST_OP_EQ || e->op == ST_OP_NE) {
		err = ck_expr_whole(c, l) ?: ck_expr_whole(c, r);
		if (!err && (l->vtype == ST_VT_WHOLE || r->vtype == ST_VT_WHOLE))
			return ck_whole_compare(c, e);
	} else {
		err = ck_expr(c, l) ?: ck_expr(c, r);
	}
	if (!err)
		err = kept_operand(c, l, e->op) ?: kept_operand(c, r, e->op);
	if (!err)
		err = settle_operands(c, e);
	/* A kernel record's char * beside an integer is its address (args->filename != 0). */
	if (!err && l->vtype == ST_VT_STR && r->vtype != ST_VT_STR)
		err = ck_string_pointer(c, l);
	if (!err && r->vtype == ST_VT_STR && l->vtype != ST_VT_STR)
		err = ck_string_pointer(c, r);
	if (err)
		return err;
	lstr = st_vt_slot(l->vtype);
	rstr = st_vt_slot(r->vtype);
	switch (e->op) {
	case ST_OP_EQ:
	case ST_OP_NE:
		if (lstr != rstr || (lstr && l->vtype != r->vtype))
			return ck_err(c, e->pos,
				      "cannot compare %s with %s: '%s' needs two strings, two "
				      "buffers or two integers",
				      ck_vtype_kind(l->vtype), ck_vtype_kind(r->vtype),
				      st_op_name(e->op));
		e->vtype = ST_VT_BOOL;
		return 0;
	case ST_OP_LT:
	case ST_OP_LE:
	case ST_OP_GT:
	case ST_OP_GE:
		if (lstr || rstr)
			return ck_err(
				c, e->pos,
				"'%s' compares integers: strings can only be compared with == "
				"and !=",
				st_op_name(e->op));
		e->vtype = ST_VT_BOOL;
		return 0;
	default:
		break;
	}
	if (lstr || rstr) {
		expr_text(lstr ? l : r, what, sizeof(what));
		return ck_err(c, e->pos, "arithmetic on %s: '%s' needs integers, but %s is %s",
			      ck_vtype_kind(lstr ? l->vtype : r->vtype), st_op_name(e->op), what,
			      ck_vtype_kind(lstr ? l->vtype : r->vtype));
	}
	if ((e->op == ST_OP_DIV || e->op == ST_OP_MOD) && is_zero(r))
		return ck_err(c, r->pos, "'%s' by the constant 0: division by zero",
			      st_op_name(e->op));
	/* bpftrace's promotion: signed when both operands are, a shift when its left is. */
	if (e->op == ST_OP_SHL || e->op == ST_OP_SHR)
		e->vtype = l->vtype == ST_VT_INT ? ST_VT_INT : ST_VT_UINT;
	else
		e->vtype = l->vtype == ST_VT_INT && r->vtype == ST_VT_INT ? ST_VT_INT : ST_VT_UINT;
	return ck_ctype_arith(c, e);
}

/* cond ? a : b: two strings or two integers. */
static int check_ternary(struct checker *c, struct st_expr *e)
{
	struct st_expr *a = e->kids[1], *b = e->kids[2];
	int err;

	err = ck_cond(c, &e->kids[0], "the condition of ?:");
	if (!err)
		err = ck_expr(c, a);
	if (!err)
		err = ck_expr(c, b);
	if (!err && a->vtype == ST_VT_NONE)
		err = ck_settle(c, a, b->vtype == ST_VT_STR ? ST_VT_STR : ST_VT_INT, "in ?:");
	if (!err && b->vtype == ST_VT_NONE)
		err = ck_settle(c, b, a->vtype == ST_VT_STR ? ST_VT_STR : ST_VT_INT, "in ?:");
	if (err)
		return err;
	if (strcmp(ck_vtype_kind(a->vtype), ck_vtype_kind(b->vtype)))
		return ck_err(c, e->pos,
			      "the two values of ?: are %s and %s: both must be of one kind",
			      ck_vtype_kind(a->vtype), ck_vtype_kind(b->vtype));
	if (st_vt_slot(a->vtype))
		e->vtype = a->vtype;
	else
		e->vtype = a->vtype == ST_VT_INT || b->vtype == ST_VT_INT ? ST_VT_INT : ST_VT_UINT;
	if (a->ctype == b->ctype && a->mem == b->mem) {
		e->ctype = a->ctype;
		e->mem = a->mem;
	}
	return 0;
}

/*
 * str($N + k) of a parameter given as text: its text from byte k on, as
 * bpftrace reads the literal's bytes at that address.
 */
static void positional_suffix(struct st_expr *e)
{
	struct st_expr *sum = e->kids[0], *s, *k;
	size_t len;

	if (sum->kind != ST_EXPR_BINARY || sum->op != ST_OP_ADD)
		return;
	s = sum->kids[0];
	k = sum->kids[1];
	if (!s->positional || s->kind != ST_EXPR_STR || k->kind != ST_EXPR_INT)
		return;
	len = strlen(s->str);
	memmove(s->str, s->str + (k->uval < len ? k->uval : len),
		len - (k->uval < len ? k->uval : len) + 1);
	sum->kids[0] = NULL;
	st_expr_free(sum);
	e->kids[0] = s;
}

int ck_str(struct checker *c, struct st_expr *e)
{
	const struct st_func_row *f = st_func(e->func);
	struct st_expr *n = e->nr_kids == f->max_args ? e->kids[1] : NULL;
	int err;

	if (e->nr_kids < f->min_args || e->nr_kids > f->max_args)
		return ck_err(c, e->pos, "str() takes a string and an optional length: str(s, n)");
	/* str($N): the parameter's text, whether it reads as a number or not. */
	if (e->kids[0]->positional && e->kids[0]->kind == ST_EXPR_INT)
		e->kids[0]->kind = ST_EXPR_STR;
	positional_suffix(e);
	err = ck_expr(c, e->kids[0]);
	if (!err)
		err = ck_settle(c, e->kids[0], ST_VT_STR, "passed to str()");
	/*
	 * An address: a usdt: operand is read with its probe's loads (paged
	 * in when it was not yet), any other address where the string is.
	 */
	if (!err && e->kids[0]->vtype != ST_VT_STR && ck_addr_operand(e->kids[0]))
		err = ck_str_at(c, e->kids[0]);
	else if (!err && e->kids[0]->vtype != ST_VT_STR)
		err = ck_reads_memory(c, e->pos, "str() of an address");
	if (err)
		return err;
	/* n characters, as bpftrace reads: a constant or computed per event. */
	if (n)
		err = ck_int(c, n, "str()'s length");
	if (err)
		return err;
	if (n && n->kind == ST_EXPR_INT && (int64_t)n->uval < 0)
		n->uval = 0;
	e->vtype = st_func(e->func)->vtype;
	return 0;
}

/*
 * ksym(addr), usym(addr): a kernel address, or a user address of the
 * event's process, named by the collector where it is a map key.
 */
int ck_sym(struct checker *c, struct st_expr *e)
{
	bool k = st_func(e->func)->kept == ST_KEPT_KSYM;
	char what[32];
	int err;

	if (e->nr_kids != 1)
		return ck_err(c, e->pos, "%s() takes one %s address: %s(arg0)",
			      st_func_name(e->func), k ? "kernel" : "user", st_func_name(e->func));
	snprintf(what, sizeof(what), "passed to %s()", st_func_name(e->func));
	err = ck_int(c, e->kids[0], what);
	e->vtype = st_func(e->func)->vtype;
	return err;
}

/*
 * kaddr("sym"): the kernel's address of a symbol, read from kallsyms now,
 * as bpftrace resolves it when it compiles; the call becomes that literal.
 */
int ck_kaddr(struct checker *c, struct st_expr *e)
{
	struct st_expr *name = e->nr_kids == 1 ? e->kids[0] : NULL;
	uint64_t addr;
	int err;

	if (!name || name->kind != ST_EXPR_STR)
		return ck_err(c, e->pos,
			      "kaddr() takes a kernel symbol's name: kaddr(\"avenrun\")");
	err = st_kallsyms_addr(name->str, &addr);
	if (err == -ENOENT)
		return ck_err(c, name->pos, "kaddr(): /proc/kallsyms has no symbol %s", name->str);
	if (err == -EPERM)
		return ck_err(
			c, name->pos,
			"kaddr(): /proc/kallsyms hides the kernel's addresses from this user: "
			"run as root");
	if (err)
		return ck_err(c, name->pos, "kaddr(): cannot read /proc/kallsyms: %s",
			      strerror(-err));
	st_expr_make_int(e, addr);
	return 0;
}

/* strftime("fmt", ns): a literal format and a time in nanoseconds (nsecs). */
int ck_strftime(struct checker *c, struct st_expr *e)
{
	int err;

	if (e->nr_kids != 2 || e->kids[0]->kind != ST_EXPR_STR)
		return ck_err(
			c, e->pos,
			"strftime() takes a format string and a time: strftime(\"%%H:%%M:%%S\", "
			"nsecs)");
	err = ck_int(c, e->kids[1], "strftime()'s time");
	e->vtype = st_func(e->func)->vtype;
	return err ?: ck_kept_arg(c, e, e->kids[0]);
}

static int check_expr(struct checker *c, struct st_expr *e)
{
	int err;

	switch (e->kind) {
	case ST_EXPR_INT:
		e->vtype = e->is_unsigned ? ST_VT_UINT : ST_VT_INT;
		return 0;
	case ST_EXPR_STR:
		/* A constant buffer (check_bufs.c) stays one when checked again. */
		if (e->vtype != ST_VT_BUF)
			e->vtype = ST_VT_STR;
		return 0;
	case ST_EXPR_BUILTIN:
		return check_builtin(c, e);
	case ST_EXPR_FIELD:
		err = ck_c_path(c, e);
		if (err || e->kind != ST_EXPR_FIELD)
			return err ?: check_expr(c, e);
		return ck_field(c, e);
	case ST_EXPR_UNARY:
		return check_unary(c, e);
	case ST_EXPR_BINARY:
		return check_binary(c, e);
	case ST_EXPR_MAP:
		return ck_map_read(c, e);
	case ST_EXPR_VAR:
		return ck_var(c, e);
	case ST_EXPR_TERNARY:
		return check_ternary(c, e);
	case ST_EXPR_CAST:
		return ck_cast(c, e);
	case ST_EXPR_MEMBER:
	case ST_EXPR_INDEX:
	case ST_EXPR_DEREF:
		return ck_c_read(c, e, false);
	case ST_EXPR_IDENT:
		return ck_enum_value(c, e);
	case ST_EXPR_TUPLE:
		return ck_tuple(c, e);
	case ST_EXPR_INCR:
		/* Statements, conditions and filters take theirs before them (check_incr.c). */
		return ck_err(c, e->pos,
			      "'%s' here has no statement before it to run in: change it in a "
			      "statement of its own ($x%s;)",
			      e->op == ST_OP_ADD ? "++" : "--", e->op == ST_OP_ADD ? "++" : "--");
	case ST_EXPR_ARGS:
		return ck_err(c, e->pos,
			      "args alone is the whole event: print(args) prints it, a value "
			      "is a field (args.FIELD)");
	case ST_EXPR_CALL:
		/* A call the checker did not make a constant runs where its clause runs. */
		if (st_func(e->func)->form == ST_FORM_VALUE)
			return ck_call_args(c, e)
				       ?: (e->kind == ST_EXPR_CALL ? ck_host_has(c, e) : 0);
		break;
	}
	return ck_err(c, e->pos,
		      "%s() is not a value: aggregations are assigned to maps (@m = count()) "
		      "and actions are statements",
		      e->str);
}

int ck_expr(struct checker *c, struct st_expr *e)
{
	bool whole_ok = c->whole_ok;
	int err;

	c->whole_ok = false;
	err = check_expr(c, e);
	if (err || e->vtype != ST_VT_WHOLE || whole_ok)
		return err;
	return ck_err(c, e->pos,
		      "this is a whole %s, and a value is needed here: read its %s, or print() "
		      "it",
		      e->ctype->name,
		      e->ctype->kind == ST_CT_ARRAY ? "elements ([i])" : "members (.NAME)");
}

int ck_expr_whole(struct checker *c, struct st_expr *e)
{
	c->whole_ok = true;
	return ck_expr(c, e);
}

/* A checked e as an integer, a dynamic field typed as one. */
int ck_need_int(struct checker *c, struct st_expr *e, const char *role)
{
	char what[256];
	int err;

	err = ck_settle(c, e, ST_VT_INT, "used as a number");
	/* A kernel record's char * used as a number is its address, as bpftrace's pointer. */
	if (!err && e->vtype == ST_VT_STR)
		err = ck_string_pointer(c, e);
	if (err || ck_is_int(e->vtype))
		return err ?: kept_with_arg(c, e, role);
	expr_text(e, what, sizeof(what));
	return ck_err(c, e->pos, "%s needs an integer value, but %s is a string", role, what);
}

/* An integer value: an aggregation argument, a cast. */
int ck_int(struct checker *c, struct st_expr *e, const char *role)
{
	int err = ck_expr(c, e);

	return err ? err : ck_need_int(c, e, role);
}

/*
 * A condition: an integer, or a string true when not empty, as bpftrace's
 * snoop tools test a map of strings whose missing key reads as "". The
 * string becomes s != "", which every engine compares already.
 */
int ck_cond(struct checker *c, struct st_expr **ep, const char *role)
{
	struct st_expr *s = *ep, *ne, *empty;
	int err;

	err = ck_expr(c, s);
	if (err || s->vtype != ST_VT_STR)
		return err ? err : ck_need_int(c, s, role);
	empty = st_expr_new(ST_EXPR_STR, s->pos);
	if (empty)
		empty->str = strdup("");
	ne = empty && empty->str ? st_expr_node(ST_EXPR_BINARY, s->pos, 2, s, empty) : NULL;
	if (!ne) {
		st_expr_free(empty);
		return ck_oom(c);
	}
	empty->vtype = ST_VT_STR;
	ne->op = ST_OP_NE;
	ne->vtype = ST_VT_BOOL;
	*ep = ne;
	return 0;
}
