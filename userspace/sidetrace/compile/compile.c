// SPDX-License-Identifier: MIT
/*
 * Checked program -> BPF configuration. See compile.h and bpf/sidetrace.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "compile/codegen.h"

_Static_assert(sizeof(struct st_rec_hdr) == ST_REC_HDR, "records start with ST_REC_HDR bytes");
_Static_assert(ST_MAX_PRINTF_ARGS *ST_REC_STR_SIZE < ST_REC_MAX,
	       "a record holds every printf argument as a string");

/*
 * Whether statements of a BEGIN, END or interval clause aggregate: the
 * collector runs them, through sidetrace_user (bpf/user.bpf.h).
 */
static bool stmts_aggregate(const struct st_stmt *stmts, uint32_t nr)
{
	uint32_t i;

	for (i = 0; i < nr; i++) {
		if (stmts[i].kind == ST_STMT_AGG)
			return true;
		if (stmts[i].kind == ST_STMT_IF &&
		    (stmts_aggregate(stmts[i].then, stmts[i].nr_then) ||
		     stmts_aggregate(stmts[i].els, stmts[i].nr_els)))
			return true;
	}
	return false;
}

void st_user_probe_name(const struct st_attach_point *p, char *buf, size_t len)
{
	const struct st_probe_kind *k = st_probe_kind(p->kind);

	if (k->runs == ST_RUNS_EVERY)
		snprintf(buf, len, "%s:%s:%s", k->name, p->provider, p->event);
	else
		snprintf(buf, len, "%s", k->name);
}

/* The names of cl's attach points, each once among the program's: probe keys. */
static int add_user_probes(struct st_compiled *out, const struct st_clause *cl)
{
	char name[ST_USER_PROBE_NAME_MAX], **names;
	uint32_t i, j;

	for (i = 0; i < cl->nr_points; i++) {
		st_user_probe_name(&cl->points[i], name, sizeof(name));
		for (j = 0; j < out->nr_user_probes; j++)
			if (!strcmp(out->user_probes[j], name))
				break;
		if (j < out->nr_user_probes)
			continue;
		names = realloc(out->user_probes, (j + 1) * sizeof(*names));
		if (!names)
			return -ENOMEM;
		out->user_probes = names;
		names[j] = strdup(name);
		if (!names[j])
			return -ENOMEM;
		out->nr_user_probes++;
	}
	return 0;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * The probe of each event, found by the event's address: a program on
 * thousands of events (side:./app:*:*) would otherwise look through every
 * probe, 4 KB apart, for every event.
 */
struct probe_index {
	int32_t *slot; /* probe index + 1, 0: free */
	uint32_t mask;
};

static int32_t *index_slot(const struct probe_index *ix, const struct st_compiled *out,
			   const struct st_event *ev)
{
	uint32_t h = ((uintptr_t)ev >> 3) * 2654435761u;

	for (h &= ix->mask; ix->slot[h]; h = (h + 1) & ix->mask)
		if (out->probes[ix->slot[h] - 1].event == ev)
			break;
	return &ix->slot[h];
}

/* Room for every event of every clause, at most half full. */
static int index_init(struct probe_index *ix, const struct st_program *prog)
{
	uint64_t n = 0, size = 16;
	uint32_t i;

	for (i = 0; i < prog->nr_clauses; i++)
		n += prog->clauses[i].nr_events;
	while (size < 2 * n)
		size *= 2;
	ix->slot = calloc(size, sizeof(*ix->slot));
	ix->mask = size - 1;
	return ix->slot ? 0 : -ENOMEM;
}

/*
 * The probe's name, its event's as the probe builtin says it, under the
 * target it was written with. NULL: out of memory.
 */
static char *probe_name(const struct st_event *ev, const char *target)
{
	char *name;

	/* A wildcard target (-p) spans objects: the probe names the event's. */
	if (strchr(target, '*'))
		target = ev->path;
	/*
	 * A kernel probe has no target: tracepoint:CATEGORY:NAME; a perf
	 * event's count left out leaves no ':' (software:faults).
	 */
	if (asprintf(&name, "%s:%s%s%s%s%s", st_kind_probe_word(st_event_kind(ev)), target,
		     st_event_kind(ev)->in_kernel ? "" : ":", ev->provider,
		     *ev->provider && *ev->name ? ":" : "", ev->name) < 0)
		return NULL;
	return name;
}

static int add_probe(const struct st_program *prog, struct st_compiled *out,
		     const struct st_clause *cl, const struct st_event *ev,
		     const struct probe_index *ix, struct st_diag *diag)
{
	struct st_compiled_probe *p, *probes;
	int32_t *slot = index_slot(ix, out, ev);
	const struct st_attach_point *ap = NULL;
	uint32_t i, j, nargs, fixed;

	if (*slot)
		return *slot - 1;
	/* The attach point that names it (one, mostly: no search of its events). */
	for (i = 0; i < cl->nr_points && !ap; i++)
		for (j = 0; j < cl->points[i].nr_events; j++)
			if (cl->nr_points == 1 || cl->points[i].events[j] == ev) {
				ap = &cl->points[i];
				break;
			}
	if (out->nr_probes == ST_MAX_PROBES) {
		st_diag_set(diag, prog->filename, cl->pos,
			    "more than %d events traced in one session: name fewer", ST_MAX_PROBES);
		return -E2BIG;
	}
	/* Room doubles at each power of 2: no copy of every probe per probe. */
	if (!(out->nr_probes & (out->nr_probes - 1))) {
		probes = realloc(out->probes,
				 (out->nr_probes ? 2 * out->nr_probes : 1) * sizeof(*probes));
		if (!probes)
			return -ENOMEM;
		out->probes = probes;
	}
	probes = out->probes;
	*slot = out->nr_probes + 1;
	p = &probes[out->nr_probes];
	memset(p, 0, sizeof(*p));
	p->event = ev;
	p->from_glob = ap && ap->event && strpbrk(ap->event, "*?[");
	/* A function's watchpoint is set where its arm program reports the address. */
	out->watches |= st_event_kind(ev)->form == ST_FORM_WATCH && ev->watch.arg >= 0;
	p->name = probe_name(ev, ap ? ap->target : "");
	if (!p->name)
		return -ENOMEM;
	out->nr_probes++;
	/*
	 * The argument vector follows the field values and the description
	 * pointer (include/side/probe.h); count the site's actual arguments
	 * so that a binary built with another layout fails here, not with
	 * garbage in the kernel.
	 */
	fixed = ev->variadic ? 3 : 2;
	nargs = ev->nr_sites ? ev->sites[0].sdt.nr : 0;
	/* A usdt: probe's fields are its SDT operands (side/usdt_view.h). */
	if (st_probe_kind_located(st_event_kind(ev)))
		p->nr_sdt_values = ev->nr_fields;
	if (ev->has_side && nargs < fixed) {
		st_diag_set(
			diag, prog->filename, cl->pos,
			"%s: its probe sites have %u SDT arguments, a SIDE event has at least %u",
			p->name, nargs, fixed);
		return -EINVAL;
	}
	if (ev->has_side && nargs > ST_MAX_SDT_ARGS) {
		st_diag_set(diag, prog->filename, cl->pos,
			    "%s: its probe sites have %u SDT arguments, at most %d can be read",
			    p->name, nargs, ST_MAX_SDT_ARGS);
		return -EINVAL;
	}
	if (ev->has_side) {
		p->cfg.vec_arg = nargs - fixed + 1;
		p->cfg.variadic = ev->variadic;
		p->cfg.dyn_arg = ev->variadic ? nargs - 1 : 0;
		if (ev->variadic)
			p->cfg.sdt_mask |= 1U << p->cfg.dyn_arg;
		/* Only when the site carries what side/probe.h says it does. */
		if (nargs - fixed <= ev->nr_fields)
			p->nr_sdt_values = nargs - fixed;
	}
	return out->nr_probes - 1;
}

/*
 * What path() names in probe p, clause cl's event e: the kernel names one
 * path per call, so the clauses on one event name the same.
 */
static int set_dpath(const struct st_program *prog, struct st_compiled_probe *p,
		     const struct st_clause *cl, uint32_t e, struct st_diag *diag)
{
	uint32_t v = cl->dpath ? cl->dpath[e] : 0;

	if (v && p->dpath && v != p->dpath) {
		st_diag_set(diag, prog->filename, cl->pos,
			    "%s: path() of another argument than another clause's: the kernel "
			    "names one path per call, so the clauses of one event name the same",
			    p->name);
		return -EINVAL;
	}
	if (v)
		p->dpath = v;
	return 0;
}

int st_compile(const struct st_program *prog, unsigned int flags, struct st_compiled *out,
	       struct st_diag *diag)
{
	struct cctx c = {.prog = prog, .diag = diag, .out = out, .flags = flags};
	struct probe_index ix;
	uint32_t i, e;
	int err, idx;

	memset(out, 0, sizeof(*out));
	out->start_ns = monotonic_ns();
	out->cpid = prog->cpid;
	out->kernel_reads = prog->kernel_reads;
	out->user_debugf = prog->user_debugf;
	out->helper_checks = flags & ST_COMPILE_CHECK_ALL	? ST_CHECK_ALL
			     : flags & ST_COMPILE_CHECK_HELPERS ? ST_CHECK_HELPERS
								: 0;
	err = cg_layout_maps(prog, out, diag);
	if (err)
		return err;
	if (index_init(&ix, prog))
		return -ENOMEM;
	for (i = 0; i < prog->nr_clauses && !err; i++) {
		const struct st_clause *cl = &prog->clauses[i];

		if (!st_clause_on_sites(cl)) {
			err = add_user_probes(out, cl);
			out->user_aggs |= stmts_aggregate(cl->stmts, cl->nr_stmts);
			continue;
		}
		for (e = 0; e < cl->nr_events && !err; e++) {
			idx = add_probe(prog, out, cl, cl->events[e], &ix, diag);
			if (idx < 0) {
				err = idx;
				break;
			}
			c.probe = &out->probes[idx];
			c.probe_idx = idx;
			err = set_dpath(prog, c.probe, cl, e, diag);
			if (err)
				break;
			c.ev_idx = e;
			err = cg_clause(&c, cl);
		}
	}
	free(ix.slot);
	for (i = 0; i < out->nr_probes && !err; i++) {
		if (!st_compiled_specializable(&out->probes[i]))
			continue;
		cg_find_count_only(out, &out->probes[i]);
		if (out->probes[i].special == ST_SPECIAL_COUNT)
			continue;
		cg_find_plain(out, &out->probes[i]);
		cg_find_flat(out, &out->probes[i]);
		cg_find_keyed(out, &out->probes[i]);
		cg_find_ro_loads(out, &out->probes[i]);
	}
	return err;
}

void st_compiled_free(struct st_compiled *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		free(c->probes[i].name);
	free(c->probes);
	for (i = 0; i < c->nr_user_probes; i++)
		free(c->user_probes[i]);
	free(c->user_probes);
	free(c->printfs);
	free(c->sites);
	memset(c, 0, sizeof(*c));
}
