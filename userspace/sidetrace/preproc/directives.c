// SPDX-License-Identifier: MIT
/*
 * The directives: the conditionals, which are read even where lines are
 * dropped, and #define, #undef, #include and #error where they are kept.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "preproc/pp.h"

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* The identifier at *s, its length (0: none), *s moved past it. */
static size_t ident(const char **s)
{
	const char *start = *s;

	if (!pp_ident_start(*start))
		return 0;
	while (pp_ident_char(**s))
		(*s)++;
	return *s - start;
}

static int is(const char *word, size_t len, const char *name)
{
	return strlen(name) == len && !strncmp(word, name, len);
}

/* #define NAME(a, b)'s parameters, from past its '('; *s then is past ')'. */
static int define_params(struct pp *pp, const char **s, char **params, uint32_t *nr)
{
	const char *p;
	size_t n;
	uint32_t i;

	*s = skip_space(*s);
	if (**s == ')') {
		(*s)++;
		return 0;
	}
	for (;;) {
		*s = skip_space(*s);
		p = *s;
		n = ident(s);
		if (!n)
			return pp_error(pp, !strncmp(p, "...", 3)
						    ? "#define: variadic macros are not supported"
						    : "#define: expected a parameter's name");
		if (*nr == PP_MAX_PARAMS)
			return pp_error(pp, "#define: more than %d parameters", PP_MAX_PARAMS);
		for (i = 0; i < *nr; i++)
			if (is(p, n, params[i]))
				return pp_error(pp, "#define: parameter %.*s twice", (int)n, p);
		params[*nr] = strndup(p, n);
		if (!params[*nr])
			return pp_nomem(pp);
		(*nr)++;
		*s = skip_space(*s);
		if (**s == ')') {
			(*s)++;
			return 0;
		}
		if (**s != ',')
			return pp_error(pp, "#define: expected ',' or ')' after a parameter");
		(*s)++;
	}
}

static int define(struct pp *pp, const char *s)
{
	char *params[PP_MAX_PARAMS], *name = NULL, *body = NULL;
	const char *p = s;
	uint32_t nr = 0, i;
	size_t n = ident(&s), len;
	int fn = *s == '(', err = 0;

	if (!n)
		return pp_error(pp, "#define needs a macro's name");
	if (is(p, n, "defined"))
		return pp_error(pp, "#define: 'defined' cannot be a macro");
	if (fn) {
		s++;
		err = define_params(pp, &s, params, &nr);
	}
	if (!err) {
		s = skip_space(s);
		len = strlen(s);
		while (len && isspace((unsigned char)s[len - 1]))
			len--;
		name = strndup(p, n);
		body = strndup(s, len);
		err = name && body ? pp_macro_define(pp, name, body, params, nr, fn) : pp_nomem(pp);
	}
	for (i = 0; i < nr; i++)
		free(params[i]);
	free(name);
	free(body);
	return err;
}

static int cond_push(struct pp *pp, struct pp_conds *cs, int value)
{
	int parent = pp_conds_on(cs);

	if (cs->nr == PP_MAX_DEPTH)
		return pp_error(pp, "#if nested deeper than %d", PP_MAX_DEPTH);
	/* Under a dropped branch, no branch is kept: as if one was. */
	cs->c[cs->nr++] = (struct pp_cond){
		.on = parent && value, .taken = !parent || value, .line = pp->file->line};
	return 0;
}

/* #if, #ifdef, #ifndef: the value, evaluated only where lines are kept. */
static int cond_if(struct pp *pp, struct pp_conds *cs, const char *word, size_t wlen, const char *s)
{
	int64_t v = 0;
	const char *p = s;
	size_t n;
	int err = 0;

	if (!pp_conds_on(cs))
		return cond_push(pp, cs, 0);
	if (is(word, wlen, "if")) {
		err = pp_eval(pp, s, &v);
	} else {
		n = ident(&s);
		if (!n)
			return pp_error(pp, "#%.*s needs a macro's name", (int)wlen, word);
		v = (pp_macro_find(pp, p, n) != NULL) != is(word, wlen, "ifndef");
	}
	return err ? err : cond_push(pp, cs, !!v);
}

/* #elif and #else: the next branch, kept when none was. */
static int cond_next(struct pp *pp, struct pp_conds *cs, int is_else, const char *s)
{
	struct pp_cond *c = cs->nr ? &cs->c[cs->nr - 1] : NULL;
	int64_t v = 1;
	int err;

	if (!c)
		return pp_error(pp, "#%s without #if", is_else ? "else" : "elif");
	if (c->seen_else)
		return pp_error(pp, "#%s after #else", is_else ? "else" : "elif");
	c->seen_else = is_else;
	if (c->taken) {
		c->on = 0;
		return 0;
	}
	if (!is_else) {
		err = pp_eval(pp, s, &v);
		if (err)
			return err;
	}
	c->on = c->taken = !!v;
	return 0;
}

static int conditional(struct pp *pp, struct pp_conds *cs, const char *word, size_t wlen,
		       const char *s)
{
	if (is(word, wlen, "if") || is(word, wlen, "ifdef") || is(word, wlen, "ifndef"))
		return cond_if(pp, cs, word, wlen, s);
	if (is(word, wlen, "elif") || is(word, wlen, "else"))
		return cond_next(pp, cs, is(word, wlen, "else"), s);
	if (!cs->nr)
		return pp_error(pp, "#endif without #if");
	cs->nr--;
	return 0;
}

int pp_directive(struct pp *pp, const char *text, struct pp_conds *cs)
{
	const char *s = skip_space(text), *word = s;
	size_t wlen = ident(&s);

	s = skip_space(s);
	if (is(word, wlen, "if") || is(word, wlen, "ifdef") || is(word, wlen, "ifndef") ||
	    is(word, wlen, "elif") || is(word, wlen, "else") || is(word, wlen, "endif"))
		return conditional(pp, cs, word, wlen, s);
	/* Where lines are dropped, so are the other directives. */
	if (!pp_conds_on(cs))
		return 0;
	if (is(word, wlen, "define"))
		return define(pp, s);
	if (is(word, wlen, "undef")) {
		text = s;
		wlen = ident(&s);
		if (!wlen)
			return pp_error(pp, "#undef needs a macro's name");
		pp_macro_undef(pp, text, wlen);
		return 0;
	}
	if (is(word, wlen, "include"))
		return pp_include(pp, s);
	if (is(word, wlen, "error"))
		return pp_error(pp, "#error %s", s);
	/* #pragma: what C does with one it does not know. */
	if (!*word || is(word, wlen, "pragma"))
		return 0;
	return pp_error(pp, "unknown directive #%.*s", wlen ? (int)wlen : 1, word);
}
