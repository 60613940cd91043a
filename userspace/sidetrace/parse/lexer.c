// SPDX-License-Identifier: MIT
/* Tokenizer of the sidetrace language. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strndup, strdup with any -std */
#endif
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/lexer.h"
#include "kinds/probe_kinds.h"

void st_lex_init(struct st_lexer *lx, const char *src, const char *filename, struct st_diag *diag)
{
	lx->src = src;
	lx->off = 0;
	lx->pos.line = 1;
	lx->pos.col = 1;
	lx->filename = filename;
	lx->diag = diag;
}

static char peek(const struct st_lexer *lx, size_t ahead)
{
	size_t i;

	/* Never look past the terminating NUL. */
	for (i = 0; i < ahead; i++)
		if (!lx->src[lx->off + i])
			return '\0';
	return lx->src[lx->off + ahead];
}

static void bump(struct st_lexer *lx)
{
	if (lx->src[lx->off] == '\n') {
		lx->pos.line++;
		lx->pos.col = 1;
	} else {
		lx->pos.col++;
	}
	lx->off++;
}

static int __attribute__((format(printf, 3, 4)))
fail(struct st_lexer *lx, struct st_pos pos, const char *fmt, ...)
{
	char msg[sizeof(lx->diag->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	st_diag_set(lx->diag, lx->filename, pos, "%s", msg);
	return -1;
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

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
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

/*
 * Integer literals as bpftrace writes them: decimal or 0x hexadecimal,
 * '_' between digits (1_000_000), and a decimal exponent (1e6).
 */
static int lex_number(struct st_lexer *lx, struct st_token *tok)
{
	unsigned int base = 10, exp = 0;
	uint64_t v = 0;
	int d;

	if (peek(lx, 0) == '0' && (peek(lx, 1) == 'x' || peek(lx, 1) == 'X')) {
		base = 16;
		bump(lx);
		bump(lx);
		if (digit_value(peek(lx, 0)) >= 16)
			return fail(lx, tok->pos, "expected hexadecimal digits after '0x'");
	}
	for (;;) {
		if (peek(lx, 0) == '_' && digit_value(peek(lx, 1)) < (int)base)
			bump(lx);
		d = digit_value(peek(lx, 0));
		if (d >= (int)base)
			break;
		if (v > (UINT64_MAX - d) / base)
			return too_large(lx, tok, base);
		v = v * base + d;
		bump(lx);
	}
	if (base == 10 && (peek(lx, 0) == 'e' || peek(lx, 0) == 'E') && isdigit(peek(lx, 1))) {
		bump(lx);
		while (isdigit(peek(lx, 0)) && exp < 100) {
			exp = exp * 10 + (peek(lx, 0) - '0');
			bump(lx);
		}
		for (; exp && v; exp--) {
			if (v > UINT64_MAX / 10)
				return too_large(lx, tok, base);
			v *= 10;
		}
	}
	if (is_ident_char(peek(lx, 0)))
		return fail(lx, tok->pos,
			    "invalid integer literal: expected %s digits only ('_' between digits, "
			    "1e6 for powers of ten)",
			    base == 16 ? "hexadecimal" : "decimal");
	tok->kind = T_INT;
	tok->ival = v;
	return 0;
}

/* The escapes a string literal may hold, and what they stand for. */
static int escape_value(char c)
{
	switch (c) {
	case 'n':
		return '\n';
	case 't':
		return '\t';
	case 'r':
		return '\r';
	case '\\':
		return '\\';
	case '"':
		return '"';
	default:
		return -1;
	}
}

static int lex_string(struct st_lexer *lx, struct st_token *tok)
{
	struct st_pos esc;
	char bad[2] = {0};

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
			if (escape_value(peek(lx, 0)) < 0) {
				bad[0] = peek(lx, 0);
				return fail(lx, esc,
					    "unknown escape sequence '\\%s' in string: valid are "
					    "\\n \\t \\r \\\\ \\\"",
					    bad);
			}
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
		err = lex_string(lx, tok);
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

	out = malloc(tok->len);
	if (!out)
		return NULL;
	for (o = out; s < end; s++) {
		/* The lexer accepted only known escapes. */
		if (*s == '\\')
			*o++ = escape_value(*++s);
		else
			*o++ = *s;
	}
	*o = '\0';
	return out;
}

/*
 * What ends a probe's TARGET and, in a user-space (DWARF) or kernel
 * function, its FUNCTION, besides blanks: a word holding one is written
 * in double quotes.
 */
static const char target_stop[] = ":,{}()";
static const char ufunc_stop[] = ",{}";
static const char kfunc_stop[] = ",{}/";

static bool plain_word(const char *s, const char *stop)
{
	if (!*s || *s == '"')
		return false;
	for (; *s; s++)
		if (isspace((unsigned char)*s) || strchr(stop, *s))
			return false;
	return true;
}

bool st_lex_plain_target(const char *s)
{
	return plain_word(s, target_stop);
}

bool st_lex_plain_function(const char *s, bool kernel)
{
	return plain_word(s, kernel ? kfunc_stop : ufunc_stop);
}

/* Scans a word of a probe spec up to one of the stop characters. */
static char *probe_word(struct st_lexer *lx, const char *stop)
{
	size_t start = lx->off;

	while (peek(lx, 0) && !isspace((unsigned char)peek(lx, 0)) && !strchr(stop, peek(lx, 0)))
		bump(lx);
	return strndup(lx->src + start, lx->off - start);
}

static int expect_colon(struct st_lexer *lx, const char *what)
{
	if (peek(lx, 0) == ':') {
		bump(lx);
		return 0;
	}
	return fail(lx, lx->pos, "expected ':' before the %s", what);
}

/* A path in double quotes may hold any character but '"' and newline. */
static char *quoted_target(struct st_lexer *lx)
{
	struct st_token tok = {.pos = lx->pos, .off = lx->off};

	if (lex_string(lx, &tok))
		return NULL;
	tok.len = lx->off - tok.off;
	return st_lex_string(lx, &tok);
}

/*
 * One ':'-separated word of an event probe, a_what ("a provider") saying
 * what it is in messages; NULL with a diagnostic when it is empty.
 */
static char *event_word(struct st_lexer *lx, const struct st_probe_kind *k, const char *a_what,
			struct st_pos *pos)
{
	const char *what = strchr(a_what, ' ') + 1;
	/* '/' may start the filter after the event; paths hold it. */
	static const char name_stop[] = ":,{}/()";
	char *w;

	if (peek(lx, 0) != ':') {
		fail(lx, lx->pos, "expected ':' before the %s (%s)", what, k->syntax);
		return NULL;
	}
	bump(lx);
	*pos = lx->pos;
	w = probe_word(lx, name_stop);
	if (w && !w[0]) {
		free(w);
		fail(lx, *pos, "expected %s name or '*' (%s)", a_what, k->syntax);
		return NULL;
	}
	return w;
}

/*
 * After uprobe:TARGET: the function, up to what ends a probe. A C++ name
 * may hold "::" and a signature ("Calc::add(int)"); one with blanks is
 * quoted ("Calc::add(long, long)"). A Go name holds its package's import
 * path ("net/http.(*conn).serve"): in a program's function a '/' is part
 * of the name, and a filter after it is set apart by a blank, as
 * bpftrace's grammar has it; a kernel function ends at a '/'. "+OFFSET"
 * stays in it.
 */
static int lex_function(struct st_lexer *lx, const struct st_probe_kind *k,
			struct st_attach_point *p)
{
	const char *stop = k->has_target ? ufunc_stop : kfunc_stop;

	if (peek(lx, 0) != ':')
		return fail(lx, lx->pos, "expected ':' before the function (%s)", k->syntax);
	bump(lx);
	p->provider = strdup("");
	p->event_pos = p->provider_pos = lx->pos;
	p->event = peek(lx, 0) == '"' ? quoted_target(lx) : probe_word(lx, stop);
	if (!p->event && st_diag_is_set(lx->diag))
		return -1;
	if (!p->provider || !p->event)
		return -ENOMEM;
	if (!p->event[0])
		return fail(lx, p->event_pos, "expected a function name or a pattern (%s)",
			    k->syntax);
	return 0;
}

/* profile:hz:N: samples a second, 1 to ST_MAX_PROFILE_HZ. */
static int check_profile(struct st_lexer *lx, struct st_attach_point *p)
{
	char *end;
	unsigned long hz;

	if (strcmp(p->provider, "hz"))
		return fail(lx, p->provider_pos,
			    "profile:%s: sidetrace samples by rate only: profile:hz:N",
			    p->provider);
	errno = 0;
	hz = strtoul(p->event, &end, 10);
	if (errno || *end || !isdigit((unsigned char)*p->event) || !hz || hz > ST_MAX_PROFILE_HZ)
		return fail(lx, p->event_pos, "expected samples a second, 1 to %d: profile:hz:99",
			    ST_MAX_PROFILE_HZ);
	return 0;
}

/* kind:TARGET, the file of an event probe: into p->target. */
static int lex_target(struct st_lexer *lx, const struct st_probe_kind *k, struct st_attach_point *p)
{
	if (peek(lx, 0) != ':')
		return fail(lx, lx->pos, "expected ':' before the target (%s)", k->syntax);
	bump(lx);
	p->target_pos = lx->pos;
	p->target = peek(lx, 0) == '"' ? quoted_target(lx) : probe_word(lx, target_stop);
	if (!p->target)
		return st_diag_is_set(lx->diag) ? -1 : -ENOMEM;
	if (!p->target[0] && peek(lx, 0) != ':')
		return fail(lx, p->target_pos,
			    "expected a target after '%s:': a path (./app, /usr/lib/libfoo.so) "
			    "or a library name (libfoo)",
			    k->name);
	return 0;
}

/*
 * A probe on events, as its kind's row says: [TARGET:]PROVIDER:EVENT,
 * PROVIDER optional where the row says so (a usdt: probe without one
 * matches the name in every provider, as bpftrace's), or
 * [TARGET:]FUNCTION[+OFFSET], or a rate.
 */
static int lex_event_probe(struct st_lexer *lx, const struct st_probe_kind *k,
			   struct st_attach_point *p)
{
	char *last;
	int ret;

	p->kind = k->kind;
	if (k->has_target) {
		ret = lex_target(lx, k, p);
		if (ret)
			return ret;
	} else {
		p->target_pos = lx->pos;
		p->target = strdup("");
		if (!p->target)
			return -ENOMEM;
	}
	if (st_probe_kind_function(k))
		return lex_function(lx, k, p);
	p->provider = event_word(lx, k, k->provider_word, &p->provider_pos);
	if (!p->provider)
		return st_diag_is_set(lx->diag) ? -1 : -ENOMEM;
	if (k->provider_optional && peek(lx, 0) != ':') {
		/* usdt:TARGET:NAME */
		p->event = p->provider;
		p->event_pos = p->provider_pos;
		p->provider = strdup("*");
		return p->provider ? 0 : -ENOMEM;
	}
	last = event_word(lx, k, k->event_word, &p->event_pos);
	if (!last)
		return st_diag_is_set(lx->diag) ? -1 : -ENOMEM;
	p->event = last;
	if (peek(lx, 0) == ':')
		return fail(lx, lx->pos, "too many ':' in probe: expected %s", k->syntax);
	return k->form == ST_FORM_RATE ? check_profile(lx, p) : 0;
}

static int lex_interval_probe(struct st_lexer *lx, const struct st_probe_kind *k,
			      struct st_attach_point *p)
{
	uint64_t unit_ns, n = 0;
	struct st_pos pos;

	p->kind = k->kind;
	if (expect_colon(lx, "unit (interval:s:N or interval:ms:N)"))
		return -1;
	pos = lx->pos;
	if (peek(lx, 0) == 's' && peek(lx, 1) == ':') {
		unit_ns = 1000000000;
		bump(lx);
	} else if (peek(lx, 0) == 'm' && peek(lx, 1) == 's' && peek(lx, 2) == ':') {
		unit_ns = 1000000;
		bump(lx);
		bump(lx);
	} else {
		return fail(lx, pos,
			    "expected interval unit 's' or 'ms': interval:s:N or interval:ms:N");
	}
	bump(lx);
	pos = lx->pos;
	while (isdigit((unsigned char)peek(lx, 0)) && n < UINT64_MAX / unit_ns / 10) {
		n = n * 10 + (peek(lx, 0) - '0');
		bump(lx);
	}
	if (!n || is_ident_char(peek(lx, 0)))
		return fail(lx, pos,
			    "expected a positive number of %s: interval:s:N or interval:ms:N",
			    unit_ns == 1000000 ? "milliseconds" : "seconds");
	p->interval_ns = n * unit_ns;
	return 0;
}

int st_lex_attach_point(struct st_lexer *lx, struct st_attach_point *p)
{
	const char *expected = st_probe_kinds_syntax();
	const struct st_probe_kind *k;
	size_t start, len;
	int err;

	err = st_lex_skip_space(lx);
	if (err)
		return err;
	p->pos = lx->pos;
	start = lx->off;
	while (is_ident_char(peek(lx, 0)))
		bump(lx);
	len = lx->off - start;
	k = st_probe_kind_named(lx->src + start, len);
	if (k && k->runs == ST_RUNS_AT_EVENTS)
		return lex_event_probe(lx, k, p);
	if (k && k->form == ST_FORM_PERIOD)
		return lex_interval_probe(lx, k, p);
	if (k && peek(lx, 0) != ':') {
		p->kind = k->kind;
		return 0;
	}
	if (!len)
		return fail(lx, p->pos, "expected a probe: %s", expected);
	if (st_probe_kind_missing(lx->src + start, len))
		return fail(lx, p->pos, "sidetrace has no %.*s: probes yet: %s", (int)len,
			    lx->src + start, st_probe_kind_missing(lx->src + start, len));
	return fail(lx, p->pos, "unknown probe type '%.*s': expected %s", (int)len, lx->src + start,
		    expected);
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
