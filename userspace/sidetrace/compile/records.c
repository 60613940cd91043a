// SPDX-License-Identifier: MIT
/*
 * Per-event output: the layout of a printf statement's records (one per
 * statement, shared by every probe it runs for) and the code that fills
 * and sends one (bpf/sidetrace.h, ST_I_OUT_*).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/side_types.h"
#include "compile/codegen.h"
#include "parse/format.h"

/* Whether conversion n of format f is %s. */
static bool conv_is_str(const struct st_format *f, uint32_t n)
{
	uint32_t i;

	for (i = 0; f && i < f->nr_pieces; i++)
		if (f->pieces[i].is_conv && !n--)
			return f->pieces[i].conv.arg == ST_CONV_STR;
	return false;
}

int cg_record_layout(struct cctx *c, const struct st_expr *call, bool *added)
{
	struct st_printf_layout *lay;
	uint32_t i;

	*added = false;
	for (i = 0; i < c->out->nr_printfs; i++)
		if (c->out->printfs[i].call == call)
			return i;
	if (c->out->nr_printfs > UINT16_MAX)
		return cg_fail(c, call->pos, "more than 65536 printf statements");
	lay = realloc(c->out->printfs, (c->out->nr_printfs + 1) * sizeof(*lay));
	if (!lay)
		return -ENOMEM;
	c->out->printfs = lay;
	lay = &lay[c->out->nr_printfs];
	memset(lay, 0, sizeof(*lay));
	lay->call = call;
	*added = true;
	return c->out->nr_printfs++;
}

/* The printf's entry in out->printfs, laid out on first use. */
static int printf_layout(struct cctx *c, const struct st_expr *call)
{
	struct st_printf_layout *lay;
	struct st_expr *const *args;
	uint32_t i, off = 0;
	bool added;
	int id;

	id = cg_record_layout(c, call, &added);
	if (id < 0 || !added)
		return id;
	lay = &c->out->printfs[id];
	lay->nr_args = st_print_args(call, &args);
	for (i = 0; i < lay->nr_args; i++) {
		const struct st_expr *arg = args[i];

		lay->sent[i] = st_expr_kept(arg) == ST_KEPT_PROBE    ? ST_RA_PROBE
			       : st_kept_is_text(st_expr_kept(arg))  ? ST_RA_TEXT
			       : st_vt_slot(arg->vtype)		     ? ST_RA_STR
			       : !conv_is_str(call->fmt, i)	     ? ST_RA_INT
			       : st_expr_kept(arg) == ST_KEPT_KSYM   ? ST_RA_KSYM
			       : st_expr_kept(arg) == ST_KEPT_USYM   ? ST_RA_USYM
			       : st_expr_kept(arg) == ST_KEPT_KSTACK ? ST_RA_KSTACK
			       : st_expr_kept(arg) == ST_KEPT_USTACK ? ST_RA_USTACK
								     : ST_RA_INT;
		if (arg->vtype != ST_VT_STR && conv_is_str(call->fmt, i))
			lay->label_type[i] = st_expr_enum(arg);
		/* The checker made the events of a float field agree on its width. */
		if (arg->vtype == ST_VT_FLOAT)
			lay->float_bits[i] = st_side_type(arg->refs[0].type->label)->bits;
		lay->off[i] = off;
		off += lay->sent[i] == ST_RA_STR ? ST_REC_STR_SIZE : ST_REC_INT_SIZE;
	}
	/* The checker's ST_MAX_PRINTF_ARGS keeps this within ST_REC_MAX. */
	lay->size = off;
	return id;
}

/* A field argument, its load written straight into the record (ST_I_OUT_LOAD). */
static int out_load(struct cctx *c, const struct st_expr *arg, uint32_t off)
{
	int slot = cg_add_load(c, arg);

	return slot < 0 ? slot : cg_emit(c, arg->pos, ST_I_OUT_LOAD, slot, off);
}

int cg_printf(struct cctx *c, const struct st_stmt *st)
{
	const struct st_printf_layout *lay;
	const struct st_expr *call = st->call;
	struct st_expr *const *args;
	uint32_t i;
	int id, err;

	id = printf_layout(c, call);
	if (id < 0)
		return id;
	lay = &c->out->printfs[id];
	st_print_args(call, &args);
	for (i = 0; i < lay->nr_args; i++) {
		if (args[i]->kind == ST_EXPR_FIELD) {
			err = out_load(c, args[i], lay->off[i]);
		} else {
			if (lay->sent[i] == ST_RA_PROBE)
				err = cg_emit(c, args[i]->pos, ST_I_BUILTIN, ST_BI_PROBE, 0);
			else
				err = cg_expr(c, args[i]);
			if (!err)
				err = cg_emit(c, args[i]->pos,
					      lay->sent[i] == ST_RA_STR ? ST_I_OUT_STR
									: ST_I_OUT_INT,
					      0, lay->off[i]);
		}
		if (err)
			return err;
	}
	err = cg_emit(c, st->pos, ST_I_OUT_EMIT, call->print_args ? ST_REC_ARGS : ST_REC_PRINTF,
		      lay->size);
	if (!err)
		c->probe->cfg.insns[c->probe->cfg.nr_insns - 1].mask = id;
	return err;
}

int cg_map_action(struct cctx *c, const struct st_stmt *st)
{
	bool added;
	int id, err;

	id = cg_record_layout(c, st->call, &added);
	if (id < 0)
		return id;
	/* The collector acts on the maps: no process's engine may ask it to. */
	c->probe->acts = true;
	err = cg_emit(c, st->pos, ST_I_OUT_EMIT, ST_REC_PRINTF, 0);
	if (!err)
		c->probe->cfg.insns[c->probe->cfg.nr_insns - 1].mask = id;
	return err ?: cg_wake(c);
}

int cg_wake(struct cctx *c)
{
	c->probe->cfg.insns[c->probe->cfg.nr_insns - 1].mask |= ST_EMIT_WAKE;
	return 0;
}

int cg_print_event(struct cctx *c, const struct st_stmt *st)
{
	struct st_probe_cfg *cfg = &c->probe->cfg;

	/* The checker made it a printf in every clause with a located event. */
	if (st_probe_kind_located(st_event_kind(c->probe->event)))
		return cg_fail(c, st->pos, "internal error: print(args) of a located probe");
	if (!c->probe->event->has_side)
		return cg_fail(
			c, st->pos,
			"print(args) needs a SIDE event: this USDT probe has no description");
	/* The argument vector and the dynamic struct are read for every event. */
	cfg->whole = 1;
	cfg->nr_fields = c->probe->event->nr_fields;
	cfg->need_vec = 1;
	cfg->sdt_mask |= 1U << cfg->vec_arg;
	c->out->streams = true;
	return cg_emit(c, st->pos, ST_I_OUT_EVENT, 0, 0);
}
