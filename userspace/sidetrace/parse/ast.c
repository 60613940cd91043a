// SPDX-License-Identifier: MIT
/* Freeing and naming AST nodes. */
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "parse/ast.h"
#include "kinds/probe_kinds.h"
#include "parse/format.h"
#include "parse/functions.h"

struct st_expr *st_expr_new(enum st_expr_kind kind, struct st_pos pos)
{
	struct st_expr *e = calloc(1, sizeof(*e));

	if (e) {
		e->kind = kind;
		e->pos = pos;
		e->map_id = -1;
	}
	return e;
}

struct st_pos st_expr_start(const struct st_expr *e)
{
	/* The operands that come first in the text: a member's, an element's, a binary's left. */
	while (!e->paren.line && e->nr_kids &&
	       (e->kind == ST_EXPR_MEMBER || e->kind == ST_EXPR_INDEX ||
		e->kind == ST_EXPR_BINARY || e->kind == ST_EXPR_TERNARY))
		e = e->kids[0];
	return e->paren.line ? e->paren : e->pos;
}

/* Frees what e owns, not e. */
static void expr_fini(struct st_expr *e)
{
	uint32_t i;

	for (i = 0; i < e->nr_kids; i++)
		st_expr_free(e->kids[i]);
	free(e->kids);
	for (i = 0; i < e->nr_path; i++)
		free(e->path[i].name);
	free(e->path);
	for (i = 0; i < e->nr_refs; i++)
		free(e->refs[i].idx);
	free(e->refs);
	free(e->str);
	free(e->cast.name);
	st_format_free(e->fmt);
	free(e->fmt);
	st_format_free(e->json_fmt);
	free(e->json_fmt);
}

void st_expr_free(struct st_expr *e)
{
	if (!e)
		return;
	expr_fini(e);
	free(e);
}

static void stmts_free(struct st_stmt *stmts, uint32_t nr);

void st_stmt_fini(struct st_stmt *s)
{
	uint32_t i;

	free(s->map);
	for (i = 0; i < s->nr_keys; i++)
		st_expr_free(s->keys[i]);
	free(s->keys);
	st_expr_free(s->call);
	st_expr_free(s->value);
	free(s->var);
	stmts_free(s->then, s->nr_then);
	stmts_free(s->els, s->nr_els);
}

static void stmts_free(struct st_stmt *stmts, uint32_t nr)
{
	uint32_t i;

	for (i = 0; i < nr; i++)
		st_stmt_fini(&stmts[i]);
	free(stmts);
}

void st_attach_point_fini(struct st_attach_point *p)
{
	free(p->target);
	free(p->provider);
	free(p->event);
	free(p->missing);
	free(p->events);
}

static void clause_fini(struct st_clause *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_points; i++)
		st_attach_point_fini(&c->points[i]);
	free(c->points);
	st_expr_free(c->filter);
	stmts_free(c->stmts, c->nr_stmts);
	free(c->events);
	free(c->dpath);
}

void st_program_free(struct st_program *prog)
{
	uint32_t i;

	if (!prog)
		return;
	for (i = 0; i < prog->nr_clauses; i++)
		clause_fini(&prog->clauses[i]);
	free(prog->clauses);
	for (i = 0; i < prog->nr_maps; i++)
		free(prog->maps[i].name);
	free(prog->maps);
	st_ctypes_free(prog->ctypes);
	free(prog->filename);
	free(prog);
}

/* A copy of path, its names duplicated; false when out of memory. */
static bool path_clone(struct st_expr *to, const struct st_expr *from)
{
	uint32_t i;

	to->path = from->nr_path ? calloc(from->nr_path, sizeof(*to->path)) : NULL;
	if (from->nr_path && !to->path)
		return false;
	for (i = 0; i < from->nr_path; i++) {
		to->path[i] = from->path[i];
		to->path[i].name = NULL;
		if (from->path[i].name && !(to->path[i].name = strdup(from->path[i].name)))
			return false;
		to->nr_path = i + 1;
	}
	return true;
}

struct st_expr *st_expr_node(enum st_expr_kind kind, struct st_pos pos, uint32_t nr,
			     struct st_expr *a, struct st_expr *b)
{
	struct st_expr *e = a && (nr == 1 || b) ? st_expr_new(kind, pos) : NULL;

	if (e)
		e->kids = calloc(nr, sizeof(*e->kids));
	if (!e || !e->kids) {
		free(e);
		return NULL;
	}
	e->kids[0] = a;
	if (nr == 2)
		e->kids[1] = b;
	e->nr_kids = nr;
	return e;
}

struct st_expr *st_expr_clone(const struct st_expr *e)
{
	struct st_expr *n = st_expr_new(e->kind, e->pos);
	uint32_t i;

	if (!n)
		return NULL;
	n->op = e->op;
	n->uval = e->uval;
	n->is_unsigned = e->is_unsigned;
	n->builtin = e->builtin;
	n->func = e->func;
	n->cast = e->cast;
	n->cast.name = NULL;
	n->positional = e->positional;
	/* The address of a record's array (ck_record_array()) is not checked again into one. */
	n->addr_of = e->addr_of;
	n->arrow = e->arrow;
	n->scaled = e->scaled;
	n->post = e->post;
	n->kids = e->nr_kids ? calloc(e->nr_kids, sizeof(*n->kids)) : NULL;
	if ((e->nr_kids && !n->kids) || (e->str && !(n->str = strdup(e->str))) ||
	    (e->cast.name && !(n->cast.name = strdup(e->cast.name))) || !path_clone(n, e))
		goto fail;
	for (i = 0; i < e->nr_kids; i++) {
		n->kids[i] = st_expr_clone(e->kids[i]);
		if (!n->kids[i])
			goto fail;
		n->nr_kids = i + 1;
	}
	return n;
fail:
	st_expr_free(n);
	return NULL;
}

void st_expr_replace(struct st_expr *e, struct st_expr *from)
{
	struct st_expr old = *e;

	*e = *from;
	free(from);
	expr_fini(&old);
}

void st_expr_make_int(struct st_expr *e, uint64_t v)
{
	uint32_t i;

	for (i = 0; i < e->nr_kids; i++)
		st_expr_free(e->kids[i]);
	free(e->kids);
	free(e->str);
	free(e->cast.name);
	memset(&e->cast, 0, sizeof(e->cast));
	e->kids = NULL;
	e->nr_kids = 0;
	e->str = NULL;
	e->kind = ST_EXPR_INT;
	e->uval = v;
	e->is_unsigned = v > INT64_MAX;
	e->vtype = e->is_unsigned ? ST_VT_UINT : ST_VT_INT;
}

bool st_expr_any(const struct st_expr *e, bool (*pred)(const struct st_expr *e))
{
	uint32_t i;

	if (!e)
		return false;
	if (pred(e))
		return true;
	for (i = 0; i < e->nr_kids; i++)
		if (st_expr_any(e->kids[i], pred))
			return true;
	return false;
}

bool st_stmts_any(const struct st_stmt *stmts, uint32_t nr, bool (*pred)(const struct st_expr *e))
{
	const struct st_stmt *s;
	uint32_t i, k;

	for (i = 0; i < nr; i++) {
		s = &stmts[i];
		for (k = 0; k < s->nr_keys; k++)
			if (st_expr_any(s->keys[k], pred))
				return true;
		if (st_expr_any(s->call, pred) || st_expr_any(s->value, pred) ||
		    st_stmts_any(s->then, s->nr_then, pred) ||
		    st_stmts_any(s->els, s->nr_els, pred))
			return true;
	}
	return false;
}

uint32_t st_print_args(const struct st_expr *call, struct st_expr *const **args)
{
	uint32_t first = st_func(call->func)->args == ST_FA_FORMAT ? 1 : 0;

	*args = call->kids + first;
	return call->nr_kids - first;
}

const struct st_type *st_expr_enum(const struct st_expr *e)
{
	if (e->kind == ST_EXPR_FIELD && e->nr_refs && e->refs[0].type &&
	    e->refs[0].type->label == SIDE_TYPE_ENUM)
		return e->refs[0].type;
	return NULL;
}

const char *st_op_name(enum st_op op)
{
	static const char *const names[] = {
		[ST_OP_NONE] = "",   [ST_OP_NEG] = "-",	 [ST_OP_NOT] = "!",  [ST_OP_BNOT] = "~",
		[ST_OP_MUL] = "*",   [ST_OP_DIV] = "/",	 [ST_OP_MOD] = "%",  [ST_OP_ADD] = "+",
		[ST_OP_SUB] = "-",   [ST_OP_SHL] = "<<", [ST_OP_SHR] = ">>", [ST_OP_LT] = "<",
		[ST_OP_LE] = "<=",   [ST_OP_GT] = ">",	 [ST_OP_GE] = ">=",  [ST_OP_EQ] = "==",
		[ST_OP_NE] = "!=",   [ST_OP_BAND] = "&", [ST_OP_BXOR] = "^", [ST_OP_BOR] = "|",
		[ST_OP_LAND] = "&&", [ST_OP_LOR] = "||",
	};

	return names[op];
}

bool st_clause_on_sites(const struct st_clause *cl)
{
	uint32_t i;

	for (i = 0; i < cl->nr_points; i++)
		if (st_probe_kind(cl->points[i].kind)->runs == ST_RUNS_AT_EVENTS)
			return true;
	return false;
}

bool st_program_keeps_wholes(const struct st_program *prog)
{
	uint32_t m, k;

	for (m = 0; m < prog->nr_maps; m++) {
		if (prog->maps[m].whole)
			return true;
		for (k = 0; k < ST_MAX_MAP_KEYS; k++)
			if (prog->maps[m].key_whole[k])
				return true;
	}
	return false;
}

bool st_program_probes_files(const struct st_program *prog)
{
	uint32_t i, k;

	for (i = 0; i < prog->nr_clauses; i++)
		for (k = 0; k < prog->clauses[i].nr_points; k++)
			if (st_family_at_files(
				    st_probe_kind(prog->clauses[i].points[k].kind)->family))
				return true;
	return false;
}

bool st_program_on_sites(const struct st_program *prog)
{
	uint32_t i;

	for (i = 0; i < prog->nr_clauses; i++)
		if (st_clause_on_sites(&prog->clauses[i]))
			return true;
	return false;
}
