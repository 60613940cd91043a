// SPDX-License-Identifier: MIT
/* A record of the per-event ring to its text: see record_text.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/events.h"
#include "parse/functions.h"
#include "output/kept_text.h"
#include "output/printf_print.h"
#include "output/record_calls.h"
#include "output/helper_error.h"
#include "output/record_text.h"
#include "util/escape.h"

/* A value's text: a string escaped (4 bytes a byte), or an integer's (kept_text.h). */
typedef char rec_str[4 * ST_STR_LEN > ST_KEPT_TEXT_MAX ? 4 * ST_STR_LEN : ST_KEPT_TEXT_MAX];

/*
 * print(args) of located fields under -f json: the printf's values as an
 * event's fields, named by the fields its arguments read (a bool's is
 * the field of the ternary that spells it: check/check_print_args.c).
 */
static enum st_text_verdict args_json(struct st_rec_view *v, const struct st_rec_hdr *h,
				      const struct st_printf_layout *lay, struct st_key_val *vals)
{
	const char *names[ST_MAX_PRINTF_ARGS];
	struct st_expr *const *args;
	const struct st_expr *f;
	uint32_t i;

	if (h->probe >= v->c->nr_probes)
		return ST_TEXT_MALFORMED;
	st_print_args(lay->call, &args);
	for (i = 0; i < lay->nr_args; i++) {
		f = args[i]->kind == ST_EXPR_TERNARY ? args[i]->kids[0] : args[i];
		names[i] = f->kind == ST_EXPR_FIELD && f->nr_path ? f->path[0].name : "?";
		if (args[i]->kind == ST_EXPR_TERNARY) {
			vals[i].type = ST_VT_BOOL;
			vals[i].u = !strcmp(vals[i].s, "true");
		}
	}
	st_format_fields_json(&v->text, v->c->probes[h->probe].name, h, names, vals, lay->nr_args);
	return ST_TEXT_OK;
}

/* A string value, cut at ST_STR_LEN, escaped as sidetrace's print(args) shows it. */
static void str_value(struct st_rec_view *v, const struct st_rec_hdr *h, const uint8_t *at, char *s)
{
	memcpy(s, at, ST_STR_LEN);
	s[ST_STR_LEN - 1] = '\0';
	/*
	 * print(args)'s format is sidetrace's: its strings are escaped as map
	 * keys are (JSON: by its own rule). printf's are the user's
	 * (st_format_values()).
	 */
	if (h->kind == ST_REC_ARGS && v->fmt != ST_OUTPUT_JSON) {
		st_tb_reset(&v->scratch);
		st_escape_text(&v->scratch, s);
		snprintf(s, sizeof(rec_str), "%s", v->scratch.s ? v->scratch.s : "");
	}
}

/* ksym() or usym() printed with %s: its function, else its address. */
static void sym_value(struct st_rec_view *v, bool user, uint32_t pid, uint64_t addr, char *s)
{
	char *name = v->sym_text ? v->sym_text(v->sym_ctx, user, pid, addr) : NULL;

	if (name)
		snprintf(s, sizeof(rec_str), "%s", name);
	else
		snprintf(s, sizeof(rec_str), "0x%" PRIx64, addr);
	free(name);
}

/*
 * A stack printed with %s, as bpftrace prints one: a newline, then a
 * frame a line, indented, or nothing for a stack without frames; kept in
 * v->stacks[i] until the next record.
 */
static void stack_value(struct st_rec_view *v, bool user, uint64_t u, uint32_t i,
			const struct st_expr *stack, struct st_key_val *val)
{
	char *frames =
		v->stack_text ? v->stack_text(v->stack_ctx, user, stack->perf_stack, u) : NULL;
	uint64_t max_frames = stack->uval;
	struct st_textbuf tb = {0};
	const char *p = frames;
	uint64_t nr = 0;
	size_t n;

	if (p && *p)
		st_tb_putc(&tb, '\n');
	/* ustack(N): its N innermost frames; 0 is every one. */
	while (p && *p && (!max_frames || nr++ < max_frames)) {
		n = strcspn(p, "\n");
		st_tb_printf(&tb, "%s%.*s\n", stack->perf_stack ? "\t" : "        ", (int)n, p);
		p += n + (p[n] == '\n');
	}
	free(frames);
	free(v->stacks[i]);
	v->stacks[i] = st_tb_take(&tb);
	val->s = v->stacks[i] ? v->stacks[i] : "";
}

/* Value i of a printf record, as its layout says, into *val (a string in s). */
static void printf_value(struct st_rec_view *v, const struct st_rec_hdr *h,
			 const struct st_printf_layout *lay, uint32_t i, const uint8_t *at,
			 struct st_key_val *val, char *s)
{
	struct st_expr *const *args;
	const char *label;
	uint64_t u;

	st_print_args(lay->call, &args);
	memcpy(&u, at, sizeof(u));
	val->type = ST_VT_STR;
	val->s = s;
	if (lay->sent[i] == ST_RA_KSYM || lay->sent[i] == ST_RA_USYM) {
		sym_value(v, lay->sent[i] == ST_RA_USYM, h->pid, u, s);
	} else if (lay->sent[i] == ST_RA_TEXT) {
		st_kept_text(st_expr_kept(args[i]), u, s, sizeof(rec_str));
	} else if (lay->sent[i] == ST_RA_KSTACK || lay->sent[i] == ST_RA_USTACK) {
		stack_value(v, lay->sent[i] == ST_RA_USTACK, u, i, args[i], val);
	} else if (lay->sent[i] == ST_RA_PROBE) {
		val->s = u < v->c->nr_probes ? v->c->probes[u].name : "?";
	} else if (lay->label_type[i]) {
		label = st_type_enum_label(lay->label_type[i], (int64_t)u);
		if (label)
			snprintf(s, sizeof(rec_str), "%s", label);
		else
			snprintf(s, sizeof(rec_str), "%" PRId64, (int64_t)u);
	} else if (lay->sent[i] == ST_RA_STR && args[i]->vtype == ST_VT_BUF) {
		/* Its bytes as they are: the conversion says how they print. */
		val->type = ST_VT_BUF;
		memcpy(s, at, ST_STR_LEN);
	} else if (lay->sent[i] == ST_RA_STR) {
		str_value(v, h, at, s);
	} else if (lay->float_bits[i]) {
		st_key_val_float(val, at, lay->float_bits[i]);
	} else {
		val->type = args[i]->vtype == ST_VT_INT ? ST_VT_INT : ST_VT_UINT;
		val->u = u;
	}
}

/* A printf record: its size and kind those its layout sends, each value at its offset. */
static enum st_text_verdict printf_record(struct st_rec_view *v, const struct st_rec_hdr *h,
					  const uint8_t *data)
{
	struct st_key_val vals[ST_MAX_PRINTF_ARGS];
	rec_str strs[ST_MAX_PRINTF_ARGS];
	const struct st_printf_layout *lay;
	enum st_fn_code code;
	uint32_t i;

	if (h->id >= v->c->nr_printfs)
		return ST_TEXT_MALFORMED;
	lay = &v->c->printfs[h->id];
	/* print(args)'s values are read as its own (a bool's is a string); join() has no format. */
	if (h->len != lay->size || (h->kind == ST_REC_ARGS) != lay->call->print_args ||
	    !lay->call->fmt)
		return ST_TEXT_MALFORMED;
	for (i = 0; i < lay->nr_args; i++)
		printf_value(v, h, lay, i, data + lay->off[i], &vals[i], strs[i]);
	if (h->kind == ST_REC_ARGS && v->fmt == ST_OUTPUT_JSON)
		return args_json(v, h, lay, vals);
	code = st_func(lay->call->func)->bpf;
	st_tb_reset(&v->scratch);
	/* A command or a path is the user's text as it is. */
	st_format_values(&v->scratch, lay->call->fmt, vals, v->term && !st_call_acts(code));
	st_call_act(code, &v->scratch, st_compiled_cat_bytes(v->c));
	if (v->fmt == ST_OUTPUT_JSON)
		st_call_json(&v->text, lay->call, vals, &v->scratch);
	else
		st_tb_putn(&v->text, v->scratch.s ? v->scratch.s : "", v->scratch.len);
	return ST_TEXT_OK;
}

/* -k: a helper that failed at a place of the program, and what it returned. */
static enum st_text_verdict helper_err_record(struct st_rec_view *v, const struct st_rec_hdr *h,
					      const uint8_t *data)
{
	int64_t ret;

	if (h->id >= v->c->nr_sites || h->len != sizeof(ret))
		return ST_TEXT_MALFORMED;
	memcpy(&ret, data, sizeof(ret));
	st_helper_error_text(&v->text, v->fmt, &v->c->sites[h->id], ret, v->file, v->src);
	return ST_TEXT_OK;
}

enum st_text_verdict st_record_text(struct st_rec_view *v, const void *data, size_t size)
{
	const struct st_compiled *c = v->c;
	const uint8_t *items;
	struct st_rec_hdr h;

	st_tb_reset(&v->text);
	if (size < sizeof(h))
		return ST_TEXT_MALFORMED;
	memcpy(&h, data, sizeof(h));
	if (h.len > size - sizeof(h))
		return ST_TEXT_MALFORMED;
	items = (const uint8_t *)data + sizeof(h);
	if (h.kind == ST_REC_PRINTF || h.kind == ST_REC_ARGS)
		return printf_record(v, &h, items);
	if (h.kind == ST_REC_JOIN)
		return st_join_text(v, &h, items);
	if (h.kind == ST_REC_HELPER_ERR)
		return helper_err_record(v, &h, items);
	/* Only a probe that prints its events sends them. */
	if (h.kind != ST_REC_EVENT || h.probe >= c->nr_probes || !c->probes[h.probe].cfg.whole)
		return ST_TEXT_MALFORMED;
	return st_format_event(&v->text, v->fmt, c->probes[h.probe].event, c->probes[h.probe].name,
			       &h, items, h.len);
}

const void *st_record_next(const void *sample, size_t size, size_t *off, size_t *rec_size)
{
	size_t at = *off, rest = size - at;
	struct st_rec_hdr h;

	if (at >= size)
		return NULL;
	/* Short, or longer than the sample: the rest, for st_record_text() to refuse. */
	*off = size;
	*rec_size = rest;
	if (rest >= sizeof(h)) {
		memcpy(&h, (const uint8_t *)sample + at, sizeof(h));
		if (h.len <= rest - sizeof(h)) {
			*rec_size = sizeof(h) + h.len;
			if (ST_REC_SPAN((size_t)h.len) < rest)
				*off = at + ST_REC_SPAN((size_t)h.len);
		}
	}
	return (const uint8_t *)sample + at;
}

void st_rec_view_free(struct st_rec_view *v)
{
	uint32_t i;

	st_tb_free(&v->text);
	st_tb_free(&v->scratch);
	for (i = 0; i < ST_MAX_PRINTF_ARGS; i++)
		free(v->stacks[i]);
}
