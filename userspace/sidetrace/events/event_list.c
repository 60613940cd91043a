// SPDX-License-Identifier: MIT
/* Lists of events: adding a kernel event, freeing, matching by glob. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "events/events.h"

struct st_event *st_kernel_event_add(struct st_event_list *out, enum st_ap_kind kind,
				     const char *provider, const char *name)
{
	struct st_event *evs, *ev;

	if (out->nr >= out->cap) {
		size_t cap = out->cap > out->nr ? out->cap : out->nr;

		cap = cap < 16 ? 16 : 2 * cap;
		evs = realloc(out->events, cap * sizeof(*evs));
		if (!evs)
			return NULL;
		out->events = evs;
		out->cap = cap;
	}
	ev = &out->events[out->nr++];
	memset(ev, 0, sizeof(*ev));
	ev->kind = kind;
	ev->path = strdup("");
	ev->provider = strdup(provider);
	ev->name = strdup(name);
	ev->usdt_provider = strdup(provider);
	ev->usdt_name = strdup(name);
	ev->sites = calloc(1, sizeof(*ev->sites));
	if (!ev->path || !ev->provider || !ev->name || !ev->usdt_provider || !ev->usdt_name ||
	    !ev->sites)
		return NULL;
	ev->nr_sites = 1;
	return ev;
}

void st_event_list_free(struct st_event_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		st_event_fini(&l->events[i]);
	free(l->events);
	free(l->why_none);
	l->events = NULL;
	l->why_none = NULL;
	l->nr = 0;
	l->cap = 0;
}

static bool glob_match(const char *glob, const char *a, const char *b)
{
	if (!glob)
		return true;
	return (a && !fnmatch(glob, a, 0)) || (b && !fnmatch(glob, b, 0));
}

bool st_event_match(const struct st_event *ev, const char *provider_glob, const char *name_glob)
{
	return glob_match(provider_glob, ev->provider, ev->usdt_provider) &&
	       glob_match(name_glob, ev->name, ev->usdt_name);
}

size_t st_events_match(const struct st_event_list *l, const char *provider_glob,
		       const char *name_glob, size_t *idx, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < l->nr; i++) {
		if (!st_event_match(&l->events[i], provider_glob, name_glob))
			continue;
		if (n < max)
			idx[n] = i;
		n++;
	}
	return n;
}

void st_event_fini(struct st_event *ev)
{
	uint32_t i;

	for (i = 0; i < ev->nr_fields; i++) {
		free(ev->fields[i].name);
		st_type_fini(&ev->fields[i].type);
	}
	free(ev->fields);
	for (i = 0; i < ev->nr_sites; i++)
		free(ev->sites[i].args);
	free(ev->sites);
	free(ev->path);
	free(ev->provider);
	free(ev->name);
	free(ev->usdt_provider);
	free(ev->usdt_name);
	free(ev->attrs);
	free(ev->error);
	free(ev->inlined);
	free(ev->missed);
	free(ev->ctx_decl);
	memset(ev, 0, sizeof(*ev));
}
