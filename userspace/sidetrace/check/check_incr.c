// SPDX-License-Identifier: MIT
/*
 * ++ and -- inside expressions (printf("%d", $x++), avg($i++), ++@m[k]).
 * The machine has no expression that writes, so the checker makes each
 * one statements before the one it is in, in the order bpftrace
 * evaluates them, left to right:
 *
 *   print(@x++)   becomes   $+0 = @x; @x += 1; print($+0)
 *   print(++@x)   becomes   @x += 1; print(@x)
 *
 * A loop's condition runs again each round, so its statements go first
 * in the loop's block, and the loop breaks on the condition:
 *
 *   while ($i-- > 0) { b }   becomes   while (1) { $+0 = $i; $i -= 1;
 *                                          if (!($+0 > 0)) { break; } b }
 *
 * A filter has no statement before it: the clause becomes its statements,
 * then an if of the filter around its block.
 */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "parse/format.h"

/* The statements made so far of one statement's ++ and --. */
struct hoist {
	struct st_stmt *stmts;
	uint32_t nr, cap;
};

static struct st_stmt *hoist_add(struct hoist *h)
{
	struct st_stmt *grown;

	if (h->nr == h->cap) {
		grown = realloc(h->stmts, (h->cap ? h->cap * 2 : 4) * sizeof(*grown));
		if (!grown)
			return NULL;
		h->stmts = grown;
		h->cap = h->cap ? h->cap * 2 : 4;
	}
	memset(&h->stmts[h->nr], 0, sizeof(h->stmts[h->nr]));
	h->stmts[h->nr].map_id = h->stmts[h->nr].var_id = -1;
	return &h->stmts[h->nr++];
}

/* to = target (or target op= 1 with op): target a variable or a map element, cloned. */
static int assign_to(struct st_stmt *to, const struct st_expr *target, enum st_op op,
		     struct st_expr *value)
{
	uint32_t k;

	to->kind = ST_STMT_ASSIGN;
	to->pos = target->pos;
	to->map_pos = target->pos;
	to->op = op;
	to->value = value;
	if (!value)
		return -ENOMEM;
	if (target->kind == ST_EXPR_VAR)
		return (to->var = strdup(target->str)) ? 0 : -ENOMEM;
	to->map = strdup(target->str);
	to->keys = target->nr_kids ? calloc(target->nr_kids, sizeof(*to->keys)) : NULL;
	if (!to->map || (target->nr_kids && !to->keys))
		return -ENOMEM;
	for (k = 0; k < target->nr_kids; k++) {
		to->keys[k] = st_expr_clone(target->kids[k]);
		if (!to->keys[k])
			return -ENOMEM;
		to->nr_keys = k + 1;
	}
	return 0;
}

/* x op= 1 of INCR node e, then what e reads: x before it (a new variable), or x after. */
static int hoist_one(struct checker *c, struct hoist *h, struct st_expr *e)
{
	struct st_expr *x = e->kids[0], *one, *read;
	struct st_stmt *s;
	char *tmp;

	if (x->kind != ST_EXPR_VAR && x->kind != ST_EXPR_MAP)
		return ck_err(c, e->pos, "'%s' changes a variable or a map element ($x, @m[k])",
			      e->op == ST_OP_ADD ? "++" : "--");
	/* x++: $+N = x first, a variable no program can name. */
	if (e->post) {
		if (asprintf(&tmp, "$+%u", c->nr_incr++) < 0)
			return ck_oom(c);
		s = hoist_add(h);
		if (!s) {
			free(tmp);
			return ck_oom(c);
		}
		s->kind = ST_STMT_ASSIGN;
		s->pos = e->pos;
		s->var = tmp;
		s->value = st_expr_clone(x);
		if (!s->value)
			return ck_oom(c);
	}
	one = st_expr_new(ST_EXPR_INT, e->pos);
	if (one)
		one->uval = 1;
	s = hoist_add(h);
	if (!s || assign_to(s, x, e->op, one))
		return ck_oom(c);
	/* A map only ever changed by ++ in an expression is assigned here first. */
	if (s->map && ck_declare(c, s))
		return -EINVAL;
	read = e->post ? st_expr_new(ST_EXPR_VAR, e->pos) : st_expr_clone(x);
	if (read && e->post && !(read->str = strdup(h->stmts[h->nr - 2].var))) {
		st_expr_free(read);
		read = NULL;
	}
	if (!read)
		return ck_oom(c);
	st_expr_replace(e, read);
	return 0;
}

/* Every ++ and -- in e, left to right, made statements of h. */
static int hoist_expr(struct checker *c, struct hoist *h, struct st_expr *e)
{
	uint32_t i;
	int err = 0;

	if (!e)
		return 0;
	for (i = 0; !err && i < e->nr_kids; i++)
		err = hoist_expr(c, h, e->kids[i]);
	return err || e->kind != ST_EXPR_INCR ? err : hoist_one(c, h, e);
}

static bool is_incr(const struct st_expr *e)
{
	return e->kind == ST_EXPR_INCR;
}

/* $+N = *op, and *op becomes $+N: a value read before a later ++ changes it. */
static int capture(struct checker *c, struct hoist *h, struct st_expr **op)
{
	struct st_stmt *s = hoist_add(h);
	struct st_expr *v = st_expr_new(ST_EXPR_VAR, (*op)->pos);

	if (!s || !v || asprintf(&s->var, "$+%u", c->nr_incr++) < 0 || !(v->str = strdup(s->var))) {
		if (s)
			s->var = NULL;
		st_expr_free(v);
		return ck_oom(c);
	}
	s->kind = ST_STMT_ASSIGN;
	s->pos = (*op)->pos;
	s->value = *op;
	*op = v;
	return 0;
}

/*
 * The operands of s in the order bpftrace evaluates them: an
 * assignment's value before its keys, an aggregation's keys before its
 * argument, a call's arguments left to right; *capturable: those a
 * variable may hold (not a map named whole, print(@m)).
 */
static uint32_t operands(struct st_stmt *s, struct st_expr **ops[], uint32_t max, bool *capturable)
{
	uint32_t n = 0, k;

	if (s->kind == ST_STMT_ASSIGN && n < max)
		ops[n++] = &s->value;
	for (k = 0; k < s->nr_keys && n < max; k++)
		ops[n++] = &s->keys[k];
	if (s->kind == ST_STMT_IF && n < max)
		ops[n++] = &s->value;
	for (k = 0; s->call && k < s->call->nr_kids && n < max; k++)
		ops[n++] = &s->call->kids[k];
	*capturable = s->kind != ST_STMT_CALL || st_func(s->call->func)->args == ST_FA_FORMAT;
	return n;
}

static void hoist_free(struct hoist *h)
{
	while (h->nr)
		st_stmt_fini(&h->stmts[--h->nr]);
	free(h->stmts);
}

/* A new expression node of kind over kid, and kid when it cannot be made. */
static int wrap(struct st_expr **kid, enum st_expr_kind kind, enum st_op op)
{
	struct st_expr *e = st_expr_node(kind, (*kid)->pos, 1, *kid, NULL);

	if (!e)
		return -ENOMEM;
	e->op = op;
	*kid = e;
	return 0;
}

/*
 * Condition *cond's ++ and -- made statements of h, then an if of it
 * around block (nr statements, taken); break_out: an if of its negation
 * breaking out of the loop instead, and block stays where it is.
 */
static int hoist_cond(struct checker *c, struct hoist *h, struct st_expr **cond, bool break_out,
		      struct st_stmt *block, uint32_t nr)
{
	struct st_stmt *s, *brk;
	int err;

	c->nr_incr = 0;
	err = hoist_expr(c, h, *cond);
	if (err)
		return err;
	s = hoist_add(h);
	if (!s)
		return ck_oom(c);
	s->kind = ST_STMT_IF;
	s->pos = (*cond)->pos;
	if (break_out && wrap(cond, ST_EXPR_UNARY, ST_OP_NOT))
		return ck_oom(c);
	s->value = *cond;
	*cond = NULL;
	if (!break_out) {
		s->then = block;
		s->nr_then = nr;
		return 0;
	}
	brk = calloc(1, sizeof(*brk));
	if (!brk)
		return ck_oom(c);
	brk->kind = ST_STMT_BREAK;
	brk->pos = s->pos;
	brk->map_id = brk->var_id = -1;
	s->then = brk;
	s->nr_then = 1;
	return 0;
}

/* A literal 1, the condition of what always runs. */
static struct st_expr *always(struct st_pos pos)
{
	struct st_expr *e = st_expr_new(ST_EXPR_INT, pos);

	if (e) {
		e->uval = 1;
		e->vtype = ST_VT_INT;
	}
	return e;
}

/* while (c) with ++ in c: while (1) { c's statements; if (!c) { break; } ... }. */
static int hoist_loop(struct checker *c, struct st_stmt *s)
{
	struct hoist h = {0};
	struct st_stmt *then;
	int err;

	if (!st_expr_any(s->value, is_incr))
		return 0;
	err = hoist_cond(c, &h, &s->value, true, NULL, 0);
	if (err) {
		hoist_free(&h);
		return err;
	}
	then = realloc(h.stmts, (h.nr + s->nr_then) * sizeof(*then));
	if (then)
		h.stmts = then;
	s->value = always(s->pos);
	if (!then || !s->value) {
		hoist_free(&h);
		return ck_oom(c);
	}
	memcpy(&then[h.nr], s->then, s->nr_then * sizeof(*then));
	free(s->then);
	s->then = then;
	s->nr_then += h.nr;
	return 0;
}

int ck_hoist_filter(struct checker *c, struct st_clause *cl)
{
	struct hoist h = {0};
	int err;

	if (!cl->filter || !st_expr_any(cl->filter, is_incr))
		return 0;
	err = hoist_cond(c, &h, &cl->filter, false, cl->stmts, cl->nr_stmts);
	if (err) {
		hoist_free(&h);
		return err;
	}
	cl->stmts = h.stmts;
	cl->nr_stmts = h.nr;
	return 0;
}

int ck_hoist_incr(struct checker *c, struct st_stmt *s)
{
	struct st_expr **ops[2 * ST_MAX_MAP_KEYS + ST_MAX_PRINTF_ARGS + 2];
	struct hoist h = {0};
	bool capturable;
	uint32_t n, i, last;
	int err = 0;

	if (s->kind == ST_STMT_IF && s->loop)
		return hoist_loop(c, s);
	/* Each statement's temporaries die with it: the next one's take their slots. */
	c->nr_incr = 0;
	n = operands(s, ops, sizeof(ops) / sizeof(ops[0]), &capturable);
	for (i = 0, last = n; i < n; i++)
		if (st_expr_any(*ops[i], is_incr))
			last = i;
	if (last == n)
		return 0;
	/* Left to right: what an operand reads, read before a later operand's ++. */
	for (i = 0; !err && i <= last; i++)
		if (st_expr_any(*ops[i], is_incr))
			err = hoist_expr(c, &h, *ops[i]);
		else if (capturable && i < last && (*ops[i])->kind != ST_EXPR_INT &&
			 (*ops[i])->kind != ST_EXPR_STR)
			err = capture(c, &h, ops[i]);
	if (!err && !hoist_add(&h))
		err = ck_oom(c);
	if (err) {
		hoist_free(&h);
		return err;
	}
	/* s, last in the block of what its ++ and -- made, which takes its place and always runs.
	 */
	h.stmts[h.nr - 1] = *s;
	memset(s, 0, sizeof(*s));
	s->kind = ST_STMT_IF;
	s->pos = h.stmts[h.nr - 1].pos;
	s->map_id = s->var_id = -1;
	s->then = h.stmts;
	s->nr_then = h.nr;
	s->value = always(s->pos);
	return s->value ? 1 : ck_oom(c);
}
