/* SPDX-License-Identifier: MIT */
/*
 * The parser's state and the helpers its parts share (internal to parse/):
 * parser.c reads clauses and runs the whole (st_parse), parse_exprs.c
 * expressions, parse_stmts.c statements and blocks.
 */
#ifndef SIDETRACE_PARSE_PARSE_H
#define SIDETRACE_PARSE_PARSE_H

#include "parse/lexer.h"
#include "parse/parser.h"

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
	/* if blocks open while parsing (else if included): at most ST_MAX_BLOCK_DEPTH */
	uint32_t block_depth;
	/* while blocks open: break and continue are statements of theirs */
	uint32_t loops;
	/* unroll blocks open: the copies each statement there makes, less one (0: none) */
	uint64_t unrolled;
	/* The program's C definitions (parse_cdefs.c), made at the first one */
	struct st_ctypes *ctypes;
	/* The positional parameters $1..$N (the command line's, after the program). */
	char *const *args;
	uint32_t nr_args;
};

/* Records an error at pos; returns -EINVAL. */
int pr_err(struct parser *p, struct st_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Records "out of memory"; returns -ENOMEM. */
int pr_oom(struct parser *p);
/* Refuses an expression nested past ST_MAX_EXPR_DEPTH. */
int pr_too_deep(struct parser *p, struct st_pos pos);
/* The height of a node over children of height h: refused past the limit. */
int pr_grow(struct parser *p, uint32_t h, struct st_pos pos);
/* The next token into p->cur. */
int pr_advance(struct parser *p);
/*
 * A count where the grammar wants a literal (unroll's, a stack's frames):
 * the current token, an integer, or a positional parameter that holds one
 * (bpftrace takes both), into *n. False: neither; *posarg then says it was
 * a parameter, whose text is no integer.
 */
bool pr_literal_count(const struct parser *p, uint64_t *n, bool *posarg);
/* Appends a zeroed element to a realloc'd array; NULL if out of memory. */
void *pr_push(void *arrp, uint32_t *nr, size_t size);
/* Appends kid to parent's kids (freed if out of memory). */
int pr_push_kid(struct parser *p, struct st_expr *parent, struct st_expr *kid);
/* Whether identifier s is sargN; e, that identifier, made its read (parse_sarg.c). */
bool pr_is_sarg(const char *s);
int pr_sarg(struct parser *p, struct st_expr *e);
/* The token after the current one, lexed on a copy of the lexer. */
enum st_tok pr_peek_kind(const struct parser *p);

/* Precedence climbing: operators binding at least as tight as min_prec (0: all, and ?:). */
int pr_expr(struct parser *p, int min_prec, struct st_expr **out);
/* A literal, args.FIELD, a builtin, a call, @map[keys], $var, a cast, "(" expr ")". */
int pr_primary(struct parser *p, struct st_expr **out);
/* Whether the current token starts a C type's name (a cast's, after '('). */
bool pr_at_type(const struct parser *p);
/* A cast's type and its ')' into t, the lexer on the type's first word (parse_ctypes.c). */
int pr_cast_type(struct parser *p, struct st_cast_type *t);
/* e, then its postfix reads (->NAME, .NAME, [expr]) in turn: *out; e is freed on error. */
int pr_postfix(struct parser *p, struct st_expr *e, struct st_expr **out);
/* Whether a C definition (struct, union, enum) starts where the lexer is, between probes. */
bool pr_at_c_definition(const struct parser *p);
/*
 * A C definition into p->ctypes, the lexer where it starts; leaves it
 * after the closing '}' (parse_cdefs.c).
 */
int pr_c_definition(struct parser *p);
/* "[" key ("," key)* "]" of map, the lexer on "[". */
int pr_map_keys(struct parser *p, const char *map, struct st_expr ***keys, uint32_t *nr_keys);
/* "{" statements "}"; leaves the lexer on the "}" (a probe may follow it). */
int pr_block(struct parser *p, struct st_stmt **stmts, uint32_t *nr);

#endif /* SIDETRACE_PARSE_PARSE_H */
