// SPDX-License-Identifier: MIT
/* BEGIN, END and interval clauses, and printing at exit (runner.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfload/kread.h"
#include "bpfload/watch.h"
#include "readout/aggregations.h"
#include "readout/problems.h"
#include "output/helper_error.h"
#include "output/kept_text.h"
#include "output/printf_print.h"
#include "output/record_calls.h"
#include "session/runner.h"
#include "parse/functions.h"
#include "session/eval.h"
#include "readout/inproc_read.h"
#include "readout/map_access.h"
#include "util/escape.h"

/* print(@m), print(@m, top), print(@m, top, div): constants (checker). */
static int print_map(struct st_runner *r, const struct st_expr *call)
{
	struct st_maps_snapshot snap;
	int ret;

	if (!r->tracer)
		return 0;
	ret = st_maps_read(r->tracer, r->prog, r->compiled, call->kids[0]->map_id, &snap);
	if (ret)
		return ret;
	if (call->nr_kids > 1)
		snap.maps[0].top = call->kids[1]->uval;
	if (call->nr_kids > 2)
		snap.maps[0].div = call->kids[2]->uval;
	ret = st_output_map(r->out, r->fmt, &snap.maps[0]);
	st_maps_snapshot_free(&snap);
	fflush(r->out);
	return ret;
}

/*
 * bpftrace's print(@m), clear() and zero() are done by its user space once
 * the clause's program has run, in order with the clause's printf output:
 * print(@c) in a clause that counts @c after it prints the final count.
 * The runner keeps them for the clause's end so (call NULL: text).
 */
struct st_deferred {
	const struct st_expr *call;
	struct st_textbuf text;
};

static int defer(struct st_runner *r, const struct st_expr *call, struct st_textbuf *text)
{
	struct st_deferred *d;

	d = realloc(r->deferred, (r->nr_deferred + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	r->deferred = d;
	d += r->nr_deferred++;
	d->call = call;
	memset(&d->text, 0, sizeof(d->text));
	if (text)
		d->text = *text;
	return 0;
}

int st_run_map_call(struct st_runner *r, const struct st_expr *call)
{
	uint32_t map_id = call->kids[0]->map_id;

	if (!r->tracer)
		return 0;
	switch (st_func(call->func)->host) {
	case ST_FC_PRINT:
		return print_map(r, call);
	case ST_FC_CLEAR:
		return st_maps_clear(r->tracer, r->compiled, map_id);
	default:
		return st_maps_zero(r->tracer, r->compiled, map_id);
	}
}

/* What the clause left for its end, in order: 0 or the first error. */
static int run_deferred(struct st_runner *r)
{
	uint32_t i;
	int ret = 0;

	for (i = 0; i < r->nr_deferred; i++) {
		struct st_deferred *d = &r->deferred[i];

		if (!ret)
			ret = d->call ? st_run_map_call(r, d->call)
				      : st_output_printf(r->out, &d->text);
		st_tb_free(&d->text);
	}
	free(r->deferred);
	r->deferred = NULL;
	r->nr_deferred = 0;
	return ret;
}

/*
 * ksym() and usym() computed here, into buf: a kernel address named from
 * kallsyms; a process's, which a clause of sidetrace's own has none of,
 * in hex, as bpftrace prints an address it cannot name.
 */
static void sym_text(const struct st_runner *r, enum st_kept k, uint64_t addr, char *buf,
		     size_t size)
{
	char *name = k == ST_KEPT_KSYM && r->tracer && r->tracer->stacks
			     ? st_ksym_text(r->tracer->stacks, addr)
			     : NULL;

	char text[ST_ADDRESS_TEXT];

	if (!name)
		st_address_text(addr, text);
	snprintf(buf, size, "%s", name ?: text);
	free(name);
}

/* A clause's text, which it frees: printed, or deferred after what the clause left for its end. */
static int put_text(struct st_runner *r, struct st_textbuf *text)
{
	int ret;

	if (!text->failed && r->nr_deferred) {
		ret = defer(r, NULL, text);
		if (ret)
			st_tb_free(text);
		return ret;
	}
	ret = text->failed ? -ENOMEM : st_output_printf(r->out, text);
	st_tb_free(text);
	return ret;
}

/*
 * printf and print(value): the values computed here, formatted as records
 * are, printed after what the clause left for its end (run_deferred()).
 */
static int run_printf(struct st_runner *r, struct st_eval_ctx *x, const struct st_expr *call)
{
	struct st_eval_val vals[ST_MAX_PRINTF_ARGS];
	struct st_key_val kv[ST_MAX_PRINTF_ARGS];
	char names[ST_MAX_PRINTF_ARGS][ST_KEPT_TEXT_MAX];
	struct st_textbuf text = {0};
	struct st_expr *const *args;
	enum st_kept kept;
	uint32_t i, n;
	int ret;

	n = st_print_args(call, &args);
	for (i = 0; i < n && i < ST_MAX_PRINTF_ARGS; i++) {
		ret = st_eval(x, args[i], &vals[i]);
		if (ret)
			return ret;
		kv[i] = vals[i].v;
		/* An integer printed as text, named here as the collector names the kernel's. */
		kept = st_expr_kept(args[i]);
		if (st_kept_is_text(kept))
			st_kept_text(kept, vals[i].v.u, names[i], sizeof(names[i]));
		else if (kept == ST_KEPT_KSYM || kept == ST_KEPT_USYM)
			sym_text(r, kept, vals[i].v.u, names[i], sizeof(names[i]));
		if (st_kept_is_text(kept) || kept == ST_KEPT_KSYM || kept == ST_KEPT_USYM) {
			kv[i].type = ST_VT_STR;
			kv[i].s = names[i];
		}
	}
	/* system() and cat(): a command or a path, the user's text as it is. */
	st_format_values(&text, call->fmt, kv, r->term && !st_call_acts(st_func(call->func)->host));
	st_call_act(st_func(call->func)->host, &text, st_compiled_cat_bytes(x->compiled));
	/* Its record made now, from its values: printed (or deferred) as it is. */
	if (r->fmt == ST_OUTPUT_JSON && !text.failed) {
		struct st_textbuf json = {0};

		st_call_json(&json, call, kv, &text);
		st_tb_free(&text);
		text = json;
	}
	return put_text(r, &text);
}

/*
 * st_eval_ctx.helper_failed: -k's report, in the output in order with the
 * clause's own; one that cannot be made is left out.
 */
static void helper_failed(void *ctx, struct st_pos pos, enum st_helper h, int64_t ret)
{
	const struct st_helper_site site = {.pos = pos, .helper = h};
	struct st_runner *r = ctx;
	struct st_textbuf text = {0};

	st_helper_error_text(&text, r->fmt, &site, ret, r->prog->filename, r->src);
	put_text(r, &text);
}

/*
 * A value the kernel could not keep (a full map) is said, -k's warning
 * at the statement as a probe's, and the clause goes on as a probe's
 * would; any other failure ends the session.
 */
static int not_kept(struct st_runner *r, struct st_eval_ctx *x, const struct st_stmt *st, int ret)
{
	if (ret != -E2BIG && ret != -ENOMEM && ret != -ENOSPC)
		return ret;
	st_eval_helper_failed(x, st->pos, ST_H_MAP_UPDATE, ret);
	if (ret == -E2BIG)
		st_errorf("%s: %s: %s", x->probe, r->prog->maps[st->map_id].name,
			  st_counter_reason(ST_C_MAP_FULL));
	else
		st_errorf("%s: a value of %s not kept: %s", x->probe,
			  r->prog->maps[st->map_id].name, strerror(-ret));
	return 0;
}

/* $v op= value or @m[k] op= value in user space. */
static int run_assign(struct st_runner *r, struct st_eval_ctx *x, const struct st_stmt *st)
{
	struct st_eval_val kvals[ST_MAX_MAP_KEYS], v, old;
	struct st_key_val keys[ST_MAX_MAP_KEYS];
	struct st_elem_val ev = {0};
	int ret, op;

	ret = st_eval(x, st->value, &v);
	if (!ret && !st->var)
		ret = st_eval_keys(x, st->keys, st->nr_keys, kvals, keys);
	if (ret)
		return ret;
	if (st->op != ST_OP_NONE) {
		if (st->var) {
			old = x->vars[st->var_id];
		} else {
			ret = st_elem_read(r->tracer, r->compiled, st->map_id, keys, &ev);
			old.v.type = ST_VT_INT;
			old.v.i = ev.i;
		}
		if (ret)
			return ret;
		op = st_binop_for(st->op, old.v.type, v.v.type,
				  old.v.type == ST_VT_INT || v.v.type == ST_VT_INT ? ST_VT_INT
										   : ST_VT_UINT);
		v.v.i = st_binary(op, old.v.i, v.v.i);
	}
	if (st->var) {
		x->vars[st->var_id] = v;
		return 0;
	}
	ev.i = v.v.i;
	if (v.v.type == ST_VT_STR)
		snprintf(ev.s, sizeof(ev.s), "%s", v.str);
	else if (v.v.type == ST_VT_BUF)
		memcpy(ev.s, v.str, sizeof(ev.s));
	return not_kept(r, x, st, st_elem_write(r->tracer, r->compiled, st->map_id, keys, &ev));
}

/* @m[k] = agg(v): count() aggregates 0. */
static int run_agg(struct st_runner *r, struct st_eval_ctx *x, const struct st_stmt *st)
{
	struct st_eval_val kvals[ST_MAX_MAP_KEYS], v = {0};
	struct st_key_val keys[ST_MAX_MAP_KEYS];
	int ret;

	ret = st_eval_keys(x, st->keys, st->nr_keys, kvals, keys);
	if (!ret && st->call->nr_kids)
		ret = st_eval(x, st->call->kids[0], &v);
	if (ret)
		return ret;
	return not_kept(r, x, st,
			st_elem_aggregate(r->tracer, r->compiled, st->map_id, keys, v.v.i));
}

static int run_delete(struct st_runner *r, struct st_eval_ctx *x, const struct st_expr *call)
{
	const struct st_expr *ref = call->kids[0];
	struct st_eval_val kvals[ST_MAX_MAP_KEYS];
	struct st_key_val keys[ST_MAX_MAP_KEYS];
	int ret;

	ret = st_eval_keys(x, ref->kids, ref->nr_kids, kvals, keys)
		      ?: st_elem_delete(r->tracer, r->compiled, ref->map_id, keys);
	if (ret != -ENOENT)
		return ret;
	st_eval_helper_failed(x, call->pos, ST_H_MAP_DELETE, ret);
	return 0;
}

/* How a statement leaves its block, past 0 (a negative errno: failed). */
enum {
	RUN_EXIT = 1, /* exit() ran, which ends the clause as in bpftrace */
	RUN_BREAK, /* break: the innermost while loop ends */
	RUN_CONTINUE, /* continue: the innermost while loop's next round */
	RUN_RETURN, /* return: the clause ends */
};

/* debugf(): its values into sidetrace_debugf's request, printed by the kernel. */
static int run_debugf(struct st_runner *r, struct st_eval_ctx *x, const struct st_expr *call)
{
	struct st_debugf_req req = {0};
	struct st_eval_val v;
	uint32_t i;
	int ret;

	snprintf(req.fmt, sizeof(req.fmt), "%s", call->kids[0]->str);
	for (i = 0; i + 1 < call->nr_kids && i < ST_DEBUGF_ARGS; i++) {
		ret = st_eval(x, call->kids[i + 1], &v);
		if (ret)
			return ret;
		if (st_vt_slot(call->kids[i + 1]->vtype)) {
			req.str_mask |= 1U << i;
			memcpy(req.strs[i], v.v.s, strnlen(v.v.s, ST_STR_LEN - 1));
		} else {
			req.args[i] = v.v.u;
		}
	}
	ret = r->tracer ? st_kernel_debugf(&r->tracer->bpf, &req) : -ENOTSUP;
	if (ret)
		st_errorf("debugf(): the kernel did not print it: %s", strerror(-ret));
	return 0;
}

/* unwatch(addr) in BEGIN, END or interval: the breakpoints at addr removed now. */
static int run_unwatch(struct st_runner *r, struct st_eval_ctx *x, const struct st_expr *call)
{
	struct st_eval_val addr;
	int err = st_eval(x, call->kids[0], &addr);

	if (!err && r->tracer)
		st_watch_unset(&r->tracer->bpf, (uint64_t)addr.v.i);
	return err;
}

/* A call statement; RUN_EXIT once exit() ran. */
static int run_call(struct st_runner *r, struct st_eval_ctx *x, const struct st_expr *call)
{
	int map_id =
		call->nr_kids && call->kids[0]->kind == ST_EXPR_MAP ? call->kids[0]->map_id : -1;

	switch (st_func(call->func)->host) {
	case ST_FC_PRINT:
		if (call->fmt)
			return run_printf(r, x, call);
		return map_id >= 0 ? defer(r, call, NULL) : 0;
	case ST_FC_CLEAR:
	case ST_FC_ZERO:
		return map_id >= 0 ? defer(r, call, NULL) : 0;
	case ST_FC_DELETE:
		return run_delete(r, x, call);
	case ST_FC_PRINTF:
	case ST_FC_SYSTEM:
	case ST_FC_CAT:
		return run_printf(r, x, call);
	case ST_FC_DEBUGF:
		return run_debugf(r, x, call);
	case ST_FC_EXIT:
		r->exit_requested = true;
		return RUN_EXIT;
	case ST_FC_UNWATCH:
		return run_unwatch(r, x, call);
	default:
		return 0;
	}
}

static int run_while(struct st_runner *r, struct st_eval_ctx *x, const struct st_stmt *st);

static int run_stmts(struct st_runner *r, struct st_eval_ctx *x, const struct st_stmt *stmts,
		     uint32_t nr)
{
	struct st_eval_val cond;
	uint32_t i;
	int ret = 0;

	for (i = 0; i < nr && !ret; i++) {
		const struct st_stmt *st = &stmts[i];

		switch (st->kind) {
		case ST_STMT_CALL:
			ret = run_call(r, x, st->call);
			break;
		case ST_STMT_ASSIGN:
			ret = run_assign(r, x, st);
			break;
		case ST_STMT_AGG:
			ret = run_agg(r, x, st);
			break;
		case ST_STMT_IF:
			ret = st->loop ? run_while(r, x, st) : st_eval(x, st->value, &cond);
			if (!ret && !st->loop)
				ret = cond.v.i ? run_stmts(r, x, st->then, st->nr_then)
					       : run_stmts(r, x, st->els, st->nr_els);
			break;
		case ST_STMT_BREAK:
			ret = RUN_BREAK;
			break;
		case ST_STMT_CONTINUE:
			ret = RUN_CONTINUE;
			break;
		case ST_STMT_RETURN:
			ret = RUN_RETURN;
			break;
		default:
			break;
		}
	}
	return ret;
}

/* while (c) { ... } in sidetrace: as many rounds as the kernel's steps would allow, at most. */
static int run_while(struct st_runner *r, struct st_eval_ctx *x, const struct st_stmt *st)
{
	struct st_eval_val cond;
	uint32_t i;
	int ret;

	for (i = 0; i < ST_MAX_RUN_STEPS; i++) {
		ret = st_eval(x, st->value, &cond);
		if (ret || !cond.v.i)
			return ret;
		ret = run_stmts(r, x, st->then, st->nr_then);
		if (ret == RUN_BREAK)
			return 0;
		if (ret && ret != RUN_CONTINUE)
			return ret;
	}
	st_errorf("a while loop ran %d rounds: stopped", ST_MAX_RUN_STEPS);
	return 0;
}

int st_run_clause(struct st_runner *r, const struct st_clause *cl, const char *probe)
{
	struct st_eval_ctx x = {.probe = probe,
				.compiled = r->compiled,
				.tracer = r->tracer,
				.helper_failed = helper_failed,
				.helper_ctx = r};
	struct st_eval_val pass = {.v.i = 1};
	int ret;

	/* BEGIN /$1 == 0/ { ... }: a filter there too, as bpftrace's. */
	ret = cl->filter ? st_eval(&x, cl->filter, &pass) : 0;
	if (!ret && pass.v.i)
		ret = run_stmts(r, &x, cl->stmts, cl->nr_stmts);
	/* exit() too leaves what came before it to be done. */
	if (ret > 0)
		ret = 0;
	ret = run_deferred(r) ?: ret;
	/* A tool's header reaches a pipe when BEGIN prints it, as bpftrace's does. */
	if (!r->held)
		fflush(r->out);
	return ret;
}

int st_run_clauses(struct st_runner *r, enum st_ap_kind kind)
{
	char name[ST_USER_PROBE_NAME_MAX];
	uint32_t i, j;
	int ret;

	for (i = 0; i < r->prog->nr_clauses; i++) {
		const struct st_clause *cl = &r->prog->clauses[i];

		for (j = 0; j < cl->nr_points; j++) {
			if (cl->points[j].kind != kind)
				continue;
			st_user_probe_name(&cl->points[j], name, sizeof(name));
			ret = st_run_clause(r, cl, name);
			if (ret)
				return ret;
			break;
		}
	}
	return 0;
}

/* Entries that hold something: a count without keys is there before it counts. */
static size_t entries_counted(const struct st_maps_snapshot *snap)
{
	size_t i, j, n = 0;

	for (i = 0; i < snap->nr_maps; i++)
		for (j = 0; j < snap->maps[i].nr_entries; j++)
			n += snap->maps[i].agg != ST_K_COUNT || snap->maps[i].entries[j].count;
	return n;
}

size_t st_run_count_entries(struct st_runner *r)
{
	struct st_maps_snapshot snap;
	size_t n;

	if (!r->tracer || !r->compiled->nr_maps ||
	    st_maps_read(r->tracer, r->prog, r->compiled, -1, &snap))
		return 0;
	n = entries_counted(&snap);
	st_maps_snapshot_free(&snap);
	return n;
}

int st_run_print_all(struct st_runner *r, bool at_exit)
{
	struct st_maps_snapshot snap;
	int ret;

	/* bpftrace ends its text with two blank lines, maps or none. */
	if (!r->tracer || !r->compiled->nr_maps) {
		if (r->fmt != ST_OUTPUT_JSON && at_exit)
			fputs("\n\n", r->out);
		return 0;
	}
	ret = st_maps_read(r->tracer, r->prog, r->compiled, -1, &snap);
	if (ret)
		return ret;
	ret = at_exit ? st_output_exit_maps(r->out, r->fmt, snap.maps, snap.nr_maps)
		      : st_output_all_maps(r->out, r->fmt, snap.maps, snap.nr_maps);
	if (at_exit)
		r->nr_entries += entries_counted(&snap);
	st_maps_snapshot_free(&snap);
	fflush(r->out);
	return ret;
}

/* One problem, to stderr; lost records also as a JSON document of the output. */
static void report_problem(struct st_runner *r, const struct st_problem *p)
{
	const char *name = r->compiled->probes[p->probe].name;
	const char *reason = st_counter_reason(p->counter);
	unsigned long long n = p->count;
	struct st_textbuf json = {0};

	switch (p->counter) {
	case ST_C_STR_TRUNC:
		st_errorf("%llu strings were cut: %s (%s)", n, reason, name);
		break;
	case ST_C_LOST:
		st_errorf("%llu events not printed: %s (%s)", n, reason, name);
		if (r->fmt != ST_OUTPUT_JSON)
			break;
		st_tb_json_str(&json, name);
		fprintf(r->out,
			"{\"type\": \"lost\", \"data\": {\"probe\": %s, \"events\": %llu, "
			"\"reason\": \"output buffer full\"}}\n",
			json.s ? json.s : "\"\"", n);
		st_tb_free(&json);
		break;
	case ST_C_MAP_FULL:
	case ST_C_BUSY:
		st_errorf("%llu events not counted: %s (%s)", n, reason, name);
		break;
	case ST_C_MAP_ERR:
		st_errorf("%llu events not counted: %s (the last error: %s) (%s)", n, reason,
			  strerror(st_loader_map_err(&r->tracer->bpf)), name);
		break;
	case ST_C_STEPS:
		st_errorf("%llu events stopped: %s (%s)", n, reason, name);
		break;
	default:
		st_errorf("%llu events could not be decoded: %s (%s)", n, reason, name);
		break;
	}
}

/* What *said counted of p's probe and counter. */
static uint64_t said_count(const struct st_problem *said, int nr, const struct st_problem *p)
{
	int i;

	for (i = 0; i < nr; i++)
		if (said[i].probe == p->probe && said[i].counter == p->counter)
			return said[i].count;
	return 0;
}

void st_run_report_new_problems(struct st_runner *r, struct st_problem **said, int *nr_said)
{
	struct st_problem *probs, now;
	int n, i;

	if (!r->tracer)
		return;
	n = st_problems_read(r->tracer, r->compiled, &probs);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		now = probs[i];
		now.count -= said_count(*said, *nr_said, &probs[i]);
		if (now.count && probs[i].counter != ST_C_LOST)
			report_problem(r, &now);
	}
	free(*said);
	*said = probs;
	*nr_said = n;
}

unsigned long long st_run_report_problems(struct st_runner *r)
{
	struct st_problem *probs;
	unsigned long long lost = 0;
	int n, i;

	if (!r->tracer)
		return 0;
	n = st_problems_read(r->tracer, r->compiled, &probs);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		report_problem(r, &probs[i]);
		if (st_counter_is_loss(probs[i].counter))
			lost += probs[i].count;
	}
	st_inproc_report(st_tracer_inprocs(r->tracer));
	fflush(r->out);
	free(probs);
	return lost;
}
