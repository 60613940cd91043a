// SPDX-License-Identifier: MIT
/* Recursive-descent parser of the sidetrace language. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strdup with any -std */
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lang/lexer.h"
#include "lang/parser.h"

struct parser {
	struct st_lexer lx;
	struct st_token cur;
	struct st_diag *diag;
	bool in_filter; /* a '/' before '{' closes the filter */
	/*
	 * Expressions nest at most ST_MAX_EXPR_DEPTH levels: depth counts the
	 * levels open while parsing (parentheses, unary operators), height
	 * that of the expression just parsed. Every later pass (checker,
	 * compiler, free) walks the tree recursively within that bound.
	 */
	uint32_t depth;
	uint32_t height;
};

static const char stmt_forms[] =
	"@map[keys] = aggregation, print(@m), clear(@m), zero(@m), exit() or printf(\"fmt\", ...)";
static const char agg_forms[] =
	"count(), sum(v), avg(v), min(v), max(v), stats(v), hist(v) or lhist(v, min, max, step)";

static int __attribute__((format(printf, 3, 4)))
perr(struct parser *p, struct st_pos pos, const char *fmt, ...)
{
	char msg[sizeof(p->diag->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	st_diag_set(p->diag, p->lx.filename, pos, "%s", msg);
	return -EINVAL;
}

static int oom(struct parser *p)
{
	st_diag_set(p->diag, p->lx.filename, p->cur.pos, "out of memory");
	return -ENOMEM;
}

static int too_deep(struct parser *p, struct st_pos pos)
{
	return perr(p, pos,
		    "expression nested more than %d levels deep (operators, parentheses and "
		    "calls count): split it",
		    ST_MAX_EXPR_DEPTH);
}

/* The height of a node over children of height h: refused past the limit. */
static int grow(struct parser *p, uint32_t h, struct st_pos pos)
{
	p->height = h + 1;
	return p->height > ST_MAX_EXPR_DEPTH ? too_deep(p, pos) : 0;
}

static int advance(struct parser *p)
{
	return st_lex_next(&p->lx, &p->cur) ? -EINVAL : 0;
}

/* Appends a zeroed element to a realloc'd array; NULL if out of memory. */
static void *push(void *arrp, uint32_t *nr, size_t size)
{
	void **arr = arrp;
	char *n = realloc(*arr, (*nr + 1) * size);

	if (!n)
		return NULL;
	*arr = n;
	memset(n + *nr * size, 0, size);
	return n + (*nr)++ * size;
}

static int push_kid(struct parser *p, struct st_expr *parent, struct st_expr *kid)
{
	struct st_expr **slot = push(&parent->kids, &parent->nr_kids, sizeof(*slot));

	if (!slot) {
		st_expr_free(kid);
		return oom(p);
	}
	*slot = kid;
	return 0;
}

static struct st_expr *new_expr(enum st_expr_kind kind, struct st_pos pos)
{
	struct st_expr *e = calloc(1, sizeof(*e));

	if (e) {
		e->kind = kind;
		e->pos = pos;
		e->map_id = -1;
	}
	return e;
}

/* The token after the current one, lexed on a copy of the lexer. */
static enum st_tok peek_kind(const struct parser *p)
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

static int parse_expr(struct parser *p, int min_prec, struct st_expr **out);
static int parse_unary(struct parser *p, struct st_expr **out);

/* "(" [expr ("," expr)*] ")", the arguments appended to call->kids. */
static int parse_call_args(struct parser *p, struct st_expr *call)
{
	struct st_expr *arg;
	uint32_t h = 0;
	int err;

	err = advance(p);
	if (err)
		return err;
	if (p->cur.kind == T_RPAREN)
		return grow(p, 0, call->pos) ?: advance(p);
	for (;;) {
		err = parse_expr(p, 0, &arg);
		if (err)
			return err;
		err = push_kid(p, call, arg);
		if (err)
			return err;
		h = p->height > h ? p->height : h;
		if (p->cur.kind == T_RPAREN)
			return grow(p, h, call->pos) ?: advance(p);
		if (p->cur.kind != T_COMMA)
			return perr(p, p->cur.pos, "expected ',' or ')' after argument %u of %s()",
				    call->nr_kids, call->str);
		err = advance(p);
		if (err)
			return err;
	}
}

static int parse_call(struct parser *p, struct st_expr *call)
{
	int fn;

	for (fn = ST_FN_COUNT; fn <= ST_FN_PRINTF; fn++)
		if (!strcmp(call->str, st_func_name(fn)))
			break;
	if (fn > ST_FN_PRINTF)
		return perr(p, call->pos,
			    "unknown function '%s': valid are count, sum, avg, min, max, stats, "
			    "hist, lhist, print, clear, zero, exit and printf",
			    call->str);
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
		return perr(p, p->cur.pos,
			    "expected '.' and a field name after 'args' (args.FIELD)");
	while (p->cur.kind == T_DOT || p->cur.kind == T_ARROW || p->cur.kind == T_LBRACK) {
		bool by_name = p->cur.kind != T_LBRACK;
		/* A name is shown by its first letter, an index by its '['. */
		struct st_pos pos = p->cur.pos;

		err = advance(p);
		if (err)
			return err;
		seg = push(&e->path, &e->nr_path, sizeof(*seg));
		if (!seg)
			return oom(p);
		seg->pos = by_name ? p->cur.pos : pos;
		if (by_name) {
			if (p->cur.kind != T_IDENT)
				return perr(p, p->cur.pos, "expected a field name after '.'");
			seg->kind = ST_SEG_NAME;
			seg->name = st_lex_text(&p->lx, &p->cur);
			if (!seg->name)
				return oom(p);
		} else {
			if (p->cur.kind != T_INT)
				return perr(p, p->cur.pos,
					    "expected an integer constant index in '[]' "
					    "(args.ARRAY[2])");
			seg->kind = ST_SEG_INDEX;
			seg->index = p->cur.ival;
			err = advance(p);
			if (err)
				return err;
			if (p->cur.kind != T_RBRACK)
				return perr(p, p->cur.pos, "expected ']' after the index");
		}
		err = advance(p);
		if (err)
			return err;
	}
	return 0;
}

static bool is_argn(const char *s)
{
	return !strncmp(s, "arg", 3) && s[3] && strspn(s + 3, "0123456789") == strlen(s + 3);
}

/* An identifier: args.FIELD, a builtin or a call. e->str holds it. */
static int parse_ident(struct parser *p, struct st_expr *e)
{
	int b, err;

	err = advance(p);
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
	for (b = ST_BUILTIN_PID; b <= ST_BUILTIN_PROBE; b++) {
		if (!strcmp(e->str, st_builtin_name(b))) {
			e->kind = ST_EXPR_BUILTIN;
			e->builtin = b;
			return 0;
		}
	}
	if (is_argn(e->str))
		return perr(p, e->pos,
			    "'%s' is not available: SIDE fields have names, use args.FIELD",
			    e->str);
	return perr(p, e->pos,
		    "unknown identifier '%s': expected args.FIELD, a builtin (pid, tid, comm, "
		    "nsecs, cpu, uid, probe), a number, a string or '('",
		    e->str);
}

static int parse_primary(struct parser *p, struct st_expr **out)
{
	struct st_expr *e;
	int err;

	switch (p->cur.kind) {
	case T_LPAREN:
		err = advance(p);
		if (!err)
			err = parse_expr(p, 0, out);
		if (err)
			return err;
		if (p->cur.kind != T_RPAREN)
			err = perr(p, p->cur.pos, "expected ')'");
		else
			err = advance(p);
		if (err) {
			st_expr_free(*out);
			*out = NULL;
		}
		return err;
	case T_INT:
	case T_STR:
	case T_MAP:
	case T_IDENT:
		break;
	default:
		return perr(p, p->cur.pos,
			    "expected an expression: a number, a string, args.FIELD, a builtin "
			    "(pid, tid, comm, nsecs, cpu, uid, probe) or '('");
	}

	e = new_expr(ST_EXPR_INT, p->cur.pos);
	if (!e)
		return oom(p);
	/* A leaf; a call's parse_call_args() says its own height. */
	p->height = 1;
	switch (p->cur.kind) {
	case T_INT:
		e->uval = p->cur.ival;
		e->is_unsigned = p->cur.ival > INT64_MAX;
		err = advance(p);
		break;
	case T_STR:
		e->kind = ST_EXPR_STR;
		e->str = st_lex_string(&p->lx, &p->cur);
		err = e->str ? advance(p) : oom(p);
		break;
	case T_MAP:
		e->kind = ST_EXPR_MAP;
		e->str = st_lex_text(&p->lx, &p->cur);
		err = e->str ? advance(p) : oom(p);
		if (!err && p->cur.kind == T_LBRACK)
			err = perr(p, p->cur.pos,
				   "map elements cannot be read in expressions; print(%s) prints "
				   "the map",
				   e->str);
		break;
	default:
		e->str = st_lex_text(&p->lx, &p->cur);
		err = e->str ? parse_ident(p, e) : oom(p);
		break;
	}
	if (err) {
		st_expr_free(e);
		return err;
	}
	*out = e;
	return 0;
}

static int parse_unary_at(struct parser *p, struct st_expr **out)
{
	struct st_expr *e, *operand;
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
	default:
		return parse_primary(p, out);
	}
	e = new_expr(ST_EXPR_UNARY, p->cur.pos);
	if (!e)
		return oom(p);
	e->op = op;
	err = advance(p);
	if (!err)
		err = parse_unary(p, &operand);
	if (!err)
		err = push_kid(p, e, operand);
	if (!err)
		err = grow(p, p->height, e->pos);
	if (err) {
		st_expr_free(e);
		return err;
	}
	*out = e;
	return 0;
}

/* Every nesting (a parenthesis, a unary operator) passes here: counted. */
static int parse_unary(struct parser *p, struct st_expr **out)
{
	int err;

	if (p->depth >= ST_MAX_EXPR_DEPTH)
		return too_deep(p, p->cur.pos);
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

/* Precedence climbing: operators binding at least as tight as min_prec. */
static int parse_expr(struct parser *p, int min_prec, struct st_expr **out)
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
		if (op == ST_OP_DIV && p->in_filter && peek_kind(p) == T_LBRACE)
			break;
		bin = new_expr(ST_EXPR_BINARY, p->cur.pos);
		if (!bin) {
			err = oom(p);
			goto cleanup;
		}
		bin->op = op;
		err = push_kid(p, bin, lhs);
		lhs = bin;
		if (err)
			goto cleanup;
		err = advance(p);
		if (!err)
			err = parse_expr(p, prec + 1, &rhs);
		if (!err)
			err = push_kid(p, bin, rhs);
		if (!err)
			err = grow(p, p->height > h ? p->height : h, bin->pos);
		if (err)
			goto cleanup;
	}
	*out = lhs;
	return 0;
cleanup:
	st_expr_free(lhs);
	return err;
}

static int parse_map_keys(struct parser *p, struct st_stmt *s)
{
	struct st_expr **slot, *key;
	int err;

	err = advance(p);
	if (err)
		return err;
	if (p->cur.kind == T_RBRACK)
		return perr(
			p, p->cur.pos,
			"expected a key in %s[]: write %s without brackets for a map with no key",
			s->map, s->map);
	for (;;) {
		err = parse_expr(p, 0, &key);
		if (err)
			return err;
		slot = push(&s->keys, &s->nr_keys, sizeof(*slot));
		if (!slot) {
			st_expr_free(key);
			return oom(p);
		}
		*slot = key;
		if (p->cur.kind == T_RBRACK)
			return advance(p);
		if (p->cur.kind != T_COMMA)
			return perr(p, p->cur.pos, "expected ',' or ']' after key %u of %s",
				    s->nr_keys, s->map);
		err = advance(p);
		if (err)
			return err;
	}
}

static int parse_stmt(struct parser *p, struct st_stmt *s)
{
	int err;

	s->pos = p->cur.pos;
	s->map_id = -1;
	if (p->cur.kind == T_IDENT) {
		s->kind = ST_STMT_CALL;
		err = parse_primary(p, &s->call);
		if (err)
			return err;
		if (s->call->kind != ST_EXPR_CALL)
			return perr(p, s->pos, "expected a statement: %s", stmt_forms);
		return 0;
	}
	if (p->cur.kind != T_MAP)
		return perr(p, s->pos, "expected a statement: %s", stmt_forms);

	s->kind = ST_STMT_AGG;
	s->map_pos = p->cur.pos;
	s->map = st_lex_text(&p->lx, &p->cur);
	if (!s->map)
		return oom(p);
	err = advance(p);
	if (!err && p->cur.kind == T_LBRACK)
		err = parse_map_keys(p, s);
	if (err)
		return err;
	if (p->cur.kind != T_ASSIGN)
		return perr(p, p->cur.pos,
			    "expected '=' after %s: a map is assigned an aggregation, e.g. %s = "
			    "count()",
			    s->map, s->map);
	err = advance(p);
	if (!err)
		err = parse_expr(p, 0, &s->call);
	if (err)
		return err;
	if (s->call->kind != ST_EXPR_CALL)
		return perr(p, s->call->pos, "expected an aggregation after '=': %s", agg_forms);
	return 0;
}

/* "{" statements "}"; leaves the lexer right after the "}". */
static int parse_block(struct parser *p, struct st_clause *c)
{
	struct st_pos open = p->cur.pos;
	struct st_stmt *s;
	int err;

	err = advance(p);
	while (!err && p->cur.kind != T_RBRACE) {
		if (p->cur.kind == T_SEMI) {
			err = advance(p);
			continue;
		}
		if (p->cur.kind == T_EOF)
			return perr(p, p->cur.pos,
				    "expected '}' to close the block opened at line %u, column %u",
				    open.line, open.col);
		s = push(&c->stmts, &c->nr_stmts, sizeof(*s));
		if (!s)
			return oom(p);
		err = parse_stmt(p, s);
		if (err)
			return err;
		if (p->cur.kind == T_SEMI)
			err = advance(p);
		else if (p->cur.kind != T_RBRACE)
			return perr(p, p->cur.pos, "expected ';' or '}' after statement");
	}
	return err;
}

static int parse_clause(struct parser *p, struct st_clause *c)
{
	struct st_attach_point *probe;
	int err;

	do {
		probe = push(&c->points, &c->nr_points, sizeof(*probe));
		if (!probe)
			return oom(p);
		err = st_lex_attach_point(&p->lx, probe);
		if (err)
			return err == -ENOMEM ? oom(p) : -EINVAL;
		if (c->nr_points == 1)
			c->pos = probe->pos;
		err = advance(p);
		if (err)
			return err;
	} while (p->cur.kind == T_COMMA);

	if (p->cur.kind == T_SLASH) {
		p->in_filter = true;
		err = advance(p);
		if (!err)
			err = parse_expr(p, 0, &c->filter);
		p->in_filter = false;
		if (err)
			return err;
		if (p->cur.kind != T_SLASH)
			return perr(p, p->cur.pos,
				    "expected '/' to close the filter: /filter/ { ... }");
		err = advance(p);
		if (err)
			return err;
		if (p->cur.kind != T_LBRACE)
			return perr(p, p->cur.pos, "expected '{' after the filter");
	} else if (p->cur.kind != T_LBRACE) {
		return perr(p, p->cur.pos,
			    "expected '{', ',' and another probe, or /filter/ after the probe");
	}
	return parse_block(p, c);
}

int st_parse(const char *src, const char *filename, struct st_program **out, struct st_diag *diag)
{
	struct parser p = {.diag = diag};
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
		return oom(&p);
	prog->filename = strdup(filename ? filename : "program");
	if (!prog->filename) {
		err = oom(&p);
		goto cleanup;
	}
	st_lex_init(&p.lx, src, prog->filename, diag);
	for (;;) {
		err = st_lex_skip_space(&p.lx) ? -EINVAL : 0;
		if (err || st_lex_at_end(&p.lx))
			break;
		c = push(&prog->clauses, &prog->nr_clauses, sizeof(*c));
		if (!c) {
			err = oom(&p);
			break;
		}
		err = parse_clause(&p, c);
		if (err)
			break;
	}
	if (!err && !prog->nr_clauses)
		err = perr(&p, p.lx.pos,
			   "empty program: expected a probe: side:TARGET:PROVIDER:EVENT, BEGIN, "
			   "END, interval:s:N or interval:ms:N");
	if (err)
		goto cleanup;
	*out = prog;
	return 0;
cleanup:
	st_program_free(prog);
	return err;
}
