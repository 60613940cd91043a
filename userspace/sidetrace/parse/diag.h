/* SPDX-License-Identifier: MIT */
/*
 * One diagnostic (the first error found) of the parser or the checker, with
 * the position it points at, and its rendering in the style of compilers and
 * bpftrace: "file:line:col: error: message", the source line, a caret.
 */
#ifndef SIDETRACE_PARSE_DIAG_H
#define SIDETRACE_PARSE_DIAG_H

#include <stdarg.h>
#include <stdio.h>

#include "parse/ast.h"
#include "util/textbuf.h"

struct st_diag {
	char file[256]; /* "program" for -e, or the script's name */
	uint32_t line; /* 1-based; 0 when the error has no position */
	uint32_t col; /* 1-based byte column */
	char msg[512]; /* what is wrong and what would be valid */
	char hint[512]; /* extra line ("did you mean ...?"), or "" */
};

/* Records an error at pos unless one is already recorded: the first wins. */
void st_diag_set(struct st_diag *d, const char *file, struct st_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same with its arguments in ap. */
void st_diag_vset(struct st_diag *d, const char *file, struct st_pos pos, const char *fmt,
		  va_list ap) __attribute__((format(printf, 4, 0)));
/* Sets the hint line of the recorded error. */
void st_diag_hint(struct st_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* True once an error is recorded. */
static inline int st_diag_is_set(const struct st_diag *d)
{
	return d->msg[0] != '\0';
}

/*
 * The diagnostic's text into tb, its severity the word after the position
 * ("error"; bpftrace's "WARNING" for -k's helper failures); src is the
 * program text the positions refer to (NULL: no source line and caret).
 */
void st_diag_text(struct st_textbuf *tb, const struct st_diag *d, const char *src,
		  const char *severity);

/*
 * Prints the diagnostic as an error; src is the program text the positions refer to
 * (NULL: no source line and caret).
 */
void st_diag_print(FILE *f, const struct st_diag *d, const char *src);

#endif /* SIDETRACE_PARSE_DIAG_H */
