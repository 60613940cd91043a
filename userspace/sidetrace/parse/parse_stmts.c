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
	"if (...) { ... } else { ... }, delete(@m[k]), print(@m), clear(@m), zero(@m), exit() "
	"or printf(\"fmt\", ...)";

/* "=", "op=", "++" or "--" after a map or variable, then the value. */
static int parse_assign(struct parser *p, struct st_stmt *s, const char *target)
{
	struct st_expr *one;
	int err;

	s->kind = ST_STMT_ASSIGN;
	if (p->cur.kind == T_INC || p->cur.kind == T_DEC) {
		s->op = p->cur.kind == T_INC ? ST_OP_ADD : ST_OP_SUB;
		one = st_expr_new(ST_EXPR_INT, p->cur.pos);
		if (!one)
			return pr_oom(p);
		one->uval = 1;
		s->value = one;
		return pr_advance(p);
	}
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

static int parse_stmt(struct parser *p, struct st_stmt *s)
{
	int err;

	s->pos = p->cur.pos;
	s->map_id = s->var_id = -1;
	if (p->cur.kind == T_IDENT && p->cur.len == 2 && !strncmp(p->lx.src + p->cur.off, "if", 2))
		return parse_if_nested(p, s);
	if (p->cur.kind == T_IDENT) {
		s->kind = ST_STMT_CALL;
		err = pr_primary(p, &s->call);
		if (err)
			return err;
		if (s->call->kind != ST_EXPR_CALL)
			return pr_err(p, s->pos, "expected a statement: %s", stmt_forms);
		return 0;
	}
	if (p->cur.kind == T_VAR) {
		s->var = st_lex_text(&p->lx, &p->cur);
		err = s->var ? pr_advance(p) : pr_oom(p);
		return err ? err : parse_assign(p, s, s->var);
	}
	if (p->cur.kind != T_MAP)
		return pr_err(p, s->pos, "expected a statement: %s", stmt_forms);
	s->map_pos = p->cur.pos;
	s->map = st_lex_text(&p->lx, &p->cur);
	if (!s->map)
		return pr_oom(p);
	err = pr_advance(p);
	if (!err && p->cur.kind == T_LBRACK)
		err = pr_map_keys(p, s->map, &s->keys, &s->nr_keys);
	return err ? err : parse_assign(p, s, s->map);
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
