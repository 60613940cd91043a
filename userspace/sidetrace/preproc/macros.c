// SPDX-License-Identifier: MIT
/*
 * Macros: their table, and their expansion in text outside strings and
 * comments. A macro is not expanded inside its own expansion, and the
 * expansions of one run are bounded in number, depth and output.
 */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "preproc/pp.h"
#include "util/grow.h"

struct pp_macro *pp_macro_find(struct pp *pp, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < pp->nr_macros; i++)
		if (!strncmp(pp->macros[i].name, name, len) && !pp->macros[i].name[len])
			return &pp->macros[i];
	return NULL;
}

static void macro_free(struct pp_macro *m)
{
	uint32_t i;

	free(m->name);
	free(m->body);
	for (i = 0; i < m->nr_params; i++)
		free(m->params[i]);
}

void pp_macro_undef(struct pp *pp, const char *name, size_t len)
{
	struct pp_macro *m = pp_macro_find(pp, name, len);

	if (!m)
		return;
	macro_free(m);
	*m = pp->macros[--pp->nr_macros];
}

int pp_macro_define(struct pp *pp, const char *name, const char *body, char **params,
		    uint32_t nr_params, int function_like)
{
	struct pp_macro m = {.function_like = function_like};
	uint32_t i;

	pp_macro_undef(pp, name, strlen(name));
	m.name = strdup(name);
	m.body = strdup(body);
	for (i = 0; i < nr_params; i++) {
		m.params[i] = strdup(params[i]);
		m.nr_params++;
		if (!m.params[i])
			break;
	}
	if (!m.name || !m.body || i < nr_params ||
	    st_grow(&pp->macros, &pp->cap_macros, pp->nr_macros, sizeof(m), 32)) {
		macro_free(&m);
		return pp_nomem(pp);
	}
	pp->macros[pp->nr_macros++] = m;
	return 0;
}

void pp_macros_free(struct pp *pp)
{
	size_t i;

	for (i = 0; i < pp->nr_macros; i++)
		macro_free(&pp->macros[i]);
	free(pp->macros);
	pp->macros = NULL;
	pp->nr_macros = pp->cap_macros = 0;
}

/* Past the string literal that starts at s[i] (its end, or len). */
static size_t skip_string(const char *s, size_t i, size_t len)
{
	for (i++; i < len && s[i] != '"'; i++)
		if (s[i] == '\\' && i + 1 < len)
			i++;
	return i < len ? i + 1 : len;
}

/* Two characters that would read as one token if put side by side. */
static int pastes(char a, char b)
{
	static const char punct[] = "+-*/%<>=!&|^.:?#";

	if (pp_ident_char(a) && pp_ident_char(b))
		return 1;
	return a && b && strchr(punct, a) && strchr(punct, b);
}

/* Appends text, a space first where it would join what out ends with. */
static void put_apart(struct st_textbuf *out, const char *text, size_t len)
{
	if (out->len && len && pastes(out->s[out->len - 1], text[0]))
		st_tb_putc(out, ' ');
	st_tb_putn(out, text, len);
}

static const char *trim(const char *s, size_t *len)
{
	while (*len && isspace((unsigned char)*s)) {
		s++;
		(*len)--;
	}
	while (*len && isspace((unsigned char)s[*len - 1]))
		(*len)--;
	return s;
}

/* A call's arguments, raw (trimmed) and expanded. */
struct pp_args {
	const char *raw[PP_MAX_PARAMS];
	size_t raw_len[PP_MAX_PARAMS];
	struct st_textbuf exp[PP_MAX_PARAMS];
	uint32_t nr;
};

static void args_free(struct pp_args *a)
{
	uint32_t i;

	for (i = 0; i < a->nr; i++)
		st_tb_free(&a->exp[i]);
}

static int add_arg(struct pp *pp, const struct pp_macro *m, struct pp_args *a, const char *s,
		   size_t len)
{
	int in_comment = 0, err;

	if (a->nr == PP_MAX_PARAMS)
		return pp_error(pp, "more than %d arguments to macro %s", PP_MAX_PARAMS, m->name);
	a->raw[a->nr] = trim(s, &len);
	a->raw_len[a->nr] = len;
	a->exp[a->nr] = (struct st_textbuf){0};
	st_tb_putn(&a->exp[a->nr], "", 0);
	/* Arguments nest as expansions do: under the same bound. */
	pp->expand_depth++;
	err = pp_expand(pp, a->raw[a->nr], len, &a->exp[a->nr], &in_comment);
	pp->expand_depth--;
	a->nr++;
	return err;
}

/* The arguments of a call whose '(' is s[*pos]; *pos then is past its ')'. */
static int collect_args(struct pp *pp, const struct pp_macro *m, const char *s, size_t len,
			size_t *pos, struct pp_args *a)
{
	size_t i = *pos + 1, start = i;
	int nest = 1, err;

	while (i < len) {
		if (s[i] == '"') {
			i = skip_string(s, i, len);
			continue;
		}
		if (s[i] == '(')
			nest++;
		if ((s[i] == ')' && !--nest) || (s[i] == ',' && nest == 1)) {
			err = add_arg(pp, m, a, s + start, i - start);
			if (err)
				return err;
			start = i + 1;
			if (s[i] == ')')
				break;
		}
		i++;
	}
	if (i >= len)
		return pp_error(pp, "the call of macro %s does not end on its line", m->name);
	*pos = i + 1;
	/* F() is a call of a macro without parameters. */
	if (!m->nr_params && a->nr == 1 && !a->raw_len[0])
		return 0;
	if (a->nr != m->nr_params)
		return pp_error(pp, "macro %s takes %u argument%s, not %u", m->name, m->nr_params,
				m->nr_params == 1 ? "" : "s", a->nr);
	return 0;
}

static int param_index(const struct pp_macro *m, const char *s, size_t len)
{
	uint32_t i;

	for (i = 0; i < m->nr_params; i++)
		if (!strncmp(m->params[i], s, len) && !m->params[i][len])
			return i;
	return -1;
}

/* #param: the argument as written, a string literal. */
static void stringify(struct st_textbuf *out, const char *s, size_t len)
{
	size_t i;

	st_tb_putc(out, '"');
	for (i = 0; i < len; i++) {
		if (s[i] == '"' || s[i] == '\\')
			st_tb_putc(out, '\\');
		st_tb_putc(out, s[i]);
	}
	st_tb_putc(out, '"');
}

/* Whether body[i..] is spaces then "##": the parameter before it is pasted. */
static int before_paste(const char *body, size_t i)
{
	while (body[i] == ' ' || body[i] == '\t')
		i++;
	return body[i] == '#' && body[i + 1] == '#';
}

/* The body of m with its parameters replaced: # and ## as C does; bounded. */
static void substitute(const struct pp_macro *m, const struct pp_args *a, struct st_textbuf *out)
{
	const char *b = m->body;
	size_t i = 0, j, k;
	int pasted = 0, p;

	while (b[i] && out->len <= PP_MAX_OUTPUT) {
		if (b[i] == '#' && b[i + 1] == '#') {
			while (out->len &&
			       (out->s[out->len - 1] == ' ' || out->s[out->len - 1] == '\t'))
				out->len--;
			for (i += 2; b[i] == ' ' || b[i] == '\t'; i++)
				;
			pasted = 1;
			continue;
		}
		if (b[i] == '#') {
			for (j = i + 1; b[j] == ' ' || b[j] == '\t'; j++)
				;
			for (k = j; pp_ident_char(b[k]); k++)
				;
			p = k > j ? param_index(m, b + j, k - j) : -1;
			if (p >= 0) {
				stringify(out, a->raw[p], a->raw_len[p]);
				i = k;
				pasted = 0;
				continue;
			}
		}
		if (b[i] == '"') {
			j = skip_string(b, i, strlen(b));
			st_tb_putn(out, b + i, j - i);
			i = j;
			pasted = 0;
			continue;
		}
		if (!pp_ident_start(b[i])) {
			st_tb_putc(out, b[i++]);
			pasted = 0;
			continue;
		}
		for (j = i; pp_ident_char(b[j]); j++)
			;
		p = param_index(m, b + i, j - i);
		if (p < 0)
			st_tb_putn(out, b + i, j - i);
		else if (pasted || before_paste(b, j))
			st_tb_putn(out, a->raw[p], a->raw_len[p]);
		else
			put_apart(out, a->exp[p].s, a->exp[p].len);
		i = j;
		pasted = 0;
	}
}

/* Expands m, whose name ends at s[*pos]; *pos then is past its call's ')'. */
static int expand_macro(struct pp *pp, struct pp_macro *m, const char *s, size_t len, size_t *pos,
			struct st_textbuf *out)
{
	struct st_textbuf body = {0}, res = {0};
	struct pp_args a = {0};
	size_t i = *pos;
	int in_comment = 0, err = 0;

	if (++pp->expansions > PP_MAX_EXPANSIONS || pp->expand_depth >= PP_MAX_DEPTH)
		return pp_error(pp, "macro %s: more than %d expansions, or %d inside each other",
				m->name, PP_MAX_EXPANSIONS, PP_MAX_DEPTH);
	if (m->function_like) {
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		/* A function-like macro's name without a call is a name. */
		if (i >= len || s[i] != '(') {
			put_apart(out, m->name, strlen(m->name));
			return 0;
		}
		err = collect_args(pp, m, s, len, &i, &a);
		if (!err)
			substitute(m, &a, &body);
		if (!err && body.len > PP_MAX_OUTPUT)
			err = pp_error(pp, "the text grows past %u bytes", PP_MAX_OUTPUT);
		args_free(&a);
		*pos = i;
	} else {
		st_tb_puts(&body, m->body);
	}
	if (!err) {
		m->active = 1;
		pp->expand_depth++;
		st_tb_putn(&res, "", 0);
		err = pp_expand(pp, body.s ? body.s : "", body.len, &res, &in_comment);
		pp->expand_depth--;
		m->active = 0;
	}
	if (!err && (body.failed || res.failed))
		err = pp_nomem(pp);
	if (!err)
		put_apart(out, res.s, res.len);
	/* And apart from what follows. */
	if (!err && res.len && *pos < len && pastes(res.s[res.len - 1], s[*pos]))
		st_tb_putc(out, ' ');
	st_tb_free(&body);
	st_tb_free(&res);
	return err;
}

/* Past the token that starts at s[i] and is not an identifier nor a comment. */
static size_t skip_other(const char *s, size_t i, size_t len)
{
	if (s[i] == '"')
		return skip_string(s, i, len);
	/* Numbers, and bpftrace's $var and @map: never a macro's name. */
	if (isdigit((unsigned char)s[i]) || s[i] == '$' || s[i] == '@') {
		for (i++; i < len && (pp_ident_char(s[i]) || s[i] == '.'); i++)
			;
		return i;
	}
	return i + 1;
}

int pp_expand(struct pp *pp, const char *s, size_t len, struct st_textbuf *out, int *in_comment)
{
	const char *end;
	struct pp_macro *m;
	size_t i = 0, j;
	int err;

	while (i < len) {
		if (out->failed)
			return pp_nomem(pp);
		if (out->len > PP_MAX_OUTPUT)
			return pp_error(pp, "the text grows past %u bytes", PP_MAX_OUTPUT);
		if (*in_comment) {
			end = memmem(s + i, len - i, "*/", 2);
			j = end ? (size_t)(end - s) + 2 : len;
			st_tb_putn(out, s + i, j - i);
			*in_comment = !end;
			i = j;
			continue;
		}
		if (s[i] == '/' && i + 1 < len && (s[i + 1] == '*' || s[i + 1] == '/')) {
			*in_comment = s[i + 1] == '*';
			j = *in_comment ? i + 2 : len;
			st_tb_putn(out, s + i, j - i);
			i = j;
			continue;
		}
		if (!pp_ident_start(s[i])) {
			j = skip_other(s, i, len);
			st_tb_putn(out, s + i, j - i);
			i = j;
			continue;
		}
		for (j = i; j < len && pp_ident_char(s[j]); j++)
			;
		m = pp_macro_find(pp, s + i, j - i);
		if (!m || m->active) {
			st_tb_putn(out, s + i, j - i);
			i = j;
			continue;
		}
		if (!pp->expand_depth)
			pp->col = i + 1;
		err = expand_macro(pp, m, s, len, &j, out);
		if (err)
			return err;
		i = j;
	}
	return out->failed ? pp_nomem(pp) : 0;
}
