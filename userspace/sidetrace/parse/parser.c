// SPDX-License-Identifier: MIT
/* Recursive-descent parser of the sidetrace language: clauses, and the whole. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strdup with any -std */
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "parse/parse.h"
#include "kinds/probe_kinds.h"

int __attribute__((format(printf, 3, 4)))
pr_err(struct parser *p, struct st_pos pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	st_diag_vset(p->diag, p->lx.filename, pos, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int pr_oom(struct parser *p)
{
	st_diag_set(p->diag, p->lx.filename, p->cur.pos, "out of memory");
	return -ENOMEM;
}

int pr_too_deep(struct parser *p, struct st_pos pos)
{
	return pr_err(p, pos,
		      "expression nested more than %d levels deep (operators, parentheses and "
		      "calls count): split it",
		      ST_MAX_EXPR_DEPTH);
}

/* The height of a node over children of height h: refused past the limit. */
int pr_grow(struct parser *p, uint32_t h, struct st_pos pos)
{
	p->height = h + 1;
	return p->height > ST_MAX_EXPR_DEPTH ? pr_too_deep(p, pos) : 0;
}

int pr_advance(struct parser *p)
{
	return st_lex_next(&p->lx, &p->cur) ? -EINVAL : 0;
}

bool pr_literal_count(const struct parser *p, uint64_t *n, bool *posarg)
{
	const char *v;
	char *end;

	*posarg = p->cur.kind == T_POSARG && p->cur.ival != ST_POSARG_COUNT;
	if (p->cur.kind == T_INT) {
		*n = p->cur.ival;
		return true;
	}
	if (!*posarg)
		return false;
	v = p->cur.ival <= p->nr_args ? p->args[p->cur.ival - 1] : "";
	errno = 0;
	*n = strtoull(v, &end, 0);
	return *v && !errno && !*end;
}

/* Appends a zeroed element to a realloc'd array; NULL if out of memory. */
void *pr_push(void *arrp, uint32_t *nr, size_t size)
{
	void **arr = arrp;
	char *n = realloc(*arr, (*nr + 1) * size);

	if (!n)
		return NULL;
	*arr = n;
	memset(n + *nr * size, 0, size);
	return n + (*nr)++ * size;
}

int pr_push_kid(struct parser *p, struct st_expr *parent, struct st_expr *kid)
{
	struct st_expr **slot = pr_push(&parent->kids, &parent->nr_kids, sizeof(*slot));

	if (!slot) {
		st_expr_free(kid);
		return pr_oom(p);
	}
	*slot = kid;
	return 0;
}

/* The token after the current one, lexed on a copy of the lexer. */
enum st_tok pr_peek_kind(const struct parser *p)
{
	struct st_lexer lx = p->lx;
	struct st_diag scratch = {0};
	struct st_token tok;

	/* A lexing error will show up, with its message, when we get there. */
	lx.diag = &scratch;
	if (st_lex_next(&lx, &tok))
		return T_EOF;
	return tok.kind;
}

/* A clause's next attach point (st_point_slot). */
static struct st_attach_point *clause_point(void *ctx)
{
	struct st_clause *c = ctx;

	return pr_push(&c->points, &c->nr_points, sizeof(*c->points));
}

static int parse_clause(struct parser *p, struct st_clause *c)
{
	int err;

	do {
		err = st_lex_attach_points(&p->lx, clause_point, c);
		if (err)
			return err == -ENOMEM ? pr_oom(p) : -EINVAL;
		c->pos = c->points[0].pos;
		err = pr_advance(p);
		if (err)
			return err;
	} while (p->cur.kind == T_COMMA);

	if (p->cur.kind == T_SLASH) {
		p->in_filter = true;
		err = pr_advance(p);
		if (!err)
			err = pr_expr(p, 0, &c->filter);
		p->in_filter = false;
		if (err)
			return err;
		if (p->cur.kind != T_SLASH)
			return pr_err(p, p->cur.pos,
				      "expected '/' to close the filter: /filter/ { ... }");
		err = pr_advance(p);
		if (err)
			return err;
		if (p->cur.kind != T_LBRACE)
			return pr_err(p, p->cur.pos, "expected '{' after the filter");
	} else if (p->cur.kind != T_LBRACE) {
		return pr_err(p, p->cur.pos,
			      "expected '{', ',' and another probe, or /filter/ after the probe");
	}
	return pr_block(p, &c->stmts, &c->nr_stmts);
}

/* A C definition between probes, and the ';' that may end it. */
static int c_definition(struct parser *p, struct st_program *prog)
{
	int err;

	if (!prog->ctypes && !(prog->ctypes = st_ctypes_new()))
		return pr_oom(p);
	p->ctypes = prog->ctypes;
	err = pr_c_definition(p);
	if (!err)
		err = st_lex_skip_space(&p->lx) ? -EINVAL : 0;
	if (!err && p->lx.src[p->lx.off] == ';')
		err = pr_advance(p);
	return err;
}

int st_parse(const char *src, const char *filename, struct st_program **out, struct st_diag *diag)
{
	return st_parse_args(src, filename, NULL, 0, false, out, diag);
}

int st_parse_args(const char *src, const char *filename, char *const *args, uint32_t nr_args,
		  bool process, struct st_program **out, struct st_diag *diag)
{
	struct parser p = {.diag = diag, .args = args, .nr_args = nr_args};
	struct st_program *prog;
	struct st_clause *c;
	int err;

	memset(diag, 0, sizeof(*diag));
	if (strlen(src) > ST_MAX_PROGRAM_BYTES) {
		st_diag_set(diag, filename, (struct st_pos){0}, "program longer than %d bytes",
			    ST_MAX_PROGRAM_BYTES);
		return -EINVAL;
	}
	prog = calloc(1, sizeof(*prog));
	if (!prog)
		return pr_oom(&p);
	prog->filename = strdup(filename ? filename : "program");
	if (!prog->filename) {
		err = pr_oom(&p);
		goto cleanup;
	}
	st_lex_init(&p.lx, src, prog->filename, diag);
	p.lx.args = args;
	p.lx.nr_args = nr_args;
	p.lx.user_kinds = process;
	for (;;) {
		err = st_lex_skip_space(&p.lx) ? -EINVAL : 0;
		if (err || st_lex_at_end(&p.lx))
			break;
		if (pr_at_c_definition(&p)) {
			err = c_definition(&p, prog);
			if (err)
				break;
			continue;
		}
		c = pr_push(&prog->clauses, &prog->nr_clauses, sizeof(*c));
		if (!c) {
			err = pr_oom(&p);
			break;
		}
		err = parse_clause(&p, c);
		if (err)
			break;
	}
	if (!err && !prog->nr_clauses)
		err = pr_err(&p, p.lx.pos, "empty program: expected a probe: %s",
			     st_probe_kinds_syntax());
	if (err)
		goto cleanup;
	*out = prog;
	return 0;
cleanup:
	st_program_free(prog);
	return err;
}
