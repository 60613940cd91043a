// SPDX-License-Identifier: MIT
/*
 * print(args) of a probe whose fields are located values (usdt:,
 * uprobe:, uretprobe:, tracepoint:, kprobe:, kretprobe:, fentry:,
 * fexit:): there is no SIDE argument vector to walk, so the call becomes the printf that prints
 * each readable field by name, in bpftrace's struct form: { .n = 5, .tag = "abc" }.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "check/check.h"
#include "parse/format.h"
#include "util/textbuf.h"

/*
 * The fields print(args) shows: a function's parameters (without retval
 * where it has both, as bpftrace's args; without the raw arg0..arg5 when
 * it has named ones), else every one.
 */
static bool shown(const struct st_event *ev, const struct st_field *f, bool have_params)
{
	const struct st_probe_kind *k = st_event_kind(ev);

	if (f->type.unreadable || (k->params && k->retval && !strcmp(f->name, "retval")))
		return false;
	if (!k->raw_args || !have_params)
		return true;
	return strncmp(f->name, "arg", 3) ||
	       strspn(f->name + 3, "0123456789") != strlen(f->name + 3);
}

static struct st_expr *field_expr(const struct st_field *f, struct st_pos pos)
{
	struct st_expr *e = st_expr_new(ST_EXPR_FIELD, pos);
	struct st_path_seg *seg = calloc(1, sizeof(*seg));

	if (!e || !seg || !(e->str = strdup("args")) || !(seg->name = strdup(f->name))) {
		if (seg)
			free(seg->name);
		free(seg);
		st_expr_free(e);
		return NULL;
	}
	seg->kind = ST_SEG_NAME;
	seg->pos = pos;
	e->path = seg;
	e->nr_path = 1;
	return e;
}

static struct st_expr *str_expr(const char *s, struct st_pos pos)
{
	struct st_expr *e = st_expr_new(ST_EXPR_STR, pos);

	if (e && !(e->str = strdup(s))) {
		st_expr_free(e);
		return NULL;
	}
	return e;
}

/* A bool prints as bpftrace's do: args.f ? "true" : "false". */
static struct st_expr *bool_expr(struct st_expr *field, struct st_pos pos)
{
	struct st_expr *e = st_expr_new(ST_EXPR_TERNARY, pos);

	if (e)
		e->kids = calloc(3, sizeof(*e->kids));
	if (!e || !e->kids) {
		st_expr_free(e);
		st_expr_free(field);
		return NULL;
	}
	e->nr_kids = 3;
	e->kids[0] = field;
	e->kids[1] = str_expr("true", pos);
	e->kids[2] = str_expr("false", pos);
	if (!e->kids[1] || !e->kids[2]) {
		st_expr_free(e);
		return NULL;
	}
	return e;
}

bool ck_clause_located(const struct checker *c)
{
	uint32_t i;

	for (i = 0; i < c->clause->nr_events; i++)
		if (st_probe_kind_located(st_event_kind(c->clause->events[i])))
			return true;
	return false;
}

int ck_print_located(struct checker *c, struct st_expr *call)
{
	const struct st_event *ev = c->clause->events[0];
	struct st_textbuf fmt = {0};
	struct st_expr **kids;
	bool have_params = ev->nr_fields && strcmp(ev->fields[0].name, "arg0");
	uint32_t i, n = 0;

	for (i = 0; i < c->clause->nr_events; i++)
		if (!st_probe_kind_located(st_event_kind(c->clause->events[i])))
			return ck_err(
				c, call->pos,
				"print(args) in a clause of side: events and usdt: or uprobe: "
				"probes: give each kind its own clause");
	for (i = 1; i < c->clause->nr_events; i++)
		if (c->clause->events[i]->nr_fields != ev->nr_fields)
			return ck_err(c, call->pos,
				      "print(args) prints one probe's arguments: these probes have "
				      "different ones, print them with printf()");
	kids = calloc(ST_MAX_PRINTF_ARGS + 1, sizeof(*kids));
	if (!kids)
		return ck_oom(c);
	st_tb_puts(&fmt, "{ ");
	for (i = 0; i < ev->nr_fields && n < ST_MAX_PRINTF_ARGS; i++) {
		const struct st_field *f = &ev->fields[i];
		bool str = st_side_type(f->type.label)->type_class == ST_TC_STRING;
		bool is_bool = f->type.label == SIDE_TYPE_BOOL;
		/* An enum prints its label (%s of an enum field), or its value. */
		bool is_enum = f->type.label == SIDE_TYPE_ENUM;
		bool is_float = st_side_type(f->type.label)->type_class == ST_TC_FLOAT;

		if (!shown(ev, f, have_params))
			continue;
		st_tb_printf(&fmt, "%s.%s = %s", n ? ", " : "", f->name,
			     str		  ? "\"%s\""
			     : is_bool || is_enum ? "%s"
			     : is_float		  ? ST_PRINT_ARGS_FLOAT
			     : f->type.is_signed  ? "%d"
						  : "%u");
		kids[++n] = field_expr(f, call->pos);
		if (kids[n] && is_bool)
			kids[n] = bool_expr(kids[n], call->pos);
		if (!kids[n])
			break;
	}
	st_tb_puts(&fmt, n ? " }\n" : "}\n");
	kids[0] = st_expr_new(ST_EXPR_STR, call->pos);
	if (kids[0])
		kids[0]->str = st_tb_take(&fmt);
	st_tb_free(&fmt);
	for (i = 0; i < call->nr_kids; i++)
		st_expr_free(call->kids[i]);
	free(call->kids);
	call->kids = kids;
	call->nr_kids = n + 1;
	if (!kids[0] || !kids[0]->str || (n && !kids[n]))
		return ck_oom(c);
	call->func = ST_FN_PRINTF;
	call->print_args = true;
	return ck_printf(c, call);
}
