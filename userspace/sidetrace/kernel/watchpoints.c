// SPDX-License-Identifier: MIT
/* The events of watchpoints: see watchpoints.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/watchpoints.h"

static struct st_watch breakpoint(const struct st_watch_spec *w)
{
	return (struct st_watch){
		.addr = w->addr, .arg = w->arg, .len = w->len, .bp_type = w->bp_type};
}

int st_watch_address_event(const struct st_probe_kind *k, const struct st_watch_spec *w,
			   const char *where, const char *len_mode, struct st_event_list *out)
{
	struct st_event *ev;
	char *name;

	if (asprintf(&name, "%s:%s", where, len_mode) < 0)
		return -ENOMEM;
	ev = st_kernel_event_add(out, k->kind, "", name);
	free(name);
	if (!ev)
		return -ENOMEM;
	ev->watch = breakpoint(w);
	return 0;
}

int st_watch_function_events(const struct st_probe_kind *k, const struct st_watch_spec *w,
			     const char *program, struct st_event_list *funcs)
{
	struct st_event *ev;
	char *name, *provider;
	size_t i;

	for (i = 0; i < funcs->nr; i++) {
		ev = &funcs->events[i];
		if (asprintf(&name, "%s:%u:%s", ev->name, w->len, w->mode) < 0)
			return -ENOMEM;
		provider = strdup(program);
		if (!provider) {
			free(name);
			return -ENOMEM;
		}
		free(ev->name);
		free(ev->provider);
		ev->name = name;
		ev->provider = provider;
		ev->kind = k->kind;
		ev->watch = breakpoint(w);
	}
	return 0;
}
