/* SPDX-License-Identifier: MIT */
/*
 * Tokenizer of the sidetrace language. Tokens point into the source (they
 * own nothing); string literals are validated here and decoded on demand.
 * Probe specifications (side:./app:http:request) do not follow the token
 * rules (paths hold '/', '.', '-'), so the parser asks for them explicitly
 * with st_lex_attach_point() where a probe is expected.
 */
#ifndef SIDETRACE_PARSE_LEXER_H
#define SIDETRACE_PARSE_LEXER_H

#include "parse/ast.h"
#include "parse/diag.h"

/* $#'s ival: the number of positional parameters. */
#define ST_POSARG_COUNT UINT64_MAX

enum st_tok {
	T_EOF,
	T_IDENT,
	T_INT,
	T_STR,
	T_MAP, /* @name or @ */
	T_LBRACE,
	T_RBRACE,
	T_LPAREN,
	T_RPAREN,
	T_LBRACK,
	T_RBRACK,
	T_COMMA,
	T_SEMI,
	T_DOT,
	T_ARROW,
	T_ASSIGN,
	T_PLUS,
	T_MINUS,
	T_STAR,
	T_SLASH,
	T_PERCENT,
	T_AMP,
	T_PIPE,
	T_CARET,
	T_TILDE,
	T_BANG,
	T_SHL,
	T_SHR,
	T_LT,
	T_LE,
	T_GT,
	T_GE,
	T_EQ,
	T_NE,
	T_LAND,
	T_LOR,
	T_VAR, /* $name */
	T_QUESTION,
	T_COLON,
	T_INC, /* ++ */
	T_DEC, /* -- */
	T_OPASSIGN, /* +=, -=, ...: ival is the operator (enum st_op) */
	T_POSARG, /* $1, $2, ...: ival is N; $#: ival is ST_POSARG_COUNT */
};

struct st_token {
	enum st_tok kind;
	struct st_pos pos;
	size_t off; /* byte offset of the first character */
	size_t len; /* bytes, quotes included for T_STR */
	uint64_t ival; /* T_INT; T_OPASSIGN: enum st_op */
};

struct st_lexer {
	const char *src;
	size_t off;
	struct st_pos pos; /* of src[off] */
	const char *filename;
	struct st_diag *diag;
	/* The positional parameters, which an attach point's $N expands to. */
	char *const *args;
	uint32_t nr_args;
	/* -p names a process: a glob over kinds means the user-space ones (kinds/probe_kinds.h) */
	bool user_kinds;
};

void st_lex_init(struct st_lexer *lx, const char *src, const char *filename, struct st_diag *diag);
/* Skips blanks and comments; 0, or -1 with the diagnostic set. */
int st_lex_skip_space(struct st_lexer *lx);
/* True when only blanks and comments remain (after st_lex_skip_space). */
bool st_lex_at_end(const struct st_lexer *lx);
/* Next token; 0, or -1 with the diagnostic set. */
int st_lex_next(struct st_lexer *lx, struct st_token *tok);
/*
 * Reads one probe specification into p (kind, names, positions, interval);
 * 0, or -1 with the diagnostic set, or -ENOMEM.
 */
int st_lex_attach_point(struct st_lexer *lx, struct st_attach_point *p);
/* Where st_lex_attach_points() puts an attach point: a zeroed one, NULL when out of memory. */
typedef struct st_attach_point *(*st_point_slot)(void *ctx);
/*
 * The same for a probe whose kind may be a glob (t*point:sched:sched_switch),
 * which is an attach point of each kind it matches: each put where slot
 * says. 0, or -1 with the diagnostic set, or -ENOMEM.
 */
int st_lex_attach_points(struct st_lexer *lx, st_point_slot slot, void *ctx);
/*
 * Whether s reads back as a probe's TARGET, or as the FUNCTION of a
 * user-space or kernel (kernel) function probe, without double quotes:
 * what -l prints is written so that it reads back.
 */
bool st_lex_plain_target(const char *s);
bool st_lex_plain_function(const char *s, bool kernel);
/* The decoded value of a T_STR token (malloc'd), NULL if out of memory. */
char *st_lex_string(const struct st_lexer *lx, const struct st_token *tok);
/* The text of a token (malloc'd), NULL if out of memory. */
char *st_lex_text(const struct st_lexer *lx, const struct st_token *tok);
/* How a token kind is written, for messages ("';'", "identifier"). */
const char *st_tok_name(enum st_tok kind);

#endif /* SIDETRACE_PARSE_LEXER_H */
