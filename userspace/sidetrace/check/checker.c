// SPDX-License-Identifier: MIT
/*
 * Statements and maps, and the whole check (st_check): see checker.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "dwarf/dwarf.h"

static const char agg_forms[] =
	"count(), sum(v), avg(v), min(v), max(v), stats(v), hist(v) or lhist(v, min, max, step)";

/* An integer constant, possibly negated: lhist() bounds. */
static bool const_int(const struct st_expr *e, int64_t *v)
{
	if (e->kind == ST_EXPR_UNARY && e->op == ST_OP_NEG && const_int(e->kids[0], v)) {
		*v = -*v;
		return true;
	}
	if (e->kind != ST_EXPR_INT || e->is_unsigned)
		return false;
	*v = (int64_t)e->uval;
	return true;
}

/* lhist(v, min, max, step): v an integer, the bounds constants that make buckets. */
static int check_lhist(struct checker *c, struct st_expr *call)
{
	static const char *const roles[] = {"min", "max", "step"};
	int64_t lh[3];
	int i, err;

	if (call->nr_kids != st_func(call->func)->max_args)
		return ck_err(c, call->pos, "lhist() takes 4 arguments: lhist(v, min, max, step)");
	err = ck_int(c, call->kids[0], "lhist()");
	if (err)
		return err;
	for (i = 0; i < 3; i++) {
		err = ck_expr(c, call->kids[i + 1]);
		if (err)
			return err;
		if (!const_int(call->kids[i + 1], &lh[i]))
			return ck_err(
				c, call->kids[i + 1]->pos,
				"lhist() %s must be an integer constant: lhist(v, min, max, step)",
				roles[i]);
	}
	if (lh[0] < 0)
		return ck_err(c, call->kids[1]->pos,
			      "lhist() min must be non-negative (provided min %lld)",
			      (long long)lh[0]);
	if (lh[1] <= lh[0])
		return ck_err(c, call->kids[2]->pos,
			      "lhist() min must be less than max (provided min %lld and max %lld)",
			      (long long)lh[0], (long long)lh[1]);
	if (lh[2] < 1)
		return ck_err(c, call->kids[3]->pos, "lhist() step must be >= 1 (%lld provided)",
			      (long long)lh[2]);
	if (lh[2] > lh[1] - lh[0])
		return ck_err(
			c, call->kids[3]->pos,
			"lhist() step is too large for the given range (provided step %lld for "
			"range %lld)",
			(long long)lh[2], (long long)(lh[1] - lh[0]));
	if ((lh[1] - lh[0]) / lh[2] > ST_LHIST_MAX_BUCKETS)
		return ck_err(c, call->pos,
			      "lhist() too many buckets, must be <= %d (would need %lld)",
			      ST_LHIST_MAX_BUCKETS, (long long)((lh[1] - lh[0]) / lh[2]));
	return 0;
}

/* sum(v) and the like: one integer. */
static int check_value(struct checker *c, struct st_expr *call)
{
	const char *fn = st_func_name(call->func);
	char role[32];
	int err;

	if (call->nr_kids != st_func(call->func)->max_args)
		return ck_err(c, call->pos, "%s() takes one value: %s(v)", fn, fn);
	snprintf(role, sizeof(role), "%s()", fn);
	/* A value's type is its row's (strerror(), kptr()); an aggregation's none. */
	call->vtype = st_func(call->func)->vtype;
	err = ck_expr(c, call->kids[0]);
	/* kptr(args->filename): a kernel probe's char * field is its pointer here. */
	if (!err && st_func(call->func)->mem != ST_MEM_PROBE)
		err = ck_string_pointer(c, call->kids[0]);
	if (!err)
		err = ck_need_int(c, call->kids[0], role);
	/* kptr(p), uptr(p): p, pointing where the function says. */
	if (!err && st_func(call->func)->mem != ST_MEM_PROBE) {
		call->ctype = call->kids[0]->ctype;
		call->mem = st_func(call->func)->mem;
	}
	return err;
}

/* bpftrace's functions that sidetrace has not: refused with the row's reason. */
static int check_refused(struct checker *c, struct st_expr *call)
{
	return ck_err(c, call->pos, "%s() %s", st_func_name(call->func),
		      st_func(call->func)->no_bpf);
}

/* count(), exit(). */
static int check_none(struct checker *c, struct st_expr *call)
{
	if (call->nr_kids)
		return ck_err(c, call->kids[0]->pos, "%s() takes no argument",
			      st_func_name(call->func));
	return 0;
}

/* lhist() bounds, once checked; zeros for other aggregations. */
static void lhist_bounds(const struct st_expr *call, int64_t lh[3])
{
	int i;

	for (i = 0; st_func(call->func)->args == ST_FA_LHIST && i < 3; i++)
		const_int(call->kids[i + 1], &lh[i]);
}

/*
 * The map ck_declare_maps() created: one aggregation, key count, key
 * kinds, lhist bounds everywhere.
 */
static int check_map_use(struct checker *c, struct st_stmt *s, const int64_t lh[3])
{
	struct st_map_info *m = &c->prog->maps[s->map_id];
	int err;

	if (!m->checked) {
		m->checked = true;
		m->lhist_min = lh[0];
		m->lhist_max = lh[1];
		m->lhist_step = lh[2];
	} else if (m->agg == ST_K_LHIST &&
		   (m->lhist_min != lh[0] || m->lhist_max != lh[1] || m->lhist_step != lh[2])) {
		return ck_err(c, s->call->pos,
			      "lhist() bounds of %s differ from those at line %u, column %u: a map "
			      "has one set of buckets",
			      s->map, m->pos.line, m->pos.col);
	}
	err = ck_map_keys(c, s->map_id, &s->keys, &s->nr_keys, s->map_pos);
	if (err)
		return err;
	if (m->agg != ST_K_COUNT && s->call->kids[0]->vtype == ST_VT_INT)
		m->value_signed = true;
	return 0;
}

int ck_agg_stmt(struct checker *c, struct st_stmt *s)
{
	int64_t lh[3] = {0};
	int err;

	if (st_func(s->call->func)->form != ST_FORM_AGG)
		return ck_err(c, s->call->pos, "%s() is not an aggregation: a map is assigned %s",
			      st_func_name(s->call->func), agg_forms);
	err = ck_call_args(c, s->call);
	if (err)
		return err;
	lhist_bounds(s->call, lh);
	return check_map_use(c, s, lh);
}

/* print(@m), print(@m, top), print(@m, top, div): top and div constants. */
static int check_print_map(struct checker *c, struct st_expr *call)
{
	static const char *const roles[] = {"top", "div"};
	int64_t v;
	uint32_t i;
	int err;

	err = ck_map_ref(c, call->kids[0]);
	if (err)
		return err;
	if (call->kids[0]->nr_kids)
		return ck_err(c, call->kids[0]->pos,
			      "print() takes a whole map: print(%s), print(%s, top, div)",
			      call->kids[0]->str, call->kids[0]->str);
	if (call->nr_kids > st_func(call->func)->max_args)
		return ck_err(c, call->kids[3]->pos,
			      "print() takes at most 3 arguments: print(@m, top, div)");
	for (i = 1; i < call->nr_kids; i++) {
		err = ck_expr(c, call->kids[i]);
		if (err)
			return err;
		if (!const_int(call->kids[i], &v) || v < 0)
			return ck_err(
				c, call->kids[i]->pos,
				"print(@m, top, div): %s must be an integer constant >= 0 (%s)",
				roles[i - 1],
				i == 2 ? "0 or 1: values as they are" : "0: every entry");
	}
	return 0;
}

/* print(value): printed as printf("%d\n") or printf("%s\n") would. */
static int check_print_value(struct checker *c, struct st_expr *call)
{
	int err;

	if (call->nr_kids != 1)
		return ck_err(c, call->nr_kids ? call->kids[1]->pos : call->pos,
			      "print() takes a map (print(@m, top, div)), the event (print(args)) "
			      "or one value");
	err = ck_expr_whole(c, call->kids[0]);
	if (err)
		return err;
	return call->kids[0]->vtype == ST_VT_WHOLE ? ck_whole_print(c, call)
						   : ck_print_value(c, call);
}

/* delete(@m[k]): a key of a map that has keys, or a map of one value. */
static int check_delete(struct checker *c, struct st_expr *call)
{
	struct st_expr *ref = call->nr_kids == 1 ? call->kids[0] : NULL;
	const struct st_map_info *m;
	int err;

	if (!ref || ref->kind != ST_EXPR_MAP)
		return ck_err(c, ref ? ref->pos : call->pos,
			      "delete() takes one map element: delete(@m[key])");
	err = ck_map_ref(c, ref);
	if (!err)
		err = ck_map_keys(c, ref->map_id, &ref->kids, &ref->nr_kids, ref->pos);
	if (err)
		return err;
	c->prog->maps[ref->map_id].elem_used = true;
	m = &c->prog->maps[ref->map_id];
	if (st_kind_has_bucket(m->agg))
		return ck_err(
			c, ref->pos,
			"delete() of a %s() map: its buckets are keys of their own; clear(%s) "
			"empties the map",
			st_agg_name(m->agg), m->name);
	if (m->nr_keys || m->agg == ST_K_VALUE)
		return 0;
	/* An aggregation without keys is one value per CPU: deleting it empties the map. */
	call->func = ST_FN_CLEAR;
	return 0;
}

/* print(args), print(@m, top, div) or print(value). */
static int check_print(struct checker *c, struct st_expr *call)
{
	if (call->nr_kids == 1 && call->kids[0]->kind == ST_EXPR_ARGS) {
		if (c->no_args)
			return ck_err(
				c, call->kids[0]->pos,
				"%s has no event: print(args) prints the event of a side: probe",
				ck_point_kind_name(c->no_args));
		if (ck_clause_located(c))
			return ck_print_located(c, call);
		return 0;
	}
	if (call->nr_kids && call->kids[0]->kind == ST_EXPR_MAP && !call->kids[0]->nr_kids)
		return check_print_map(c, call);
	return check_print_value(c, call);
}

/* clear(@m), zero(@m): a whole map. */
static int check_map_arg(struct checker *c, struct st_expr *call)
{
	const char *fn = st_func_name(call->func);
	const struct st_map_info *m;
	int err;

	if (call->nr_kids == 1 && call->kids[0]->kind == ST_EXPR_MAP && !call->kids[0]->nr_kids) {
		err = ck_map_ref(c, call->kids[0]);
		if (err)
			return err;
		m = &c->prog->maps[call->kids[0]->map_id];
		/* A plain value without keys is one element: per event, clear() deletes it. */
		if (st_func(call->func)->host == ST_FC_CLEAR && st_clause_on_sites(c->clause) &&
		    m->agg == ST_K_VALUE && !m->nr_keys && !m->whole) {
			call->func = ST_FN_DELETE;
			c->prog->maps[call->kids[0]->map_id].elem_used = true;
		}
		return 0;
	}
	return ck_err(c, call->nr_kids ? call->kids[0]->pos : call->pos,
		      "%s() takes a map: %s(@name)", fn, fn);
}

/*
 * str($N) as a function's argument is the parameter's text, a literal, as
 * bpftrace takes it where a literal is wanted: kaddr(str($1)).
 */
static void positional_literals(struct st_expr *call)
{
	struct st_expr *k, *n;
	uint32_t i;

	for (i = 0; i < call->nr_kids; i++) {
		k = call->kids[i];
		if (k->kind != ST_EXPR_CALL || st_func(k->func)->args != ST_FA_STR ||
		    k->nr_kids != 1 || !k->kids[0]->positional || !k->kids[0]->str)
			continue;
		n = k->kids[0];
		n->kind = ST_EXPR_STR;
		k->kids[0] = NULL;
		st_expr_free(k);
		call->kids[i] = n;
	}
}

int ck_call_args(struct checker *c, struct st_expr *call)
{
	static int (*const rules[])(struct checker * c, struct st_expr * call) = {
		[ST_FA_NONE] = check_none,
		[ST_FA_VALUE] = check_value,
		[ST_FA_LHIST] = check_lhist,
		[ST_FA_PRINT] = check_print,
		[ST_FA_MAP] = check_map_arg,
		[ST_FA_ELEM] = check_delete,
		[ST_FA_FORMAT] = ck_printf,
		[ST_FA_TIME] = ck_time,
		[ST_FA_STR] = ck_str,
		[ST_FA_ADDR] = ck_sym,
		[ST_FA_STRFTIME] = ck_strftime,
		[ST_FA_SYMBOL] = ck_kaddr,
		[ST_FA_JOIN] = ck_join,
		[ST_FA_NTOP] = ck_ntop,
		[ST_FA_PTON] = ck_pton,
		[ST_FA_PATH] = ck_cgroupid,
		[ST_FA_SIGNAL] = ck_signal,
		[ST_FA_SIZEOF] = ck_sizeof,
		[ST_FA_STRNCMP] = ck_strncmp,
		[ST_FA_BSWAP] = ck_bswap,
		[ST_FA_BUF] = ck_buf,
		[ST_FA_MACADDR] = ck_macaddr,
		[ST_FA_UNWATCH] = ck_unwatch,
		[ST_FA_REG] = ck_reg,
		[ST_FA_USYMBOL] = ck_uaddr,
		[ST_FA_CGROUP] = ck_cgroup_path,
		[ST_FA_STRINGS] = ck_strings,
		[ST_FA_DPATH] = ck_dpath,
		[ST_FA_REFUSED] = check_refused,
	};
	int err = ck_unsafe(c, call);

	positional_literals(call);
	if (!err && st_func(call->func)->args != ST_FA_SIZEOF &&
	    (call->cast.name || call->cast.bits))
		err = ck_err(c, call->pos, "%s() takes values, not a type: only sizeof() takes one",
			     st_func_name(call->func));
	return err ?: rules[st_func(call->func)->args](c, call);
}

int ck_action(struct checker *c, struct st_stmt *s)
{
	const char *fn = st_func_name(s->call->func);

	switch (st_func(s->call->func)->form) {
	case ST_FORM_AGG:
		return ck_err(c, s->call->pos, "%s() must be assigned to a map: @name = %s(...)",
			      fn, fn);
	case ST_FORM_VALUE:
		return ck_err(c, s->call->pos,
			      "%s() is a value: assign it ($s = %s(...)) or print it", fn, fn);
	default:
		return ck_call_args(c, s->call) ?: ck_whole_map_action(c, s);
	}
}

/* The clause's probed objects, whose DWARF names the types its casts and pointers name. */
static int add_objects(struct checker *c, const struct st_clause *cl)
{
	struct st_ctypes *r;
	uint32_t i;

	for (i = 0; i < cl->nr_events; i++) {
		const struct st_event *ev = cl->events[i];

		if (st_event_kind(ev)->in_kernel || !ev->path)
			continue;
		r = ck_ctypes(c);
		if (!r || st_ctypes_add_object(r, ev->path, &st_dwarf_ctypes_ops))
			return ck_oom(c);
	}
	return 0;
}

static int check_clause(struct checker *c, struct st_clause *cl)
{
	uint32_t i;
	int err = 0;

	c->clause = cl;
	c->no_args = NULL;
	c->nr_dyn = 0;
	c->nr_scope = 0;
	c->depth = 0;
	for (i = 0; !err && i < cl->nr_points; i++) {
		if (st_probe_kind(cl->points[i].kind)->runs == ST_RUNS_AT_EVENTS)
			err = ck_sites_point(c, &cl->points[i]);
		else if (!c->no_args)
			c->no_args = &cl->points[i];
	}
	if (!err)
		err = add_objects(c, cl) ?: ck_hoist_filter(c, cl);
	if (!err && cl->filter)
		err = ck_cond(c, &cl->filter, "the filter");
	err = err ?: ck_stmts(c, cl->stmts, cl->nr_stmts);
	return err ?: ck_zero_vars(c, cl);
}

int st_check(struct st_program *prog, const struct st_event_source *src, struct st_diag *diag)
{
	struct checker c = {.prog = prog, .src = src, .diag = diag};
	uint32_t i;
	int err;

	memset(diag, 0, sizeof(*diag));
	err = ck_declare_maps(&c);
	for (i = 0; !err && i < prog->nr_clauses; i++)
		err = check_clause(&c, &prog->clauses[i]);
	if (!err)
		err = ck_maps_untyped(&c);
	free(c.dyn);
	return err;
}
