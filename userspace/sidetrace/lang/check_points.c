// SPDX-License-Identifier: MIT
/*
 * Matching side: probes to the events of their targets, wildcards included.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discovery/discovery.h"
#include "lang/check.h"

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
	struct names all = {0}, near = {0};
	char want[512], have[512];
	size_t i;

	snprintf(want, sizeof(want), "%s:%s", p->provider, p->event);
	for (i = 0; i < l->nr; i++) {
		ck_names_add(&all, l->events[i].provider, l->events[i].name);
		snprintf(have, sizeof(have), "%s:%s", l->events[i].provider, l->events[i].name);
		if (ck_is_near(want, have))
			ck_names_add(&near, have, NULL);
	}
	if (!l->nr)
		ck_err(c, p->target_pos, "%s has no SIDE event", p->target);
	else if (strchr(want, '*'))
		ck_err(c, p->provider_pos, "no event of %s matches %s", p->target, want);
	else
		ck_err(c, p->provider_pos, "unknown event %s in %s", want, p->target);
	if (near.n)
		st_diag_hint(c->diag, "did you mean %s?", near.buf);
	else if (l->nr)
		st_diag_hint(c->diag, "events of %s: %s", p->target, all.buf);
	return -EINVAL;
}

int ck_side_point(struct checker *c, struct st_attach_point *p)
{
	const struct st_event_list *l;
	char why[256] = "";
	size_t i;

	l = c->src->target_events(c->src->ctx, p->target, why, sizeof(why));
	if (!l)
		return ck_err(c, p->target_pos, "cannot read the events of %s: %s", p->target,
			      why[0] ? why : "unknown error");
	for (i = 0; i < l->nr; i++) {
		if (!st_event_match(&l->events[i], p->provider, p->event))
			continue;
		if (add_event(&p->events, &p->nr_events, &l->events[i]) ||
		    add_event(&c->clause->events, &c->clause->nr_events, &l->events[i]))
			return ck_oom(c);
	}
	if (!p->nr_events)
		return no_match(c, p, l);
	return 0;
}
