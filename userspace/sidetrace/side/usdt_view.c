// SPDX-License-Identifier: MIT
/* The usdt: view of probes (usdt_view.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/side_types.h"
#include "side/side_desc.h"
#include "side/usdt_view.h"

/* The integer type of an operand of size bytes (negative: signed); 8 bytes for other sizes. */
static void operand_type(int size, struct st_type *t)
{
	uint32_t n = size < 0 ? -size : size;

	memset(t, 0, sizeof(*t));
	t->is_signed = size < 0;
	if (!st_side_int_label(n, t->is_signed))
		n = 8;
	t->label = st_side_int_label(n, t->is_signed);
	t->size = n;
}

/* Operands beyond ST_MAX_SDT_ARGS are named but never read. */
static int view_fields(struct st_event *v, const struct st_site *site)
{
	uint32_t i, n = site ? site->sdt.nr : 0;

	if (n > ST_MAX_SDT_ARGS)
		n = ST_MAX_SDT_ARGS;
	v->fields = calloc(n + 1, sizeof(*v->fields));
	if (!v->fields)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (asprintf(&v->fields[i].name, "arg%u", i) < 0) {
			v->fields[i].name = NULL;
			return -ENOMEM;
		}
		v->nr_fields++;
		operand_type(site->sdt.spec[i].size, &v->fields[i].type);
	}
	return 0;
}

static int view_sites(struct st_event *v, const struct st_event *ev)
{
	uint32_t i;

	v->sites = calloc(ev->nr_sites + 1, sizeof(*v->sites));
	if (!v->sites)
		return -ENOMEM;
	for (i = 0; i < ev->nr_sites; i++) {
		v->sites[i] = ev->sites[i];
		v->sites[i].args = ev->sites[i].args ? strdup(ev->sites[i].args) : NULL;
		if (ev->sites[i].args && !v->sites[i].args)
			return -ENOMEM;
		v->nr_sites++;
	}
	return 0;
}

static int view_event(struct st_event *v, const struct st_event *ev)
{
	memset(v, 0, sizeof(*v));
	v->path = strdup(ev->path);
	v->provider = strdup(ev->usdt_provider);
	v->name = strdup(ev->usdt_name);
	v->usdt_provider = strdup(ev->usdt_provider);
	v->usdt_name = strdup(ev->usdt_name);
	v->kind = ST_AP_USDT;
	if (!v->path || !v->provider || !v->name || !v->usdt_provider || !v->usdt_name)
		return -ENOMEM;
	if (view_sites(v, ev))
		return -ENOMEM;
	return view_fields(v, ev->nr_sites ? &ev->sites[0] : NULL);
}

int st_usdt_view(const struct st_event_list *in, struct st_event_list *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->events = calloc(in->nr + 1, sizeof(*out->events));
	if (!out->events)
		return -ENOMEM;
	for (i = 0; i < in->nr; i++) {
		out->nr++;
		if (view_event(&out->events[i], &in->events[i]))
			return -ENOMEM;
	}
	return 0;
}
