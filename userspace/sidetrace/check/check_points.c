// SPDX-License-Identifier: MIT
/*
 * Matching side: and usdt: probes to the events of their targets (for
 * usdt:, their usdt: view), wildcards included.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/events.h"
#include "check/check.h"
#include "kinds/perf_events.h"

static int add_event(const struct st_event ***arr, uint32_t *nr, const struct st_event *ev)
{
	const struct st_event **n;
	uint32_t i;

	for (i = 0; i < *nr; i++)
		if ((*arr)[i] == ev)
			return 0;
	n = realloc(*arr, (*nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	n[(*nr)++] = ev;
	*arr = n;
	return 0;
}

static int no_match(struct checker *c, const struct st_attach_point *p,
		    const struct st_event_list *l)
{
	const char *what = st_probe_kind(p->kind)->noun;
	const struct st_perf_event *e;
	struct names all = {0}, near = {0};
	char want[512], have[512];
	size_t i;

	if (st_probe_kind(p->kind)->args == ST_ARGS_BTF)
		return ck_err(c, p->event_pos,
			      "no kernel function matches %s (the kernel's BTF names none so, or "
			      "kallsyms has none of them: inlined)",
			      p->event);
	if (st_probe_kind(p->kind)->args == ST_ARGS_DWARF && l->why_none)
		return ck_err(c, p->event_pos, "no function of %s matches %s: %s", p->target,
			      p->event, l->why_none);
	if (st_probe_kind(p->kind)->args == ST_ARGS_DWARF)
		return ck_err(c, p->event_pos,
			      "no function of %s matches %s (its symbol tables "
			      "name none so, nor their C++ names)",
			      p->target, p->event);
	/* Only a function's watchpoint can match nothing. */
	if (st_probe_kind(p->kind)->form == ST_FORM_WATCH)
		return ck_err(c, p->provider_pos,
			      "no function of the traced program matches %.*s%s%s",
			      (int)strcspn(p->provider, "+"), p->provider, l->why_none ? ": " : "",
			      l->why_none ? l->why_none : " (its symbol tables name none so)");
	if (st_probe_kind(p->kind)->perf_events) {
		for (e = st_probe_kind(p->kind)->perf_events; e->name; e++) {
			ck_names_add(&all, e->name, NULL);
			if (ck_is_near(p->provider, e->name))
				ck_names_add(&near, e->name, NULL);
		}
		ck_err(c, p->provider_pos, "unknown %s %s", what, p->provider);
		if (near.n)
			st_diag_hint(c->diag, "did you mean %s?", near.buf);
		else
			st_diag_hint(c->diag, "%ss: %s", what, all.buf);
		return -EINVAL;
	}
	if (st_probe_kind(p->kind)->source == ST_SOURCE_ITERS) {
		ck_err(c, p->event_pos, "no iterator %s on this kernel (its BTF declares none so)",
		       p->event);
		st_diag_hint(c->diag, "sidetrace -l 'iter:*' lists this kernel's");
		return -EINVAL;
	}
	if (!st_probe_kind(p->kind)->has_target) {
		ck_err(c, p->provider_pos, "no %s %s:%s on this kernel (tracefs lists none so)",
		       st_probe_kind(p->kind)->name, p->provider, p->event);
		st_diag_hint(c->diag, "sidetrace -l '%s:%s:*' lists those of %s",
			     st_probe_kind(p->kind)->name, p->provider, p->provider);
		return -EINVAL;
	}
	snprintf(want, sizeof(want), "%s:%s", p->provider, p->event);
	for (i = 0; i < l->nr; i++) {
		ck_names_add(&all, l->events[i].provider, l->events[i].name);
		snprintf(have, sizeof(have), "%s:%s", l->events[i].provider, l->events[i].name);
		if (ck_is_near(want, have))
			ck_names_add(&near, have, NULL);
	}
	if (!l->nr)
		ck_err(c, p->target_pos, "%s has no %s", p->target, what);
	else if (strchr(want, '*'))
		ck_err(c, p->provider_pos, "no %s of %s matches %s", what, p->target, want);
	else
		ck_err(c, p->provider_pos, "unknown %s %s in %s", what, want, p->target);
	if (near.n)
		st_diag_hint(c->diag, "did you mean %s?", near.buf);
	else if (l->nr)
		st_diag_hint(c->diag, "%ss of %s: %s", what, p->target, all.buf);
	return -EINVAL;
}

/*
 * An event no call site emits (libside's statedump events, which reach
 * the tracers registered in the process only) has nowhere to attach: a
 * wildcard skips it, as bpftrace's matches what it can attach, and a
 * probe naming it, or a wildcard matching only such events, is refused.
 */
static int no_sites(struct checker *c, const struct st_attach_point *p, const char *target,
		    bool wild)
{
	if (wild)
		return ck_err(c, p->provider_pos,
			      "the events of %s that %s:%s matches have no call sites: "
			      "they are delivered to in-process tracers only, never to a probe",
			      target, p->provider, p->event);
	return ck_err(c, p->provider_pos,
		      "%s:%s has no call sites in %s: it is delivered to in-process "
		      "tracers only, never to a probe",
		      p->provider, p->event, target);
}

/*
 * A probe skipped for the error in c->diag, kept as the reason: the
 * clause runs at its other probes' events, if any.
 */
static int skip(struct checker *c, struct st_attach_point *p)
{
	p->missing = strdup(c->diag->msg);
	memset(c->diag, 0, sizeof(*c->diag));
	return p->missing ? 0 : ck_oom(c);
}

/* A function probe that matches no function, skipped as bpftrace skips it. */
static int skip_missing(struct checker *c, struct st_attach_point *p, const struct st_event_list *l)
{
	no_match(c, p, l);
	return skip(c, p);
}

/* reg() (sargN too): what a function is probed at its symbol for, as bpftrace probes it. */
static bool reads_regs(const struct st_expr *e)
{
	return e->kind == ST_EXPR_CALL && st_func(e->func)->at_entry;
}

/* args.NAME or args itself: what a function's parameters are found for. */
static bool reads_args(const struct st_expr *e)
{
	return e->kind == ST_EXPR_ARGS || (e->kind == ST_EXPR_FIELD && !strcmp(e->str, "args"));
}

static int sites_point(struct checker *c, struct st_attach_point *p)
{
	const struct st_clause *cl = c->clause;
	struct st_probe_query q = {
		.target = p->target,
		.kind = p->kind,
		.function = p->event,
		.provider = p->provider,
		.args_unused = !st_expr_any(cl->filter, reads_args) &&
			       !st_stmts_any(cl->stmts, cl->nr_stmts, reads_args),
		.at_entry = st_expr_any(cl->filter, reads_regs) ||
			    st_stmts_any(cl->stmts, cl->nr_stmts, reads_regs),
	};
	const struct st_event *siteless = NULL;
	const struct st_event_list *l;
	bool by_name, wild;
	char why[256] = "";
	size_t i;

	l = c->src->probe_events(c->src->ctx, &q, why, sizeof(why));
	if (!l && !st_probe_kind(p->kind)->has_target)
		return ck_err(c, p->event_pos, "%s", why[0] ? why : "unknown error");
	if (!l)
		return ck_err(c, p->target_pos, "cannot read the events of %s: %s", p->target,
			      why[0] ? why : "unknown error");
	by_name = st_probe_kind_by_name(st_probe_kind(p->kind));
	wild = strchr(p->target, '*') || strchr(p->provider, '*') || strchr(p->event, '*');
	for (i = 0; i < l->nr; i++) {
		if (by_name && !st_event_match(&l->events[i], p->provider, p->event))
			continue;
		if (!l->events[i].nr_sites) {
			if (!wild)
				return no_sites(c, p, l->events[i].path, false);
			siteless = &l->events[i];
			continue;
		}
		if (add_event(&p->events, &p->nr_events, &l->events[i]) ||
		    add_event(&c->clause->events, &c->clause->nr_events, &l->events[i]))
			return ck_oom(c);
	}
	if (!p->nr_events && siteless)
		return no_sites(c, p, siteless->path, true);
	if (!p->nr_events && st_probe_kind_function(st_probe_kind(p->kind)) &&
	    c->src->missing != ST_MISSING_ERROR)
		return skip_missing(c, p, l);
	if (!p->nr_events)
		return no_match(c, p, l);
	return 0;
}

/*
 * An iter: probe runs alone, as bpftrace's: the session ends once its
 * iterator is read (bpfload/iters.h), so it has one iterator and no other
 * events beside it (BEGIN, END and interval: run in sidetrace).
 */
static int iter_alone(struct checker *c, struct st_attach_point *p)
{
	bool iter = st_probe_kind(p->kind)->family == ST_FAMILY_ITER;

	if (iter && p->nr_events > 1)
		return ck_err(c, p->event_pos,
			      "iter:%s matches %u iterators: a program reads one (iter:%s, ...)",
			      p->event, p->nr_events, p->events[0]->name);
	if ((iter && c->nr_events) || (c->iter && p->nr_events))
		return ck_err(c, iter ? p->pos : c->iter->pos,
			      "an iter: probe runs alone, as in bpftrace: the session ends once "
			      "its iterator is read; BEGIN, END and interval: probes may be beside "
			      "it, no other probe");
	c->nr_events += p->nr_events;
	if (iter)
		c->iter = p;
	return 0;
}

int ck_sites_point(struct checker *c, struct st_attach_point *p)
{
	int ret = sites_point(c, p);

	/* A kind a glob over kinds expanded to and the probe names nothing of. */
	if (ret == -EINVAL && p->kind_glob)
		return skip(c, p);
	return ret ?: iter_alone(c, p);
}
