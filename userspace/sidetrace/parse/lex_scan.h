/* SPDX-License-Identifier: MIT */
/* The lexer's reading of characters, shared by lexer.c and probe_lexer.c only. */
#ifndef SIDETRACE_PARSE_LEX_SCAN_H
#define SIDETRACE_PARSE_LEX_SCAN_H

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "parse/lexer.h"

static inline char peek(const struct st_lexer *lx, size_t ahead)
{
	size_t i;

	/* Never look past the terminating NUL. */
	for (i = 0; i < ahead; i++)
		if (!lx->src[lx->off + i])
			return '\0';
	return lx->src[lx->off + ahead];
}

static inline void bump(struct st_lexer *lx)
{
	if (lx->src[lx->off] == '\n') {
		lx->pos.line++;
		lx->pos.col = 1;
	} else {
		lx->pos.col++;
	}
	lx->off++;
}

static inline int __attribute__((format(printf, 3, 4)))
fail(struct st_lexer *lx, struct st_pos pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	st_diag_vset(lx->diag, lx->filename, pos, fmt, ap);
	va_end(ap);
	return -1;
}

static inline bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static inline bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* A string literal at lx, its escapes checked, into tok (T_STR). 0, or -1 with a diagnostic. */
int st_lex_scan_string(struct st_lexer *lx, struct st_token *tok);

#endif /* SIDETRACE_PARSE_LEX_SCAN_H */
