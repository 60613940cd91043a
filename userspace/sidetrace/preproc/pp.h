/* SPDX-License-Identifier: MIT */
/*
 * The preprocessor's state, shared by its parts: the lines and directives
 * (preproc.c), the macros and their expansion (macros.c), #if's
 * expressions (expr.c), the included files (include.c).
 */
#ifndef SIDETRACE_PREPROC_PP_H
#define SIDETRACE_PREPROC_PP_H

#include <stddef.h>
#include <stdint.h>

#include "preproc/preproc.h"
#include "util/textbuf.h"

/* Bounds that keep any input's cost small. */
#define PP_MAX_OUTPUT (4u << 20) /* bytes of text made */
#define PP_MAX_EXPANSIONS 100000 /* macro expansions in all */
#define PP_MAX_DEPTH 64 /* macros expanding inside each other, #if nesting, an expression's */
#define PP_MAX_INCLUDE_DEPTH 16
#define PP_MAX_PARAMS 32
#define PP_MAX_FILE (1u << 20) /* bytes of an included file */

struct pp_macro {
	char *name;
	char *body;
	char *params[PP_MAX_PARAMS];
	uint32_t nr_params;
	int function_like;
	int active; /* being expanded: not again inside its own expansion */
};

/* A file being read: the program, or an #include's. */
struct pp_file {
	const char *name; /* in messages */
	const char *path; /* where it was read, or NULL (-e, stdin) */
	char *real; /* its resolved path for the cycle check, or NULL */
	uint32_t line; /* the line being read */
	struct pp_file *up; /* the file that included it */
	int included;
};

struct pp {
	const struct st_pp_opts *opts;
	struct st_pp_error *err;
	struct pp_macro *macros;
	size_t nr_macros, cap_macros;
	struct pp_file *file;
	uint32_t depth; /* of #include */
	uint32_t col; /* of what is being expanded, for errors */
	uint32_t expand_depth; /* macros expanding inside each other */
	uint32_t expansions;
	int nomem;
};

/* Records the first error, at the current file's line and pp->col: -EINVAL. */
int pp_error(struct pp *pp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Out of memory: -ENOMEM. */
int pp_nomem(struct pp *pp);

static inline int pp_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline int pp_ident_char(char c)
{
	return pp_ident_start(c) || (c >= '0' && c <= '9');
}

/* One #if's state: whether its lines are kept now, and whether a branch was. */
struct pp_cond {
	int on, taken, seen_else;
	uint32_t line;
};

/* The #ifs open in one file. */
struct pp_conds {
	struct pp_cond c[PP_MAX_DEPTH];
	uint32_t nr;
};

/* Whether the lines here are kept. */
static inline int pp_conds_on(const struct pp_conds *cs)
{
	return !cs->nr || cs->c[cs->nr - 1].on;
}

/* Acts on a directive, text what follows its '#', comments removed (directives.c). */
int pp_directive(struct pp *pp, const char *text, struct pp_conds *cs);

/* Macros (macros.c). */
struct pp_macro *pp_macro_find(struct pp *pp, const char *name, size_t len);
/* Defines name as body (params when function-like), replacing a definition. */
int pp_macro_define(struct pp *pp, const char *name, const char *body, char **params,
		    uint32_t nr_params, int function_like);
void pp_macro_undef(struct pp *pp, const char *name, size_t len);
void pp_macros_free(struct pp *pp);

/*
 * Appends s[0..len) to out with its macros expanded, outside strings and
 * comments; *in_comment says whether s starts inside a comment, and then
 * whether it ends inside one.
 */
int pp_expand(struct pp *pp, const char *s, size_t len, struct st_textbuf *out, int *in_comment);

/* The value of #if's expression s (expr.c). */
int pp_eval(struct pp *pp, const char *s, int64_t *value);

/* Directives that name files (include.c): #include's operand, --include FILE. */
int pp_include(struct pp *pp, const char *operand);
int pp_include_file(struct pp *pp, const char *path);

/* Reads a file's text and its directives into pp, its lines dropped (preproc.c). */
int pp_run(struct pp *pp, const char *src, struct st_textbuf *out);

#endif /* SIDETRACE_PREPROC_PP_H */
