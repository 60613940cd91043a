// SPDX-License-Identifier: MIT
/*
 * printf("fmt", args...): the format parsed once, its conversions matched
 * with the arguments by count and kind, dynamic fields typed by the
 * conversion they meet.
 */
#include <errno.h>
#include <stdlib.h>

#include "lang/check.h"
#include "lang/format.h"

/* The column of byte off of a string literal's text (exact without escapes). */
static struct st_pos literal_pos(const struct st_expr *lit, uint32_t off)
{
	struct st_pos pos = lit->pos;

	pos.col += 1 + off;
	return pos;
}

static int check_arg(struct checker *c, const struct st_conv *cv, struct st_expr *arg, uint32_t n)
{
	bool want_str = cv->arg == ST_CONV_STR;
	int err;

	err = ck_expr(c, arg);
	if (!err)
		err = ck_settle(c, arg, want_str ? ST_VT_STR : ST_VT_INT,
				want_str ? "printed with %s" : "printed as a number");
	if (err)
		return err;
	if (want_str && arg->vtype != ST_VT_STR)
		return ck_err(c, arg->pos,
			      "printf: argument %u is an integer, but its conversion is %%s: use "
			      "%%d, %%u or %%x",
			      n);
	if (!want_str && arg->vtype == ST_VT_STR)
		return ck_err(c, arg->pos,
			      "printf: argument %u is a string, but its conversion wants an "
			      "integer: use %%s",
			      n);
	return 0;
}

int ck_printf(struct checker *c, struct st_expr *call)
{
	struct st_expr *lit = call->nr_kids ? call->kids[0] : NULL;
	struct st_format *f;
	uint32_t at = 0, i, n = 0;
	char err[256];
	int ret;

	if (!lit || lit->kind != ST_EXPR_STR)
		return ck_err(c, lit ? lit->pos : call->pos,
			      "printf takes a format string first: printf(\"fmt\", args...)");
	f = calloc(1, sizeof(*f));
	if (!f)
		return ck_oom(c);
	call->fmt = f;
	ret = st_format_parse(lit->str, f, err, sizeof(err), &at);
	if (ret == -ENOMEM)
		return ck_oom(c);
	if (ret)
		return ck_err(c, literal_pos(lit, at), "%s", err);
	if (call->nr_kids - 1 != f->nr_convs)
		return ck_err(c,
			      call->nr_kids - 1 > f->nr_convs ? call->kids[f->nr_convs + 1]->pos
							      : call->pos,
			      "printf: the format has %u conversion%s but %u argument%s follow%s",
			      f->nr_convs, f->nr_convs == 1 ? "" : "s", call->nr_kids - 1,
			      call->nr_kids == 2 ? "" : "s", call->nr_kids == 2 ? "s" : "");
	for (i = 0; i < f->nr_pieces; i++) {
		if (!f->pieces[i].is_conv)
			continue;
		n++;
		ret = check_arg(c, &f->pieces[i].conv, call->kids[n], n);
		if (ret)
			return ret;
	}
	return 0;
}

int ck_print_value(struct checker *c, struct st_expr *call)
{
	struct st_expr *v = call->kids[0];
	struct st_format *f;
	const char *text;
	char err[256];
	uint32_t at;
	int ret;

	ret = ck_expr(c, v);
	if (!ret)
		ret = ck_settle_default(c, v, "printed by print()");
	if (ret)
		return ret;
	if (v->vtype == ST_VT_STR)
		text = "%s\n";
	else
		text = v->vtype == ST_VT_INT ? "%lld\n" : "%llu\n";
	f = calloc(1, sizeof(*f));
	if (!f)
		return ck_oom(c);
	call->fmt = f;
	ret = st_format_parse(text, f, err, sizeof(err), &at);
	if (ret == -ENOMEM)
		return ck_oom(c);
	return ret ? ck_err(c, call->pos, "internal error: %s", err) : 0;
}
