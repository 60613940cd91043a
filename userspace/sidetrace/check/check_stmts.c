// SPDX-License-Identifier: MIT
/*
 * Statements: assignments to maps and variables, if/else blocks, actions.
 * Variables are scoped to the block that first assigns them, as in
 * bpftrace: a variable is assigned on every path that reads it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"

int ck_find_var(const struct checker *c, const char *name)
{
	uint32_t i;

	for (i = c->nr_scope; i-- > 0;)
		if (!strcmp(c->scope[i].name, name))
			return c->scope[i].slot;
	return -1;
}

int ck_var(struct checker *c, struct st_expr *e)
{
	if (!ck_whole_var(c, e))
		return 0;
	e->var_id = ck_find_var(c, e->str);
	if (e->var_id < 0)
		return ck_err(c, e->pos, "undefined variable %s: assign it first (%s = ...)",
			      e->str, e->str);
	e->vtype = c->clause->var_types[e->var_id];
	e->ctype = c->clause->var_ctypes[e->var_id];
	e->mem = c->clause->var_mems[e->var_id];
	e->kept = c->clause->var_kept[e->var_id];
	return 0;
}

/* The variable a statement assigns, declared in this block if it is new. */
static int assign_var(struct checker *c, struct st_stmt *s)
{
	struct st_clause *cl = c->clause;
	enum st_vtype vt = s->value->vtype, had;
	enum st_kept kept = st_expr_kept(s->value);

	s->var_id = ck_find_var(c, s->var);
	/* A statement's temporary (check_incr.c), of another kind than the last one's: a new slot.
	 */
	if (s->var_id >= 0 && s->var[1] == '+' &&
	    strcmp(ck_vtype_kind(vt), ck_vtype_kind(cl->var_types[s->var_id])))
		s->var_id = -1;
	if (s->var_id < 0) {
		if (s->op != ST_OP_NONE)
			return ck_err(c, s->pos,
				      "undefined variable %s: assign it first (%s = ...)", s->var,
				      s->var);
		if (cl->nr_vars >= ST_MAX_VARS)
			return ck_err(c, s->pos, "more than %d variables in one clause",
				      ST_MAX_VARS);
		s->var_id = cl->nr_vars++;
		c->var_deep[s->var_id] = c->depth > 0;
		cl->var_types[s->var_id] = vt == ST_VT_BOOL ? ST_VT_UINT : vt;
		cl->var_ctypes[s->var_id] = s->value->ctype;
		cl->var_mems[s->var_id] = s->value->mem;
		cl->var_kept[s->var_id] =
			s->op == ST_OP_NONE && st_kept_carried(kept) ? kept : ST_KEPT_VALUE;
		c->scope[c->nr_scope].name = s->var;
		c->scope[c->nr_scope++].slot = s->var_id;
		return 0;
	}
	had = cl->var_types[s->var_id];
	if (strcmp(ck_vtype_kind(vt), ck_vtype_kind(had)))
		return ck_err(c, s->value->pos, "%s holds %s: it cannot be assigned %s", s->var,
			      ck_vtype_kind(had), ck_vtype_kind(vt));
	if (vt == ST_VT_INT)
		cl->var_types[s->var_id] = ST_VT_INT;
	/* strerror() here, a number there: a number. */
	if (s->op != ST_OP_NONE || cl->var_kept[s->var_id] != kept)
		cl->var_kept[s->var_id] = ST_KEPT_VALUE;
	/*
	 * A variable assigned pointers of two types is an integer; p += n
	 * keeps p's. A temporary is read only before its next assignment:
	 * each one's type is its own.
	 */
	if (s->op == ST_OP_NONE && s->var[1] == '+') {
		cl->var_ctypes[s->var_id] = s->value->ctype;
		cl->var_mems[s->var_id] = s->value->mem;
	} else if (s->op == ST_OP_NONE && cl->var_ctypes[s->var_id] != s->value->ctype) {
		cl->var_ctypes[s->var_id] = NULL;
	}
	return 0;
}

/* p += n, p -= n on a pointer: n elements, as C counts (n becomes n * size). */
static int pointer_step(struct checker *c, struct st_stmt *s)
{
	struct st_ctype *p;
	int slot;

	if (s->op != ST_OP_ADD && s->op != ST_OP_SUB)
		return 0;
	slot = s->var ? ck_find_var(c, s->var) : -1;
	p = s->var ? (slot >= 0 ? c->clause->var_ctypes[slot] : NULL)
		   : c->prog->maps[s->map_id].value_ctype;
	return p && p->kind == ST_CT_PTR ? ck_elements(c, &s->value, p) : 0;
}

int ck_assign(struct checker *c, struct st_stmt *s)
{
	int err;

	if (s->op != ST_OP_NONE) {
		err = ck_int(c, s->value, "a compound assignment");
		if (!err && (s->op == ST_OP_DIV || s->op == ST_OP_MOD) &&
		    s->value->kind == ST_EXPR_INT && !s->value->uval)
			err = ck_err(c, s->value->pos, "'%s=' by the constant 0: division by zero",
				     st_op_name(s->op));
	} else {
		err = ck_expr_whole(c, s->value);
		if (!err)
			err = ck_settle_default(c, s->value, "an assigned value");
	}
	if (err)
		return err;
	if (s->value->vtype == ST_VT_WHOLE)
		return ck_whole_assign(c, s);
	if (s->var && ck_is_whole_var(c, s->var))
		return ck_err(c, s->value->pos, "%s holds a whole value: it cannot be assigned %s",
			      s->var, ck_vtype_kind(s->value->vtype));
	err = pointer_step(c, s);
	if (err)
		return err;
	if (s->var)
		return assign_var(c, s);
	if (s->op == ST_OP_NONE && c->prog->maps[s->map_id].str_only && ck_addr_operand(s->value))
		err = ck_str_at(c, s->value);
	else if (s->op == ST_OP_NONE && c->prog->maps[s->map_id].str_only)
		err = ck_string_pointer(c, s->value);
	if (!err)
		err = ck_map_keys(c, s->map_id, &s->keys, &s->nr_keys, s->map_pos);
	return err ? err : ck_map_value(c, s);
}

/*
 * if and while: a variable a block assigns stays the clause's after it,
 * as in bpftrace 0.17 (tcpconnect.bt prints the $saddr its if and else
 * assign); where the block did not run, it reads 0 or "".
 */
/*
 * An expression statement: checked as any value, then left as if (1) { },
 * which emits nothing.
 */
static int check_discarded(struct checker *c, struct st_stmt *s)
{
	struct st_expr *one;
	int err;

	err = ck_expr(c, s->value);
	if (err)
		return err;
	one = st_expr_new(ST_EXPR_INT, s->value->pos);
	if (!one)
		return ck_oom(c);
	one->uval = 1;
	one->vtype = ST_VT_UINT;
	st_expr_free(s->value);
	s->value = one;
	return 0;
}

static int check_if(struct checker *c, struct st_stmt *s)
{
	int err;

	bool runs = s->value->kind == ST_EXPR_INT && s->value->uval && !s->loop;

	if (s->discard)
		return check_discarded(c, s);
	err = ck_cond(c, &s->value, "the condition of if");
	c->depth += !runs;
	if (!err)
		err = ck_stmts(c, s->then, s->nr_then);
	err = err ?: ck_stmts(c, s->els, s->nr_els);
	c->depth -= !runs;
	return err;
}

/* Whether variable slot v of the clause starts at 0 or "": first assigned in a block, not a
 * temporary. */
static bool starts_zeroed(const struct checker *c, uint32_t v, const char *name)
{
	enum st_vtype t = c->clause->var_types[v];

	return c->var_deep[v] && name[1] != '+' && !strchr(name, '.') &&
	       (ck_is_int(t) || t == ST_VT_STR);
}

int ck_zero_vars(struct checker *c, struct st_clause *cl)
{
	struct st_stmt *all, *s;
	uint32_t i, n = 0;
	int err;

	for (i = 0; i < c->nr_scope; i++)
		n += c->scope[i].slot >= 0 && starts_zeroed(c, c->scope[i].slot, c->scope[i].name);
	if (!n)
		return 0;
	all = calloc(n + cl->nr_stmts, sizeof(*all));
	if (!all)
		return ck_oom(c);
	for (i = 0, s = all; i < c->nr_scope; i++) {
		if (c->scope[i].slot < 0 || !starts_zeroed(c, c->scope[i].slot, c->scope[i].name))
			continue;
		s->kind = ST_STMT_ASSIGN;
		s->pos = cl->pos;
		s->map_id = s->var_id = -1;
		s->var = strdup(c->scope[i].name);
		s->value = st_expr_new(ck_is_int(cl->var_types[c->scope[i].slot]) ? ST_EXPR_INT
										  : ST_EXPR_STR,
				       cl->pos);
		if (s->value && s->value->kind == ST_EXPR_STR)
			s->value->str = strdup("");
		s++;
		if (!s[-1].var || !s[-1].value ||
		    (s[-1].value->kind == ST_EXPR_STR && !s[-1].value->str))
			break;
	}
	err = (uint32_t)(s - all) < n ? ck_oom(c) : ck_stmts(c, all, n);
	if (err) {
		while (s > all)
			st_stmt_fini(--s);
		free(all);
		return err;
	}
	memcpy(all + n, cl->stmts, cl->nr_stmts * sizeof(*all));
	free(cl->stmts);
	cl->stmts = all;
	cl->nr_stmts += n;
	return 0;
}

int ck_stmts(struct checker *c, struct st_stmt *stmts, uint32_t nr)
{
	uint32_t i;
	int err = 0;

	for (i = 0; !err && i < nr; i++) {
		struct st_stmt *s = &stmts[i];

		/* Its ++ and -- first: its block's statements, in the scope s is in. */
		err = ck_hoist_incr(c, s);
		if (err) {
			err = err > 0 ? ck_stmts(c, s->then, s->nr_then) : err;
			continue;
		}
		switch (s->kind) {
		case ST_STMT_AGG:
			err = ck_agg_stmt(c, s);
			break;
		case ST_STMT_ASSIGN:
			err = ck_assign(c, s);
			break;
		case ST_STMT_IF:
			err = check_if(c, s);
			break;
		case ST_STMT_BREAK:
		case ST_STMT_CONTINUE:
		case ST_STMT_RETURN:
			break;
		default:
			err = ck_action(c, s);
			break;
		}
	}
	return err;
}
