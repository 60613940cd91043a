// SPDX-License-Identifier: MIT
/* Statements and blocks: assignments, if/else, calls. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strdup with any -std */
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "parse/functions.h"
#include "parse/parse.h"

static const char stmt_forms[] =
	"@map[keys] = aggregation or value, $var = value, @m[k]++, @m[k] += value, "
	"if (...) { ... } else { ... }, while (...) { ... }, break, continue, return, "
	"delete(@m[k]), "
	"print(@m), clear(@m), zero(@m), exit() "
	"or printf(\"fmt\", ...)";

/* s becomes "+= 1" (inc, "++") or "-= 1" (--). */
static int inc_dec(struct parser *p, struct st_stmt *s, const struct st_token *inc)
{
	struct st_expr *one = st_expr_new(ST_EXPR_INT, inc->pos);

	if (!one)
		return pr_oom(p);
	one->uval = 1;
	s->kind = ST_STMT_ASSIGN;
	s->op = inc->kind == T_INC ? ST_OP_ADD : ST_OP_SUB;
	s->value = one;
	return 0;
}

/*
 * "=", "op=", "++" or "--" after a map or variable, then the value; or,
 * after a "++" or "--" before it (prefix), nothing.
 */
static int parse_assign(struct parser *p, struct st_stmt *s, const char *target,
			const struct st_token *prefix)
{
	int err;

	s->kind = ST_STMT_ASSIGN;
	if (prefix)
		return inc_dec(p, s, prefix);
	if (p->cur.kind == T_INC || p->cur.kind == T_DEC)
		return inc_dec(p, s, &p->cur) ?: pr_advance(p);
	if (p->cur.kind == T_OPASSIGN)
		s->op = (enum st_op)p->cur.ival;
	else if (p->cur.kind != T_ASSIGN)
		return pr_err(p, p->cur.pos,
			      "expected '=', '+=' (or another compound assignment), '++' or '--' "
			      "after %s",
			      target);
	err = pr_advance(p);
	if (!err)
		err = pr_expr(p, 0, &s->value);
	if (err)
		return err;
	/* An aggregation makes the statement one, without its operator. */
	if (s->value->kind == ST_EXPR_CALL && st_func(s->value->func)->form == ST_FORM_AGG &&
	    s->map) {
		if (s->op != ST_OP_NONE)
			return pr_err(p, s->value->pos, "%s() is assigned with '=': %s = %s(...)",
				      st_func_name(s->value->func), target,
				      st_func_name(s->value->func));
		s->kind = ST_STMT_AGG;
		s->call = s->value;
		s->value = NULL;
	}
	return 0;
}

static int parse_if_nested(struct parser *p, struct st_stmt *s);

/* "if" "(" cond ")" block ["else" (if-statement | block)]; the lexer on "if". */
static int parse_if(struct parser *p, struct st_stmt *s)
{
	struct st_stmt *inner;
	int err;

	s->kind = ST_STMT_IF;
	err = pr_advance(p);
	if (!err && p->cur.kind != T_LPAREN)
		err = pr_err(p, p->cur.pos, "expected '(' after if: if (condition) { ... }");
	if (!err)
		err = pr_expr(p, 0, &s->value);
	if (!err && p->cur.kind != T_LBRACE)
		err = pr_err(p, p->cur.pos, "expected '{' after the condition of if");
	if (!err)
		err = pr_block(p, &s->then, &s->nr_then);
	if (!err)
		err = pr_advance(p);
	if (err || p->cur.kind != T_IDENT || p->cur.len != 4 ||
	    strncmp(p->lx.src + p->cur.off, "else", 4))
		return err;
	err = pr_advance(p);
	if (err)
		return err;
	if (p->cur.kind == T_LBRACE)
		return pr_block(p, &s->els, &s->nr_els) ?: pr_advance(p);
	if (p->cur.kind != T_IDENT || p->cur.len != 2 || strncmp(p->lx.src + p->cur.off, "if", 2))
		return pr_err(p, p->cur.pos, "expected '{' or 'if' after else");
	inner = pr_push(&s->els, &s->nr_els, sizeof(*inner));
	if (!inner)
		return pr_oom(p);
	inner->pos = p->cur.pos;
	inner->map_id = inner->var_id = -1;
	return parse_if_nested(p, inner);
}

/*
 * Blocks nest as expressions do: every later pass recurses into them,
 * and the limit is checked on the way down, before the stack can run out.
 */
static int parse_if_nested(struct parser *p, struct st_stmt *s)
{
	int err;

	if (p->block_depth >= ST_MAX_BLOCK_DEPTH)
		return pr_err(p, p->cur.pos,
			      "if blocks nested more than %d levels deep (an else-if chain "
			      "counts one level for each else if): split them",
			      ST_MAX_BLOCK_DEPTH);
	p->block_depth++;
	err = parse_if(p, s);
	p->block_depth--;
	return err;
}

/* A one-statement block holding call, an action. */
static int action_block(struct parser *p, struct st_expr *call, struct st_stmt **block,
			uint32_t *nr)
{
	struct st_stmt *s = pr_push(block, nr, sizeof(*s));

	if (!s) {
		st_expr_free(call);
		return pr_oom(p);
	}
	s->kind = ST_STMT_CALL;
	s->pos = call->pos;
	s->map_id = s->var_id = -1;
	s->call = call;
	return 0;
}

/*
 * An expression as a statement, as bpftrace takes it: c ? action : action
 * is if (c) { action } else { action }; any other is checked, then
 * dropped (st_stmt.discard): no value has an effect.
 */
static int expression_stmt(struct parser *p, struct st_stmt *s)
{
	struct st_expr *e = s->call;
	bool actions = e->kind == ST_EXPR_TERNARY && e->kids[1]->kind == ST_EXPR_CALL &&
		       e->kids[2]->kind == ST_EXPR_CALL;
	int err = 0;

	s->call = NULL;
	s->kind = ST_STMT_IF;
	if (!actions) {
		s->value = e;
		s->discard = true;
		return 0;
	}
	s->value = e->kids[0];
	err = action_block(p, e->kids[1], &s->then, &s->nr_then);
	if (!err)
		err = action_block(p, e->kids[2], &s->els, &s->nr_els);
	e->nr_kids = 0;
	st_expr_free(e);
	return err;
}

/* An expression statement from the current token (expression_stmt()). */
static int expression_at(struct parser *p, struct st_stmt *s)
{
	int err;

	s->kind = ST_STMT_CALL;
	err = pr_expr(p, 0, &s->call);
	return err ?: expression_stmt(p, s);
}

/*
 * Whether token kind k, after a map or a variable, makes the statement an
 * expression: it ends there, or an operator goes on with it. Anything
 * else wants an assignment, and says so.
 */
static bool expression_goes_on(enum st_tok k)
{
	static const enum st_tok goes_on[] = {
		T_SEMI, T_RBRACE, T_PLUS, T_MINUS, T_STAR,     T_SLASH, T_PERCENT, T_AMP,
		T_PIPE, T_CARET,  T_SHL,  T_SHR,   T_LT,       T_LE,	T_GT,	   T_GE,
		T_EQ,	T_NE,	  T_LAND, T_LOR,   T_QUESTION, T_DOT,	T_ARROW,
	};
	size_t i;

	for (i = 0; i < sizeof(goes_on) / sizeof(goes_on[0]); i++)
		if (k == goes_on[i])
			return true;
	return false;
}

/* Whether a statement that starts with token kind k can only be an expression. */
static bool starts_expression(enum st_tok k)
{
	return k == T_INT || k == T_STR || k == T_LPAREN || k == T_MINUS || k == T_STAR ||
	       k == T_TILDE || k == T_BANG || k == T_POSARG;
}

/*
 * @map[keys] then an assignment; or, where no assignment follows, an
 * expression statement that starts with the map (@x; @x[1] == 2), read
 * again from the map's token.
 */
static int map_stmt(struct parser *p, struct st_stmt *s, const struct st_token *prefix)
{
	struct st_lexer at = p->lx;
	struct st_token first = p->cur;
	int err;

	s->map_pos = p->cur.pos;
	s->map = st_lex_text(&p->lx, &p->cur);
	if (!s->map)
		return pr_oom(p);
	err = pr_advance(p);
	if (!err && p->cur.kind == T_LBRACK)
		err = pr_map_keys(p, s->map, &s->keys, &s->nr_keys);
	if (err || prefix || !expression_goes_on(p->cur.kind))
		return err ?: parse_assign(p, s, s->map, prefix);
	st_stmt_fini(s);
	*s = (struct st_stmt){.pos = first.pos, .map_id = -1, .var_id = -1};
	p->lx = at;
	p->cur = first;
	return expression_at(p, s);
}

/* "while" "(" cond ")" block: an if that loops (st_stmt.loop). */
static int parse_while(struct parser *p, struct st_stmt *s)
{
	int err;

	if (p->block_depth >= ST_MAX_BLOCK_DEPTH)
		return pr_err(p, p->cur.pos, "blocks nested more than %d levels deep",
			      ST_MAX_BLOCK_DEPTH);
	s->kind = ST_STMT_IF;
	s->loop = true;
	err = pr_advance(p) ?: pr_expr(p, 0, &s->value);
	if (!err && p->cur.kind != T_LBRACE)
		err = pr_err(p, p->cur.pos, "expected '{' after the condition of while");
	p->block_depth++;
	p->loops++;
	err = err ?: pr_block(p, &s->then, &s->nr_then);
	p->loops--;
	p->block_depth--;
	return err ?: pr_advance(p);
}

/* Most copies unroll makes, as bpftrace allows; and unrolls in unrolls make, in all. */
#define UNROLL_MAX 100
#define UNROLL_TOTAL_MAX 1000

/*
 * "unroll" "(" N ")" block: the block's statements N times, as bpftrace
 * unrolls it, in one block (an if whose condition is 1): the block is
 * parsed again for each copy.
 */
/* unroll's count: an integer, or a positional parameter that holds one, 1 to UNROLL_MAX. */
static int unroll_count(struct parser *p, uint64_t *n)
{
	bool posarg;

	if (!pr_literal_count(p, n, &posarg))
		return posarg ? pr_err(p, p->cur.pos,
				       "unroll's count $%llu is not an integer: \"%s\"",
				       (unsigned long long)p->cur.ival,
				       p->cur.ival <= p->nr_args ? p->args[p->cur.ival - 1] : "")
			      : pr_err(p, p->cur.pos,
				       "unroll takes a count from 1 to %d: unroll (5) { ... }",
				       UNROLL_MAX);
	/* bpftrace's words, which scripts may look for. */
	if (*n > UNROLL_MAX)
		return pr_err(p, p->cur.pos, "unroll maximum value is %d", UNROLL_MAX);
	if (!*n)
		return pr_err(p, p->cur.pos, "unroll minimum value is 1");
	return 0;
}

static int parse_unroll(struct parser *p, struct st_stmt *s)
{
	uint64_t n = 0, i, outer = p->unrolled + 1;
	struct st_lexer at;
	struct st_token open;
	struct st_expr *one;
	int err;

	err = pr_advance(p) ?: pr_advance(p) ?: unroll_count(p, &n);
	if (!err && outer * n > UNROLL_TOTAL_MAX)
		return pr_err(p, p->cur.pos,
			      "unroll in unroll makes more than %d copies of a statement",
			      UNROLL_TOTAL_MAX);
	err = err ?: pr_advance(p);
	if (!err && p->cur.kind != T_RPAREN)
		return pr_err(p, p->cur.pos, "expected ')' after unroll's count");
	err = err ?: pr_advance(p);
	if (!err && p->cur.kind != T_LBRACE)
		return pr_err(p, p->cur.pos, "expected '{' after unroll (%llu)",
			      (unsigned long long)n);
	if (err)
		return err;
	one = st_expr_new(ST_EXPR_INT, s->pos);
	if (!one)
		return pr_oom(p);
	one->uval = 1;
	s->kind = ST_STMT_IF;
	s->value = one;
	at = p->lx;
	open = p->cur;
	p->unrolled = outer * n - 1;
	for (i = 0; i < n && !err; i++) {
		p->lx = at;
		p->cur = open;
		err = pr_block(p, &s->then, &s->nr_then);
	}
	p->unrolled = outer - 1;
	return err ?: pr_advance(p);
}

/* Whether the current token is the word w. */
static bool at_word(const struct parser *p, const char *w)
{
	return p->cur.kind == T_IDENT && p->cur.len == strlen(w) &&
	       !strncmp(p->lx.src + p->cur.off, w, p->cur.len);
}

/* "break" or "continue", in a while loop's block (an unroll is no loop, as in bpftrace). */
static int loop_jump(struct parser *p, struct st_stmt *s)
{
	const char *w = at_word(p, "break") ? "break" : "continue";

	if (!p->loops)
		return pr_err(p, s->pos,
			      "%s outside a loop: break and continue are statements of a while "
			      "loop's block",
			      w);
	s->kind = *w == 'b' ? ST_STMT_BREAK : ST_STMT_CONTINUE;
	return pr_advance(p);
}

static int parse_stmt(struct parser *p, struct st_stmt *s)
{
	struct st_token inc, *prefix = NULL;
	int err;

	s->pos = p->cur.pos;
	/* ++$x and --@m[k], as statements: $x++ and @m[k]--. */
	if ((p->cur.kind == T_INC || p->cur.kind == T_DEC) &&
	    (pr_peek_kind(p) == T_VAR || pr_peek_kind(p) == T_MAP)) {
		inc = p->cur;
		prefix = &inc;
		err = pr_advance(p);
		if (err)
			return err;
	}
	s->map_id = s->var_id = -1;
	if (p->cur.kind == T_IDENT && p->cur.len == 2 && !strncmp(p->lx.src + p->cur.off, "if", 2))
		return parse_if_nested(p, s);
	if (p->cur.kind == T_IDENT && p->cur.len == 6 &&
	    !strncmp(p->lx.src + p->cur.off, "unroll", 6) && pr_peek_kind(p) == T_LPAREN)
		return parse_unroll(p, s);
	if (p->cur.kind == T_IDENT && p->cur.len == 5 &&
	    !strncmp(p->lx.src + p->cur.off, "while", 5) && pr_peek_kind(p) == T_LPAREN)
		return parse_while(p, s);
	if (at_word(p, "break") || at_word(p, "continue"))
		return loop_jump(p, s);
	if (at_word(p, "return")) {
		s->kind = ST_STMT_RETURN;
		return pr_advance(p);
	}
	if (p->cur.kind == T_IDENT) {
		s->kind = ST_STMT_CALL;
		err = pr_expr(p, 0, &s->call);
		if (err)
			return err;
		/* An action is a statement; a value, bpftrace's expression statement. */
		return s->call->kind == ST_EXPR_CALL &&
				       st_func(s->call->func)->form != ST_FORM_VALUE
			       ? 0
			       : expression_stmt(p, s);
	}
	if (p->cur.kind == T_VAR && !prefix && expression_goes_on(pr_peek_kind(p)))
		return expression_at(p, s);
	if (p->cur.kind == T_VAR) {
		s->var = st_lex_text(&p->lx, &p->cur);
		err = s->var ? pr_advance(p) : pr_oom(p);
		return err ? err : parse_assign(p, s, s->var, prefix);
	}
	if (p->cur.kind == T_MAP)
		return map_stmt(p, s, prefix);
	if (!prefix && starts_expression(p->cur.kind))
		return expression_at(p, s);
	return pr_err(p, s->pos, "expected a statement: %s", stmt_forms);
}

/* "{" statements "}"; leaves the lexer on the "}" (a probe may follow it). */
int pr_block(struct parser *p, struct st_stmt **stmts, uint32_t *nr)
{
	struct st_pos open = p->cur.pos;
	struct st_stmt *s;
	int err;

	err = pr_advance(p);
	while (!err && p->cur.kind != T_RBRACE) {
		if (p->cur.kind == T_SEMI) {
			err = pr_advance(p);
			continue;
		}
		if (p->cur.kind == T_EOF)
			return pr_err(
				p, p->cur.pos,
				"expected '}' to close the block opened at line %u, column %u",
				open.line, open.col);
		s = pr_push(stmts, nr, sizeof(*s));
		if (!s)
			return pr_oom(p);
		err = parse_stmt(p, s);
		if (err)
			return err;
		if (p->cur.kind == T_SEMI)
			err = pr_advance(p);
		else if (p->cur.kind != T_RBRACE &&
			 (*nr == 0 || (*stmts)[*nr - 1].kind != ST_STMT_IF))
			return pr_err(p, p->cur.pos, "expected ';' or '}' after statement");
	}
	return err;
}
