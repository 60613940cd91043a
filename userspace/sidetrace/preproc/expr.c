// SPDX-License-Identifier: MIT
/*
 * #if's integer constant expressions, as C reads them: defined(X), then
 * the macros expanded, then integers and operators with C's precedence;
 * an identifier left is 0. Arithmetic wraps; a division by zero where it
 * is evaluated is an error.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "preproc/pp.h"

struct ex {
	struct pp *pp;
	const char *s;
	uint32_t depth;
};

static void ex_space(struct ex *e)
{
	while (isspace((unsigned char)*e->s))
		e->s++;
}

/* The operator at e->s among ops (longest first), consumed; or -1. */
static int ex_op(struct ex *e, const char *const *ops)
{
	size_t n;
	int i;

	ex_space(e);
	for (i = 0; ops[i]; i++) {
		n = strlen(ops[i]);
		if (!strncmp(e->s, ops[i], n)) {
			e->s += n;
			return i;
		}
	}
	return -1;
}

static int ex_cond(struct ex *e, int live, int64_t *v);

static int ex_number(struct ex *e, int64_t *v)
{
	char *end;

	*v = (int64_t)strtoull(e->s, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	if (pp_ident_char(*end) || *end == '.')
		return pp_error(e->pp, "#if: not an integer: %.*s", (int)strcspn(e->s, " \t()"),
				e->s);
	e->s = end;
	return 0;
}

static int ex_unary(struct ex *e, int live, int64_t *v)
{
	static const char *const ops[] = {"(", "!", "~", "-", "+", NULL};
	int op, err;

	if (++e->depth > PP_MAX_DEPTH)
		return pp_error(e->pp, "#if: the expression nests deeper than %d", PP_MAX_DEPTH);
	op = ex_op(e, ops);
	if (op == 0) {
		err = ex_cond(e, live, v);
		if (!err && ex_op(e, (const char *const[]){")", NULL}) < 0)
			err = pp_error(e->pp, "#if: expected ')'");
	} else if (op > 0) {
		err = ex_unary(e, live, v);
		if (!err)
			*v = op == 1   ? !*v
			     : op == 2 ? ~*v
			     : op == 3 ? (int64_t)(0 - (uint64_t)*v)
				       : *v;
	} else if (isdigit((unsigned char)*e->s)) {
		err = ex_number(e, v);
	} else if (pp_ident_start(*e->s)) {
		while (pp_ident_char(*e->s))
			e->s++;
		*v = 0;
		err = 0;
	} else {
		err = pp_error(e->pp, *e->s ? "#if: unexpected '%c'" : "#if: expression ends early",
			       *e->s);
	}
	e->depth--;
	return err;
}

/* a op b, in 64 bits that wrap; level is the operator's row in binops. */
static int ex_apply(struct ex *e, int live, const char *op, int64_t a, int64_t b, int64_t *v)
{
	uint64_t ua = a, ub = b;

	if ((op[0] == '/' || op[0] == '%') && !b)
		return live ? pp_error(e->pp, "#if: division by zero") : (*v = 0, 0);
	if ((!strcmp(op, "<<") || !strcmp(op, ">>")) && (b < 0 || b > 63))
		return live ? pp_error(e->pp, "#if: shift by %lld", (long long)b) : (*v = 0, 0);
	switch (op[0] << 8 | op[1]) {
	case '*' << 8:
		*v = (int64_t)(ua * ub);
		break;
	case '/' << 8:
		*v = b == -1 ? (int64_t)(0 - ua) : a / b;
		break;
	case '%' << 8:
		*v = b == -1 ? 0 : a % b;
		break;
	case '+' << 8:
		*v = (int64_t)(ua + ub);
		break;
	case '-' << 8:
		*v = (int64_t)(ua - ub);
		break;
	case '<' << 8 | '<':
		*v = (int64_t)(ua << b);
		break;
	case '>' << 8 | '>':
		*v = a >> b;
		break;
	case '<' << 8:
		*v = a < b;
		break;
	case '>' << 8:
		*v = a > b;
		break;
	case '<' << 8 | '=':
		*v = a <= b;
		break;
	case '>' << 8 | '=':
		*v = a >= b;
		break;
	case '=' << 8 | '=':
		*v = a == b;
		break;
	case '!' << 8 | '=':
		*v = a != b;
		break;
	case '&' << 8:
		*v = a & b;
		break;
	case '^' << 8:
		*v = a ^ b;
		break;
	case '|' << 8:
		*v = a | b;
		break;
	}
	return 0;
}

/* Binary operators by precedence, lowest first; && and || short-circuit. */
static const char *const binops[][5] = {
	{"||", NULL},
	{"&&", NULL},
	{"|", NULL},
	{"^", NULL},
	{"&", NULL},
	{"==", "!=", NULL},
	{"<=", ">=", "<", ">", NULL},
	{"<<", ">>", NULL},
	{"+", "-", NULL},
	{"*", "/", "%", NULL},
};
#define NR_LEVELS (sizeof(binops) / sizeof(binops[0]))

/* "|" is not the start of "||", nor "&" of "&&". */
static int ex_binop(struct ex *e, uint32_t level)
{
	const char *at = e->s;
	int op = ex_op(e, binops[level]);

	if (op >= 0 && (level == 2 || level == 4) && *e->s == *binops[level][op]) {
		e->s = at;
		return -1;
	}
	return op;
}

static int ex_binary(struct ex *e, uint32_t level, int live, int64_t *v)
{
	int64_t b;
	int op, err;

	if (level == NR_LEVELS)
		return ex_unary(e, live, v);
	err = ex_binary(e, level + 1, live, v);
	while (!err && (op = ex_binop(e, level)) >= 0) {
		/* The right of && when the left is 0, of || when 1, is not evaluated. */
		err = ex_binary(e, level + 1, live && (level > 1 || !*v == !level), &b);
		if (err)
			break;
		if (level <= 1)
			*v = level ? (*v && b) : (*v || b);
		else
			err = ex_apply(e, live, binops[level][op], *v, b, v);
	}
	return err;
}

static int ex_cond(struct ex *e, int live, int64_t *v)
{
	int64_t a, b;
	int err;

	if (++e->depth > PP_MAX_DEPTH)
		return pp_error(e->pp, "#if: the expression nests deeper than %d", PP_MAX_DEPTH);
	err = ex_binary(e, 0, live, v);
	if (!err && ex_op(e, (const char *const[]){"?", NULL}) == 0) {
		err = ex_cond(e, live && *v, &a);
		if (!err && ex_op(e, (const char *const[]){":", NULL}) < 0)
			err = pp_error(e->pp, "#if: expected ':' after '?'");
		if (!err)
			err = ex_cond(e, live && !*v, &b);
		if (!err)
			*v = *v ? a : b;
	}
	e->depth--;
	return err;
}

/* defined X and defined(X) replaced by 1 or 0, before any macro is expanded. */
static int replace_defined(struct pp *pp, const char *s, struct st_textbuf *out)
{
	const char *name;
	size_t n;
	int paren;

	while (*s) {
		if (!pp_ident_start(*s)) {
			st_tb_putc(out, *s++);
			continue;
		}
		for (n = 0; pp_ident_char(s[n]); n++)
			;
		if (n != 7 || strncmp(s, "defined", 7)) {
			st_tb_putn(out, s, n);
			s += n;
			continue;
		}
		for (s += 7; *s == ' ' || *s == '\t'; s++)
			;
		paren = *s == '(';
		for (s += paren; *s == ' ' || *s == '\t'; s++)
			;
		name = s;
		for (n = 0; pp_ident_char(name[n]); n++)
			;
		if (!n || !pp_ident_start(*name))
			return pp_error(pp, "#if: defined needs a macro's name");
		for (s += n; *s == ' ' || *s == '\t'; s++)
			;
		if (paren && *s++ != ')')
			return pp_error(pp, "#if: expected ')' after defined(%.*s", (int)n, name);
		st_tb_puts(out, pp_macro_find(pp, name, n) ? " 1 " : " 0 ");
	}
	return 0;
}

int pp_eval(struct pp *pp, const char *s, int64_t *value)
{
	struct st_textbuf def = {0}, exp = {0};
	int in_comment = 0, err;
	struct ex e = {.pp = pp};

	st_tb_putn(&def, "", 0);
	st_tb_putn(&exp, "", 0);
	err = replace_defined(pp, s, &def);
	if (!err && !def.failed)
		err = pp_expand(pp, def.s, def.len, &exp, &in_comment);
	if (!err && (def.failed || exp.failed))
		err = pp_nomem(pp);
	if (!err) {
		e.s = exp.s;
		ex_space(&e);
		err = *e.s ? ex_cond(&e, 1, value) : pp_error(pp, "#if without an expression");
	}
	if (!err) {
		ex_space(&e);
		if (*e.s)
			err = pp_error(pp, "#if: unexpected '%c'", *e.s);
	}
	st_tb_free(&def);
	st_tb_free(&exp);
	return err;
}
