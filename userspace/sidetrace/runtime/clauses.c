// SPDX-License-Identifier: MIT
/* BEGIN, END and interval clauses, and printing at exit. See run.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/aggregations.h"
#include "output/printf_print.h"
#include "runtime/clauses.h"
#include "runtime/eval.h"
#include "util/escape.h"

static int print_map(struct st_runner *r, int map_id)
{
	struct st_maps_snapshot snap;
	int ret;

	if (!r->loader)
		return 0;
	ret = st_maps_read(r->loader, r->prog, r->compiled, map_id, &snap);
	if (ret)
		return ret;
	ret = st_output_map(r->out, r->fmt, &snap.maps[0]);
	st_maps_snapshot_free(&snap);
	fflush(r->out);
	return ret;
}

/* printf in user space: the values computed here, formatted as records are. */
static int run_printf(struct st_runner *r, const struct st_expr *call, const char *probe)
{
	struct st_eval_val vals[ST_MAX_PRINTF_ARGS];
	struct st_key_val kv[ST_MAX_PRINTF_ARGS];
	struct st_textbuf text = {0};
	uint32_t i;
	int ret;

	for (i = 0; i + 1 < call->nr_kids && i < ST_MAX_PRINTF_ARGS; i++) {
		ret = st_eval(call->kids[i + 1], probe, &vals[i]);
		if (ret)
			return ret;
		kv[i] = vals[i].v;
	}
	st_format_values(&text, call->fmt, kv);
	ret = text.failed ? -ENOMEM : st_output_printf(r->out, r->fmt, &text);
	st_tb_free(&text);
	return ret;
}

int st_run_clause(struct st_runner *r, const struct st_clause *cl, const char *probe)
{
	uint32_t i;
	int ret = 0;

	for (i = 0; i < cl->nr_stmts && !ret; i++) {
		const struct st_expr *call = cl->stmts[i].call;
		int map_id;

		if (cl->stmts[i].kind != ST_STMT_CALL)
			continue;
		map_id = call->nr_kids ? call->kids[0]->map_id : -1;
		switch (call->func) {
		case ST_FN_PRINT:
			if (map_id >= 0)
				ret = print_map(r, map_id);
			break;
		case ST_FN_CLEAR:
			if (map_id >= 0 && r->loader)
				ret = st_maps_clear(r->loader, r->compiled, map_id);
			break;
		case ST_FN_ZERO:
			if (map_id >= 0 && r->loader)
				ret = st_maps_zero(r->loader, r->compiled, map_id);
			break;
		case ST_FN_PRINTF:
			ret = run_printf(r, call, probe);
			break;
		case ST_FN_EXIT:
			r->exit_requested = true;
			/* bpftrace stops the clause at exit(). */
			return 0;
		default:
			break;
		}
	}
	return ret;
}

int st_run_clauses(struct st_runner *r, enum st_ap_kind kind)
{
	uint32_t i, j;
	int ret;

	for (i = 0; i < r->prog->nr_clauses; i++) {
		const struct st_clause *cl = &r->prog->clauses[i];

		for (j = 0; j < cl->nr_points; j++) {
			if (cl->points[j].kind != kind)
				continue;
			ret = st_run_clause(r, cl, kind == ST_AP_BEGIN ? "BEGIN" : "END");
			if (ret)
				return ret;
			break;
		}
	}
	return 0;
}

int st_run_print_all(struct st_runner *r)
{
	struct st_maps_snapshot snap;
	size_t i;
	int ret;

	if (!r->loader || !r->compiled->nr_maps)
		return 0;
	ret = st_maps_read(r->loader, r->prog, r->compiled, -1, &snap);
	if (ret)
		return ret;
	ret = st_output_exit_maps(r->out, r->fmt, snap.maps, snap.nr_maps);
	for (i = 0; i < snap.nr_maps; i++)
		r->nr_entries += snap.maps[i].nr_entries;
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
	default:
		st_errorf("%llu events could not be decoded: %s (%s)", n, reason, name);
		break;
	}
}

unsigned long long st_run_report_problems(struct st_runner *r)
{
	struct st_problem *probs;
	unsigned long long lost = 0;
	int n, i;

	if (!r->loader)
		return 0;
	n = st_problems_read(r->loader, r->compiled, NULL, 0);
	if (n <= 0)
		return 0;
	probs = calloc(n, sizeof(*probs));
	if (!probs)
		return 0;
	n = st_problems_read(r->loader, r->compiled, probs, n);
	for (i = 0; i < n; i++) {
		report_problem(r, &probs[i]);
		if (st_counter_is_loss(probs[i].counter))
			lost += probs[i].count;
	}
	fflush(r->out);
	free(probs);
	return lost;
}
