// SPDX-License-Identifier: MIT
/*
 * Statements and maps, and the whole check (st_check): see checker.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/check.h"

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

static int check_lhist(struct checker *c, struct st_expr *call, int64_t lh[3])
{
	static const char *const roles[] = {"min", "max", "step"};
	int i, err;

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

/* Arity and argument types of an aggregation; lh gets lhist() bounds. */
static int check_agg_call(struct checker *c, struct st_expr *call, int64_t lh[3])
{
	const char *fn = st_func_name(call->func);
	char role[32];
	int err;

	if (call->func > ST_FN_LHIST)
		return ck_err(c, call->pos, "%s() is not an aggregation: a map is assigned %s", fn,
			      agg_forms);
	if (call->func == ST_FN_COUNT) {
		if (call->nr_kids)
			return ck_err(c, call->kids[0]->pos, "count() takes no argument");
		return 0;
	}
	if (call->func == ST_FN_LHIST && call->nr_kids != 4)
		return ck_err(c, call->pos, "lhist() takes 4 arguments: lhist(v, min, max, step)");
	if (call->func != ST_FN_LHIST && call->nr_kids != 1)
		return ck_err(c, call->pos, "%s() takes one value: %s(v)", fn, fn);
	snprintf(role, sizeof(role), "%s()", fn);
	err = ck_int(c, call->kids[0], role);
	if (err)
		return err;
	if (call->func == ST_FN_LHIST)
		return check_lhist(c, call, lh);
	return 0;
}

/* The map's entry in prog->maps, created on first use. */
static int map_entry(struct checker *c, struct st_stmt *s, bool *created)
{
	struct st_program *prog = c->prog;
	struct st_map_info *m;
	uint32_t i;

	*created = false;
	for (i = 0; i < prog->nr_maps; i++)
		if (!strcmp(prog->maps[i].name, s->map))
			return i;
	m = realloc(prog->maps, (prog->nr_maps + 1) * sizeof(*m));
	if (!m)
		return ck_oom(c);
	prog->maps = m;
	m = &prog->maps[prog->nr_maps];
	memset(m, 0, sizeof(*m));
	m->name = strdup(s->map);
	if (!m->name)
		return ck_oom(c);
	*created = true;
	return prog->nr_maps++;
}

/* Key k of a map has one kind everywhere; mixed signedness reads as signed. */
static int map_key_type(struct checker *c, const struct st_stmt *s, uint32_t k)
{
	struct st_map_info *m = &c->prog->maps[s->map_id];
	enum st_vtype kt = s->keys[k]->vtype;

	/* ST_VT_NONE: the map is new. */
	if (m->key_types[k] == ST_VT_NONE || m->key_types[k] == kt)
		m->key_types[k] = kt;
	else if ((kt == ST_VT_STR) != (m->key_types[k] == ST_VT_STR))
		return ck_err(c, s->keys[k]->pos,
			      "key %u of %s is %s here but %s at line %u, column %u", k + 1, s->map,
			      ck_vtype_kind(kt), ck_vtype_kind(m->key_types[k]), m->pos.line,
			      m->pos.col);
	else
		m->key_types[k] = ST_VT_INT;
	return 0;
}

/* The same map everywhere: one aggregation, key count, key kinds, bounds. */
static int check_map_use(struct checker *c, struct st_stmt *s, const int64_t lh[3])
{
	enum st_agg_kind agg = st_func_agg(s->call->func);
	struct st_map_info *m;
	bool created;
	uint32_t k;
	int id, err;

	id = map_entry(c, s, &created);
	if (id < 0)
		return id;
	s->map_id = id;
	m = &c->prog->maps[id];
	if (created) {
		m->pos = s->map_pos;
		m->agg = agg;
		m->nr_keys = s->nr_keys;
		m->lhist_min = lh[0];
		m->lhist_max = lh[1];
		m->lhist_step = lh[2];
	} else if (m->agg != agg) {
		return ck_err(c, s->call->pos,
			      "%s is a %s() map (line %u, column %u): it cannot also be %s()",
			      s->map, st_func_name((enum st_func)m->agg), m->pos.line, m->pos.col,
			      st_func_name(s->call->func));
	} else if (m->nr_keys != s->nr_keys) {
		return ck_err(c, s->map_pos,
			      "%s has %u key%s here but %u at line %u, column %u: a map has one "
			      "number of keys",
			      s->map, s->nr_keys, s->nr_keys == 1 ? "" : "s", m->nr_keys,
			      m->pos.line, m->pos.col);
	} else if (agg == ST_K_LHIST &&
		   (m->lhist_min != lh[0] || m->lhist_max != lh[1] || m->lhist_step != lh[2])) {
		return ck_err(c, s->call->pos,
			      "lhist() bounds of %s differ from those at line %u, column %u: a map "
			      "has one set of buckets",
			      s->map, m->pos.line, m->pos.col);
	}
	/*
	 * A key that is a dynamic field not typed yet takes the type an earlier
	 * use gave it (the filter, earlier statements, this statement's value),
	 * else it is a string. No later use changes it: a string key summed
	 * further on is refused here, not dropped event by event at run time.
	 */
	for (k = 0; k < s->nr_keys; k++) {
		err = ck_settle_default(c, s->keys[k], "a map key");
		if (!err)
			err = map_key_type(c, s, k);
		if (err)
			return err;
	}
	if (agg != ST_K_COUNT && s->call->kids[0]->vtype == ST_VT_INT)
		m->value_signed = true;
	return 0;
}

static int check_agg_stmt(struct checker *c, struct st_stmt *s)
{
	int64_t lh[3] = {0};
	uint32_t k;
	int err;

	if (s->nr_keys > ST_MAX_MAP_KEYS)
		return ck_err(c, s->keys[ST_MAX_MAP_KEYS]->pos,
			      "too many keys: a map has at most %d", ST_MAX_MAP_KEYS);
	for (k = 0; k < s->nr_keys; k++) {
		err = ck_expr(c, s->keys[k]);
		if (err)
			return err;
	}
	err = check_agg_call(c, s->call, lh);
	if (err)
		return err;
	return check_map_use(c, s, lh);
}

static int check_action(struct checker *c, struct st_stmt *s)
{
	struct st_expr *call = s->call;
	const char *fn = st_func_name(call->func);

	switch (call->func) {
	case ST_FN_PRINTF:
		return ck_printf(c, call);
	case ST_FN_EXIT:
		if (call->nr_kids)
			return ck_err(c, call->kids[0]->pos, "exit() takes no argument");
		return 0;
	case ST_FN_PRINT:
		if (call->nr_kids == 1 && call->kids[0]->kind == ST_EXPR_ARGS) {
			if (c->no_args)
				return ck_err(c, call->kids[0]->pos,
					      "%s has no event: print(args) prints the event of "
					      "a side: probe",
					      ck_point_kind_name(c->no_args));
			return 0;
		}
		/* fallthrough */
	case ST_FN_CLEAR:
	case ST_FN_ZERO:
		/* The map itself is looked up once every map is known. */
		if (call->nr_kids == 1 && call->kids[0]->kind == ST_EXPR_MAP)
			return 0;
		if (call->func == ST_FN_PRINT)
			return ck_err(
				c, call->nr_kids ? call->kids[0]->pos : call->pos,
				"print() takes a map or the event: print(@name), print(args)");
		return ck_err(c, call->nr_kids ? call->kids[0]->pos : call->pos,
			      "%s() takes a map: %s(@name)", fn, fn);
	default:
		return ck_err(c, call->pos, "%s() must be assigned to a map: @name = %s(...)", fn,
			      fn);
	}
}

static int check_clause(struct checker *c, struct st_clause *cl)
{
	uint32_t i;
	int err = 0;

	c->clause = cl;
	c->no_args = NULL;
	c->nr_dyn = 0;
	for (i = 0; !err && i < cl->nr_points; i++) {
		if (cl->points[i].kind == ST_AP_SIDE)
			err = ck_side_point(c, &cl->points[i]);
		else if (!c->no_args)
			c->no_args = &cl->points[i];
	}
	if (!err && cl->filter)
		err = ck_int(c, cl->filter, "the filter");
	for (i = 0; !err && i < cl->nr_stmts; i++) {
		if (cl->stmts[i].kind == ST_STMT_AGG)
			err = check_agg_stmt(c, &cl->stmts[i]);
		else
			err = check_action(c, &cl->stmts[i]);
	}
	return err;
}

/* print/clear/zero may name a map assigned anywhere, even further down. */
static int resolve_map_ref(struct checker *c, struct st_expr *ref)
{
	struct names all = {0};
	uint32_t i;

	for (i = 0; i < c->prog->nr_maps; i++) {
		if (!strcmp(c->prog->maps[i].name, ref->str)) {
			ref->map_id = i;
			return 0;
		}
		ck_names_add(&all, c->prog->maps[i].name, NULL);
	}
	if (!c->prog->nr_maps)
		return ck_err(c, ref->pos, "unknown map %s: this program assigns no map", ref->str);
	return ck_err(c, ref->pos, "unknown map %s: maps of this program: %s", ref->str, all.buf);
}

int st_check(struct st_program *prog, const struct st_event_source *src, struct st_diag *diag)
{
	struct checker c = {.prog = prog, .src = src, .diag = diag};
	struct st_stmt *s;
	uint32_t i, j;
	int err = 0;

	memset(diag, 0, sizeof(*diag));
	for (i = 0; !err && i < prog->nr_clauses; i++)
		err = check_clause(&c, &prog->clauses[i]);
	for (i = 0; !err && i < prog->nr_clauses; i++) {
		for (j = 0; !err && j < prog->clauses[i].nr_stmts; j++) {
			s = &prog->clauses[i].stmts[j];
			if (s->kind == ST_STMT_CALL && s->call->nr_kids == 1 &&
			    s->call->kids[0]->kind == ST_EXPR_MAP)
				err = resolve_map_ref(&c, s->call->kids[0]);
		}
	}
	free(c.dyn);
	return err;
}
