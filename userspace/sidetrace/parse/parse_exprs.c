// SPDX-License-Identifier: MIT
/* Expressions: precedence climbing over unary operators and primaries. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strdup with any -std */
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "parse/functions.h"
#include "parse/parse.h"

static int parse_unary(struct parser *p, struct st_expr **out);

/* "(" [expr ("," expr)*] ")", the arguments appended to call->kids. */
static int parse_call_args(struct parser *p, struct st_expr *call)
{
	struct st_expr *arg;
	uint32_t h = 0;
	int err;

	err = pr_advance(p);
	if (err)
		return err;
	if (p->cur.kind == T_RPAREN)
		return pr_grow(p, 0, call->pos) ?: pr_advance(p);
	/* A C type as the argument, sizeof(struct task_struct): the checker says where it may be.
	 */
	if (pr_at_type(p))
		return pr_cast_type(p, &call->cast) ?: pr_grow(p, 1, call->pos);
	for (;;) {
		err = pr_expr(p, 0, &arg);
		if (err)
			return err;
		err = pr_push_kid(p, call, arg);
		if (err)
			return err;
		h = p->height > h ? p->height : h;
		if (p->cur.kind == T_RPAREN)
			return pr_grow(p, h, call->pos) ?: pr_advance(p);
		if (p->cur.kind != T_COMMA)
			return pr_err(p, p->cur.pos,
				      "expected ',' or ')' after argument %u of %s()",
				      call->nr_kids, call->str);
		err = pr_advance(p);
		if (err)
			return err;
	}
}

/* The mode word of kstack(MODE[, N]): perf (bpftrace is the default). */
static bool stack_mode(struct parser *p, struct st_expr *e)
{
	const char *w = p->lx.src + p->cur.off;
	bool mode = p->cur.kind == T_IDENT && ((p->cur.len == 4 && !strncmp(w, "perf", 4)) ||
					       (p->cur.len == 8 && !strncmp(w, "bpftrace", 8)));

	e->perf_stack = mode && p->cur.len == 4;
	return mode;
}

/*
 * ustack(N), kstack(N), kstack(MODE), kstack(MODE, N): the stack builtin,
 * its innermost N frames printed (uval), as MODE prints them (perf or
 * bpftrace, bpftrace's modes); kstack() is kstack, as in bpftrace.
 */
static int parse_stack_frames(struct parser *p, struct st_expr *e, enum st_builtin b)
{
	int err = pr_advance(p);
	uint64_t n = 0;
	bool posarg;

	if (err)
		return err;
	e->kind = ST_EXPR_BUILTIN;
	e->builtin = b;
	if (p->cur.kind == T_RPAREN)
		return pr_advance(p);
	if (stack_mode(p, e)) {
		err = pr_advance(p);
		if (err)
			return err;
		if (p->cur.kind == T_RPAREN)
			return pr_advance(p);
		if (p->cur.kind != T_COMMA)
			return pr_err(p, p->cur.pos,
				      "expected ',' or ')' after %s's mode: %s(perf, 5)", e->str,
				      e->str);
		err = pr_advance(p);
		if (err)
			return err;
	}
	if (!pr_literal_count(p, &n, &posarg) || !n || n > ST_STACK_FRAMES)
		return pr_err(p, p->cur.pos,
			      "expected frames, 1 to %d, or a mode, perf or bpftrace: %s(5), "
			      "%s(perf), %s(perf, 5)",
			      ST_STACK_FRAMES, e->str, e->str, e->str);
	e->uval = n;
	err = pr_advance(p);
	if (err)
		return err;
	if (p->cur.kind != T_RPAREN)
		return pr_err(p, p->cur.pos, "expected ')' after %s(%llu", e->str,
			      (unsigned long long)e->uval);
	return pr_advance(p);
}

static int parse_call(struct parser *p, struct st_expr *call)
{
	int b = st_builtin_find(call->str), fn = st_func_find(call->str);

	if (b >= 0 && st_builtin(b)->frames)
		return parse_stack_frames(p, call, b);
	if (fn < 0)
		return pr_err(p, call->pos, "unknown function '%s': valid are %s", call->str,
			      st_func_names());
	call->kind = ST_EXPR_CALL;
	call->func = fn;
	return parse_call_args(p, call);
}

/* After "args": (".NAME" | "->NAME" | "[INT]")+, the first by name. */
static int parse_field_path(struct parser *p, struct st_expr *e)
{
	struct st_path_seg *seg;
	int err;

	if (p->cur.kind != T_DOT && p->cur.kind != T_ARROW)
		return pr_err(p, p->cur.pos,
			      "expected '.' and a field name after 'args' (args.FIELD)");
	while (p->cur.kind == T_DOT || p->cur.kind == T_ARROW || p->cur.kind == T_LBRACK) {
		bool by_name = p->cur.kind != T_LBRACK, arrow = p->cur.kind == T_ARROW;
		/* A name is shown by its first letter, an index by its '['. */
		struct st_pos pos = p->cur.pos;

		err = pr_advance(p);
		if (err)
			return err;
		seg = pr_push(&e->path, &e->nr_path, sizeof(*seg));
		if (!seg)
			return pr_oom(p);
		seg->pos = by_name ? p->cur.pos : pos;
		seg->arrow = arrow;
		if (by_name) {
			if (p->cur.kind != T_IDENT)
				return pr_err(p, p->cur.pos, "expected a field name after '.'");
			seg->kind = ST_SEG_NAME;
			seg->name = st_lex_text(&p->lx, &p->cur);
			if (!seg->name)
				return pr_oom(p);
		} else {
			if (p->cur.kind != T_INT)
				return pr_err(p, p->cur.pos,
					      "expected an integer constant index in '[]' "
					      "(args.ARRAY[2])");
			seg->kind = ST_SEG_INDEX;
			seg->index = p->cur.ival;
			err = pr_advance(p);
			if (err)
				return err;
			if (p->cur.kind != T_RBRACK)
				return pr_err(p, p->cur.pos, "expected ']' after the index");
		}
		err = pr_advance(p);
		if (err)
			return err;
	}
	return 0;
}

static bool is_argn(const char *s)
{
	return !strncmp(s, "arg", 3) && s[3] && strspn(s + 3, "0123456789") == strlen(s + 3);
}

/*
 * argN (a usdt: probe's SDT operand N, a uprobe: probe's raw argument N)
 * and retval (a uretprobe: probe's return value): the field of that name
 * of the probe's kind (events/events.h); e->str keeps the name, so
 * that the checker can tell it from args.NAME.
 */
static int argn_field(struct parser *p, struct st_expr *e)
{
	struct st_path_seg *seg = pr_push(&e->path, &e->nr_path, sizeof(*seg));

	if (!seg)
		return pr_oom(p);
	seg->pos = e->pos;
	seg->kind = ST_SEG_NAME;
	seg->name = strdup(e->str);
	if (!seg->name)
		return pr_oom(p);
	e->kind = ST_EXPR_FIELD;
	return 0;
}

/* An identifier: args.FIELD, argN, a builtin or a call. e->str holds it. */
static int parse_ident(struct parser *p, struct st_expr *e)
{
	int b, err;

	err = pr_advance(p);
	if (err)
		return err;
	if (p->cur.kind == T_LPAREN)
		return parse_call(p, e);
	if (!strcmp(e->str, "args")) {
		/* "args" alone is the whole event (print(args)): the checker says where it fits. */
		if (p->cur.kind != T_DOT && p->cur.kind != T_ARROW) {
			e->kind = ST_EXPR_ARGS;
			return 0;
		}
		e->kind = ST_EXPR_FIELD;
		return parse_field_path(p, e);
	}
	b = st_builtin_find(e->str);
	if (b >= 0) {
		e->kind = ST_EXPR_BUILTIN;
		e->builtin = b;
		return 0;
	}
	if (is_argn(e->str) || !strcmp(e->str, "retval"))
		return argn_field(p, e);
	if (pr_is_sarg(e->str))
		return pr_sarg(p, e);
	/* An enum's constant, which the checker looks up, or nothing known. */
	e->kind = ST_EXPR_IDENT;
	return 0;
}

/*
 * $N: the command line's parameter N as a literal, an integer when it is
 * one, else a string; one not given is 0. e->str keeps its text ("" when
 * not given), so that str($N) is a string either way (check_str()).
 */
static int posarg(struct parser *p, struct st_expr *e)
{
	uint64_t n = p->cur.ival;
	const char *v = n <= p->nr_args ? p->args[n - 1] : "";
	char *end;

	if (n == ST_POSARG_COUNT) {
		e->uval = p->nr_args;
		return pr_advance(p);
	}
	e->str = strdup(v);
	if (!e->str)
		return pr_oom(p);
	errno = 0;
	e->uval = *v ? (uint64_t)strtoll(v, &end, 0) : 0;
	if (*v && (errno || *end)) {
		e->kind = ST_EXPR_STR;
		e->uval = 0;
	}
	e->positional = true;
	return pr_advance(p);
}

/* A prefix node e (a unary operator, a cast): its operand, then e is done. */
static int prefix_operand(struct parser *p, struct st_expr *e, struct st_expr **out)
{
	struct st_expr *operand;
	int err;

	err = parse_unary(p, &operand);
	if (!err)
		err = pr_push_kid(p, e, operand);
	if (!err)
		err = pr_grow(p, p->height, e->pos);
	if (err) {
		st_expr_free(e);
		return err;
	}
	*out = e;
	return 0;
}

/* "(TYPE)" then the operand; the lexer is on TYPE. */
static int parse_cast(struct parser *p, struct st_expr **out)
{
	struct st_expr *e;
	int err;

	e = st_expr_new(ST_EXPR_CAST, p->cur.pos);
	if (!e)
		return pr_oom(p);
	err = pr_cast_type(p, &e->cast);
	if (err) {
		st_expr_free(e);
		return err;
	}
	return prefix_operand(p, e, out);
}

/* "(e, e...)": a tuple of its elements, kids in order. */
static int tuple(struct parser *p, struct st_pos at, struct st_expr *first, struct st_expr **out)
{
	struct st_expr *t = st_expr_new(ST_EXPR_TUPLE, at), *e;
	uint32_t h = p->height;
	int err;

	if (!t) {
		st_expr_free(first);
		return pr_oom(p);
	}
	err = pr_push_kid(p, t, first);
	while (!err && p->cur.kind == T_COMMA) {
		err = pr_advance(p) ?: pr_expr(p, 0, &e);
		if (!err)
			err = pr_push_kid(p, t, e);
		h = p->height > h ? p->height : h;
	}
	if (!err)
		err = pr_grow(p, h, t->pos);
	if (err) {
		st_expr_free(t);
		return err;
	}
	*out = t;
	return 0;
}

/* "(" a cast, an expression or a tuple ")". */
static int parenthesized(struct parser *p, struct st_expr **out)
{
	struct st_pos at = p->cur.pos;
	int err = pr_advance(p);

	if (!err && pr_at_type(p))
		return parse_cast(p, out);
	if (!err)
		err = pr_expr(p, 0, out);
	if (!err && p->cur.kind == T_COMMA)
		err = tuple(p, at, *out, out);
	if (err)
		return err;
	if (p->cur.kind != T_RPAREN)
		err = pr_err(p, p->cur.pos, "expected ')'");
	else
		err = pr_advance(p);
	if (err) {
		st_expr_free(*out);
		*out = NULL;
		return err;
	}
	(*out)->paren = at;
	return 0;
}

static int primary(struct parser *p, struct st_expr **out)
{
	struct st_expr *e;
	int err;

	switch (p->cur.kind) {
	case T_LPAREN:
		return parenthesized(p, out);
	case T_INT:
	case T_STR:
	case T_MAP:
	case T_VAR:
	case T_IDENT:
	case T_POSARG:
		break;
	default:
		return pr_err(p, p->cur.pos, "expected an expression: " ST_VALUE_FORMS,
			      st_builtin_names());
	}

	e = st_expr_new(ST_EXPR_INT, p->cur.pos);
	if (!e)
		return pr_oom(p);
	/* A leaf; a call's parse_call_args() says its own height. */
	p->height = 1;
	switch (p->cur.kind) {
	case T_INT:
		e->uval = p->cur.ival;
		e->is_unsigned = p->cur.ival > INT64_MAX;
		err = pr_advance(p);
		break;
	case T_STR:
		e->kind = ST_EXPR_STR;
		e->str = st_lex_string(&p->lx, &p->cur);
		err = e->str ? pr_advance(p) : pr_oom(p);
		break;
	case T_MAP:
		e->kind = ST_EXPR_MAP;
		e->str = st_lex_text(&p->lx, &p->cur);
		err = e->str ? pr_advance(p) : pr_oom(p);
		if (!err && p->cur.kind == T_LBRACK)
			err = pr_map_keys(p, e->str, &e->kids, &e->nr_kids);
		if (!err && e->nr_kids)
			err = pr_grow(p, p->height, e->pos);
		break;
	case T_VAR:
		e->kind = ST_EXPR_VAR;
		e->str = st_lex_text(&p->lx, &p->cur);
		err = e->str ? pr_advance(p) : pr_oom(p);
		break;
	case T_POSARG:
		err = posarg(p, e);
		break;
	default:
		e->str = st_lex_text(&p->lx, &p->cur);
		err = e->str ? parse_ident(p, e) : pr_oom(p);
		break;
	}
	if (err) {
		st_expr_free(e);
		return err;
	}
	*out = e;
	return 0;
}

int pr_primary(struct parser *p, struct st_expr **out)
{
	struct st_expr *e;
	int err;

	err = primary(p, &e);
	return err ? err : pr_postfix(p, e, out);
}

static int parse_unary_at(struct parser *p, struct st_expr **out)
{
	struct st_expr *e;
	enum st_op op;
	int err;

	switch (p->cur.kind) {
	case T_MINUS:
		op = ST_OP_NEG;
		break;
	case T_BANG:
		op = ST_OP_NOT;
		break;
	case T_TILDE:
		op = ST_OP_BNOT;
		break;
	case T_STAR:
		op = ST_OP_NONE; /* *p: ST_EXPR_DEREF */
		break;
	case T_INC:
	case T_DEC:
		/* ++x: the checker makes it a statement before its own */
		op = p->cur.kind == T_INC ? ST_OP_ADD : ST_OP_SUB;
		break;
	default:
		return pr_primary(p, out);
	}
	e = st_expr_new(op == ST_OP_NONE		     ? ST_EXPR_DEREF
			: op == ST_OP_ADD || op == ST_OP_SUB ? ST_EXPR_INCR
							     : ST_EXPR_UNARY,
			p->cur.pos);
	if (!e)
		return pr_oom(p);
	e->op = op;
	err = pr_advance(p);
	if (err) {
		st_expr_free(e);
		return err;
	}
	return prefix_operand(p, e, out);
}

/* Every nesting (a parenthesis, a unary operator) passes here: counted. */
static int parse_unary(struct parser *p, struct st_expr **out)
{
	int err;

	if (p->depth >= ST_MAX_EXPR_DEPTH)
		return pr_too_deep(p, p->cur.pos);
	p->depth++;
	err = parse_unary_at(p, out);
	p->depth--;
	return err;
}

/* Binary operators, C precedence (higher binds tighter). */
static int binary_op(enum st_tok kind, enum st_op *op)
{
	static const struct {
		enum st_tok tok;
		enum st_op op;
		int prec;
	} ops[] = {
		{T_LOR, ST_OP_LOR, 1},	  {T_LAND, ST_OP_LAND, 2},  {T_PIPE, ST_OP_BOR, 3},
		{T_CARET, ST_OP_BXOR, 4}, {T_AMP, ST_OP_BAND, 5},   {T_EQ, ST_OP_EQ, 6},
		{T_NE, ST_OP_NE, 6},	  {T_LT, ST_OP_LT, 7},	    {T_LE, ST_OP_LE, 7},
		{T_GT, ST_OP_GT, 7},	  {T_GE, ST_OP_GE, 7},	    {T_SHL, ST_OP_SHL, 8},
		{T_SHR, ST_OP_SHR, 8},	  {T_PLUS, ST_OP_ADD, 9},   {T_MINUS, ST_OP_SUB, 9},
		{T_STAR, ST_OP_MUL, 10},  {T_SLASH, ST_OP_DIV, 10}, {T_PERCENT, ST_OP_MOD, 10},
	};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (ops[i].tok == kind) {
			*op = ops[i].op;
			return ops[i].prec;
		}
	}
	return -1;
}

/* cond "?" a ":" b, cond parsed (parse_ternary() counted its depth). */
static int parse_ternary_at(struct parser *p, struct st_expr *cond, struct st_expr **out)
{
	struct st_expr *e, *kid;
	uint32_t h = p->height;
	int err, i;

	e = st_expr_new(ST_EXPR_TERNARY, p->cur.pos);
	if (!e) {
		st_expr_free(cond);
		return pr_oom(p);
	}
	err = pr_push_kid(p, e, cond);
	for (i = 0; i < 2 && !err; i++) {
		err = pr_advance(p);
		if (!err)
			err = pr_expr(p, 0, &kid);
		if (!err)
			err = pr_push_kid(p, e, kid);
		h = p->height > h ? p->height : h;
		if (!err && i == 0 && p->cur.kind != T_COLON)
			err = pr_err(p, p->cur.pos, "expected ':' in the conditional a ? b : c");
	}
	if (!err)
		err = pr_grow(p, h, e->pos);
	if (err) {
		st_expr_free(e);
		return err;
	}
	*out = e;
	return 0;
}

/*
 * cond "?" a ":" b: binds loosest, right to left as in C. A chain of them
 * nests: counted on the way down, as parse_unary() counts.
 */
static int parse_ternary(struct parser *p, struct st_expr *cond, struct st_expr **out)
{
	int err;

	if (p->depth >= ST_MAX_EXPR_DEPTH) {
		st_expr_free(cond);
		return pr_too_deep(p, p->cur.pos);
	}
	p->depth++;
	err = parse_ternary_at(p, cond, out);
	p->depth--;
	return err;
}

/* Precedence climbing: operators binding at least as tight as min_prec. */
int pr_expr(struct parser *p, int min_prec, struct st_expr **out)
{
	struct st_expr *lhs, *rhs, *bin;
	uint32_t h;
	enum st_op op;
	int prec, err;

	err = parse_unary(p, &lhs);
	if (err)
		return err;
	for (;;) {
		h = p->height;
		prec = binary_op(p->cur.kind, &op);
		if (prec < 0 || prec < min_prec)
			break;
		if (op == ST_OP_DIV && p->in_filter && pr_peek_kind(p) == T_LBRACE)
			break;
		bin = st_expr_new(ST_EXPR_BINARY, p->cur.pos);
		if (!bin) {
			err = pr_oom(p);
			goto cleanup;
		}
		bin->op = op;
		err = pr_push_kid(p, bin, lhs);
		lhs = bin;
		if (err)
			goto cleanup;
		err = pr_advance(p);
		if (!err)
			err = pr_expr(p, prec + 1, &rhs);
		if (!err)
			err = pr_push_kid(p, bin, rhs);
		if (!err)
			err = pr_grow(p, p->height > h ? p->height : h, bin->pos);
		if (err)
			goto cleanup;
	}
	if (min_prec == 0 && p->cur.kind == T_QUESTION)
		return parse_ternary(p, lhs, out);
	*out = lhs;
	return 0;
cleanup:
	st_expr_free(lhs);
	return err;
}

/* "[" key ("," key)* "]" of map, the lexer on "[". */
int pr_map_keys(struct parser *p, const char *map, struct st_expr ***keys, uint32_t *nr_keys)
{
	struct st_expr **slot, *key;
	uint32_t h = 0;
	int err;

	err = pr_advance(p);
	if (err)
		return err;
	if (p->cur.kind == T_RBRACK)
		return pr_err(
			p, p->cur.pos,
			"expected a key in %s[]: write %s without brackets for a map with no key",
			map, map);
	for (;;) {
		err = pr_expr(p, 0, &key);
		if (err)
			return err;
		h = p->height > h ? p->height : h;
		slot = pr_push(keys, nr_keys, sizeof(*slot));
		if (!slot) {
			st_expr_free(key);
			return pr_oom(p);
		}
		*slot = key;
		if (p->cur.kind == T_RBRACK) {
			p->height = h;
			return pr_advance(p);
		}
		if (p->cur.kind != T_COMMA)
			return pr_err(p, p->cur.pos, "expected ',' or ']' after key %u of %s",
				      *nr_keys, map);
		err = pr_advance(p);
		if (err)
			return err;
	}
}
