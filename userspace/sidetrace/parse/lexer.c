// SPDX-License-Identifier: MIT
/* Tokenizer of the sidetrace language; probes are lexed by probe_lexer.c. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strndup, strdup with any -std */
#endif
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/lex_scan.h"
#include "parse/lexer.h"

void st_lex_init(struct st_lexer *lx, const char *src, const char *filename, struct st_diag *diag)
{
	lx->src = src;
	lx->off = 0;
	lx->pos.line = 1;
	lx->pos.col = 1;
	lx->filename = filename;
	lx->diag = diag;
}

int st_lex_skip_space(struct st_lexer *lx)
{
	struct st_pos start;

	for (;;) {
		char c = peek(lx, 0);

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
			bump(lx);
		} else if (c == '/' && peek(lx, 1) == '/') {
			while (peek(lx, 0) && peek(lx, 0) != '\n')
				bump(lx);
		} else if (c == '/' && peek(lx, 1) == '*') {
			start = lx->pos;
			bump(lx);
			bump(lx);
			while (peek(lx, 0) && !(peek(lx, 0) == '*' && peek(lx, 1) == '/'))
				bump(lx);
			if (!peek(lx, 0))
				return fail(lx, start,
					    "unterminated comment: '/*' needs a closing '*/'");
			bump(lx);
			bump(lx);
		} else {
			return 0;
		}
	}
}

bool st_lex_at_end(const struct st_lexer *lx)
{
	return !lx->src[lx->off];
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

static int too_large(struct st_lexer *lx, struct st_token *tok, unsigned int base)
{
	return fail(lx, tok->pos, "integer literal too large: the largest is %s",
		    base == 16 ? "0xffffffffffffffff" : "18446744073709551615");
}

/* Past digits of base, with runs of '_' between them (1_000_000). */
static void skip_digits(struct st_lexer *lx, unsigned int base)
{
	size_t n;

	for (;;) {
		for (n = 0; peek(lx, n) == '_'; n++)
			;
		if (digit_value(peek(lx, n)) >= (int)base)
			return;
		while (n-- > 0)
			bump(lx);
		bump(lx);
	}
}

/* The value of the literal's digits at src[from, to) in base, '_' skipped. */
static int digits_value(struct st_lexer *lx, struct st_token *tok, size_t from, size_t to,
			unsigned int base, uint64_t *v)
{
	int d;

	for (*v = 0; from < to; from++) {
		if (lx->src[from] == '_')
			continue;
		d = digit_value(lx->src[from]);
		if (d >= (int)base)
			return fail(lx, tok->pos,
				    "a leading 0 makes an octal literal, whose digits are 0 to 7 "
				    "(bpftrace reads 010 as 8): drop the 0 for a decimal one");
		if (*v > (UINT64_MAX - d) / base)
			return too_large(lx, tok, base);
		*v = *v * base + d;
	}
	return 0;
}

/*
 * Integer literals as bpftrace 0.17 lexes them: decimal, octal after a
 * leading 0 (0755), 0x hexadecimal, '_' between digits (1_000_000), a
 * decimal exponent (1e6), and C's suffixes u, l, ul, ll and ull, which
 * change nothing: every integer is of 64 bits.
 */
static int lex_number(struct st_lexer *lx, struct st_token *tok)
{
	unsigned int base = 10, exp = 0;
	size_t from, to;
	uint64_t v;
	int err, i;

	if (peek(lx, 0) == '0' && (peek(lx, 1) == 'x' || peek(lx, 1) == 'X')) {
		base = 16;
		bump(lx);
		bump(lx);
		if (digit_value(peek(lx, 0)) >= 16)
			return fail(lx, tok->pos, "expected hexadecimal digits after '0x'");
	}
	from = lx->off;
	skip_digits(lx, base);
	to = lx->off;
	if (base == 10 && (peek(lx, 0) == 'e' || peek(lx, 0) == 'E') && isdigit(peek(lx, 1))) {
		bump(lx);
		for (; isdigit(peek(lx, 0)) || peek(lx, 0) == '_'; bump(lx))
			if (peek(lx, 0) != '_' && exp < 100)
				exp = exp * 10 + (peek(lx, 0) - '0');
	} else if (base == 10 && lx->src[from] == '0' && to - from > 1) {
		base = 8;
	}
	err = digits_value(lx, tok, from, to, base, &v);
	if (err)
		return err;
	for (; exp && v; exp--) {
		if (v > UINT64_MAX / 10)
			return too_large(lx, tok, base);
		v *= 10;
	}
	if (peek(lx, 0) == 'u' || peek(lx, 0) == 'U')
		bump(lx);
	for (i = 0; i < 2 && (peek(lx, 0) == 'l' || peek(lx, 0) == 'L'); i++)
		bump(lx);
	if (is_ident_char(peek(lx, 0)))
		return fail(lx, tok->pos,
			    "invalid integer literal: expected %s digits only ('_' between digits, "
			    "1e6 for powers of ten, a suffix u, l, ul, ll or ull)",
			    base == 16	? "hexadecimal"
			    : base == 8 ? "octal"
					: "decimal");
	tok->kind = T_INT;
	tok->ival = v;
	return 0;
}

/*
 * The escape after a backslash at s, as bpftrace's lexer takes them: \n
 * \t \r \\ \", \xH or \xHH, and 1 to 3 octal digits (\0 a NUL, as
 * bpftrace's "Hello\0": it ends the string, whose bytes after it are NULs
 * too, buf("Hello\0", 6)). Its byte into *value; how many characters
 * follow the backslash, 0 for none known.
 */
static int escape_at(const char *s, int *value)
{
	int n = 0, d;

	switch (*s) {
	case 'n':
		*value = '\n';
		return 1;
	case 't':
		*value = '\t';
		return 1;
	case 'r':
		*value = '\r';
		return 1;
	case '\\':
	case '"':
		*value = *s;
		return 1;
	case 'x':
		for (*value = 0; n < 2 && (d = digit_value(s[n + 1])) < 16; n++)
			*value = *value * 16 + d;
		return n ? n + 1 : 0;
	default:
		for (*value = 0; n < 3 && s[n] >= '0' && s[n] <= '7'; n++)
			*value = *value * 8 + (s[n] - '0');
		*value &= 0xff;
		return n;
	}
}

int st_lex_scan_string(struct st_lexer *lx, struct st_token *tok)
{
	struct st_pos esc;
	char bad[2] = {0};
	int n, value;

	bump(lx);
	for (;;) {
		char c = peek(lx, 0);

		if (!c || c == '\n')
			return fail(
				lx, tok->pos,
				"unterminated string: expected a closing '\"' on the same line");
		if (c == '"')
			break;
		if (c == '\\') {
			esc = lx->pos;
			bump(lx);
			n = escape_at(lx->src + lx->off, &value);
			if (!n) {
				bad[0] = peek(lx, 0);
				return fail(
					lx, esc,
					"unknown escape sequence '\\%s' in string: valid are "
					"\\n \\t \\r \\\\ \\\", \\xHH and octal \\NNN (\\0 a NUL)",
					bad);
			}
			while (--n)
				bump(lx);
		}
		bump(lx);
	}
	bump(lx);
	tok->kind = T_STR;
	return 0;
}

struct punct {
	const char *text;
	enum st_tok kind;
	enum st_op op; /* T_OPASSIGN */
};

/* Longest first, so that "<<=" wins over "<<" and "<<" over "<". */
static const struct punct puncts[] = {
	{"<<=", T_OPASSIGN, ST_OP_SHL}, {">>=", T_OPASSIGN, ST_OP_SHR},
	{"+=", T_OPASSIGN, ST_OP_ADD},	{"-=", T_OPASSIGN, ST_OP_SUB},
	{"*=", T_OPASSIGN, ST_OP_MUL},	{"/=", T_OPASSIGN, ST_OP_DIV},
	{"%=", T_OPASSIGN, ST_OP_MOD},	{"&=", T_OPASSIGN, ST_OP_BAND},
	{"|=", T_OPASSIGN, ST_OP_BOR},	{"^=", T_OPASSIGN, ST_OP_BXOR},
	{"++", T_INC, ST_OP_NONE},	{"--", T_DEC, ST_OP_NONE},
	{"->", T_ARROW, ST_OP_NONE},	{"<<", T_SHL, ST_OP_NONE},
	{">>", T_SHR, ST_OP_NONE},	{"<=", T_LE, ST_OP_NONE},
	{">=", T_GE, ST_OP_NONE},	{"==", T_EQ, ST_OP_NONE},
	{"!=", T_NE, ST_OP_NONE},	{"&&", T_LAND, ST_OP_NONE},
	{"||", T_LOR, ST_OP_NONE},	{"{", T_LBRACE, ST_OP_NONE},
	{"}", T_RBRACE, ST_OP_NONE},	{"(", T_LPAREN, ST_OP_NONE},
	{")", T_RPAREN, ST_OP_NONE},	{"[", T_LBRACK, ST_OP_NONE},
	{"]", T_RBRACK, ST_OP_NONE},	{",", T_COMMA, ST_OP_NONE},
	{";", T_SEMI, ST_OP_NONE},	{".", T_DOT, ST_OP_NONE},
	{"=", T_ASSIGN, ST_OP_NONE},	{"+", T_PLUS, ST_OP_NONE},
	{"-", T_MINUS, ST_OP_NONE},	{"*", T_STAR, ST_OP_NONE},
	{"/", T_SLASH, ST_OP_NONE},	{"%", T_PERCENT, ST_OP_NONE},
	{"&", T_AMP, ST_OP_NONE},	{"|", T_PIPE, ST_OP_NONE},
	{"^", T_CARET, ST_OP_NONE},	{"~", T_TILDE, ST_OP_NONE},
	{"!", T_BANG, ST_OP_NONE},	{"<", T_LT, ST_OP_NONE},
	{">", T_GT, ST_OP_NONE},	{"?", T_QUESTION, ST_OP_NONE},
	{":", T_COLON, ST_OP_NONE},
};

static int lex_punct(struct st_lexer *lx, struct st_token *tok)
{
	char shown[8];
	size_t i, n;
	char c;

	for (i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++) {
		n = strlen(puncts[i].text);
		if (strncmp(lx->src + lx->off, puncts[i].text, n))
			continue;
		while (n--)
			bump(lx);
		tok->kind = puncts[i].kind;
		tok->ival = puncts[i].op;
		return 0;
	}
	c = peek(lx, 0);
	if (isprint((unsigned char)c))
		snprintf(shown, sizeof(shown), "%c", c);
	else
		snprintf(shown, sizeof(shown), "\\x%02x", (unsigned char)c);
	return fail(lx, tok->pos, "unexpected character '%s'", shown);
}

/* $N (N from 1) or $#: a positional parameter, bpftrace's. */
static int lex_posarg(struct st_lexer *lx, struct st_token *tok)
{
	uint64_t n = 0;

	bump(lx);
	tok->kind = T_POSARG;
	if (peek(lx, 0) == '#') {
		bump(lx);
		tok->ival = ST_POSARG_COUNT;
		return 0;
	}
	while (isdigit((unsigned char)peek(lx, 0))) {
		n = n < 100000 ? n * 10 + (peek(lx, 0) - '0') : n;
		bump(lx);
	}
	if (!n || is_ident_char(peek(lx, 0)))
		return fail(lx, tok->pos, "a positional parameter is $1, $2, ... or $#");
	tok->ival = n;
	return 0;
}

int st_lex_next(struct st_lexer *lx, struct st_token *tok)
{
	int err;
	char c;

	err = st_lex_skip_space(lx);
	if (err)
		return err;
	memset(tok, 0, sizeof(*tok));
	tok->pos = lx->pos;
	tok->off = lx->off;
	c = peek(lx, 0);
	if (!c) {
		tok->kind = T_EOF;
	} else if (is_ident_start(c)) {
		while (is_ident_char(peek(lx, 0)))
			bump(lx);
		tok->kind = T_IDENT;
	} else if (c == '$' && (isdigit((unsigned char)peek(lx, 1)) || peek(lx, 1) == '#')) {
		err = lex_posarg(lx, tok);
	} else if (c == '@' || (c == '$' && is_ident_start(peek(lx, 1)))) {
		bump(lx);
		while (is_ident_char(peek(lx, 0)))
			bump(lx);
		tok->kind = c == '@' ? T_MAP : T_VAR;
	} else if (isdigit((unsigned char)c)) {
		err = lex_number(lx, tok);
	} else if (c == '"') {
		err = st_lex_scan_string(lx, tok);
	} else {
		err = lex_punct(lx, tok);
	}
	tok->len = lx->off - tok->off;
	return err;
}

char *st_lex_text(const struct st_lexer *lx, const struct st_token *tok)
{
	return strndup(lx->src + tok->off, tok->len);
}

char *st_lex_string(const struct st_lexer *lx, const struct st_token *tok)
{
	const char *s = lx->src + tok->off + 1;
	const char *end = lx->src + tok->off + tok->len - 1;
	char *out, *o;
	int value;

	out = malloc(tok->len);
	if (!out)
		return NULL;
	for (o = out; s < end; s++) {
		/* The lexer accepted only known escapes. */
		if (*s == '\\') {
			s += escape_at(s + 1, &value);
			*o++ = (char)value;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return out;
}

const char *st_tok_name(enum st_tok kind)
{
	static const char *const names[] = {
		[T_EOF] = "end of program",
		[T_IDENT] = "identifier",
		[T_INT] = "integer",
		[T_STR] = "string",
		[T_MAP] = "map",
		[T_LBRACE] = "'{'",
		[T_RBRACE] = "'}'",
		[T_LPAREN] = "'('",
		[T_RPAREN] = "')'",
		[T_LBRACK] = "'['",
		[T_RBRACK] = "']'",
		[T_COMMA] = "','",
		[T_SEMI] = "';'",
		[T_DOT] = "'.'",
		[T_ARROW] = "'->'",
		[T_ASSIGN] = "'='",
		[T_PLUS] = "'+'",
		[T_MINUS] = "'-'",
		[T_STAR] = "'*'",
		[T_SLASH] = "'/'",
		[T_PERCENT] = "'%'",
		[T_AMP] = "'&'",
		[T_PIPE] = "'|'",
		[T_CARET] = "'^'",
		[T_TILDE] = "'~'",
		[T_BANG] = "'!'",
		[T_SHL] = "'<<'",
		[T_SHR] = "'>>'",
		[T_LT] = "'<'",
		[T_LE] = "'<='",
		[T_GT] = "'>'",
		[T_GE] = "'>='",
		[T_EQ] = "'=='",
		[T_NE] = "'!='",
		[T_LAND] = "'&&'",
		[T_LOR] = "'||'",
		[T_VAR] = "variable",
		[T_QUESTION] = "'?'",
		[T_COLON] = "':'",
		[T_INC] = "'++'",
		[T_DEC] = "'--'",
		[T_OPASSIGN] = "compound assignment",
		[T_POSARG] = "positional parameter",
	};

	return names[kind];
}
