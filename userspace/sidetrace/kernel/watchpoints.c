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

/*
 * Function ev's watchpoint, appended to out: named, its breakpoint, its
 * site the function's entry (where the argument is read); no fields, as
 * an address's watchpoint has none.
 */
static int function_event(const struct st_probe_kind *k, const struct st_watch_spec *w,
			  const char *program, const struct st_event *ev, struct st_event_list *out)
{
	struct st_event *wev;
	char *name;

	if (asprintf(&name, "%s:%u:%s", ev->name, w->len, w->mode) < 0)
		return -ENOMEM;
	wev = st_kernel_event_add(out, k->kind, program, name);
	free(name);
	if (!wev)
		return -ENOMEM;
	free(wev->path);
	wev->path = strdup(ev->path);
	if (!wev->path)
		return -ENOMEM;
	wev->sites[0].pc = ev->sites[0].pc;
	wev->sites[0].file_offset = ev->sites[0].file_offset;
	wev->watch = breakpoint(w);
	return 0;
}

int st_watch_function_events(const struct st_probe_kind *k, const struct st_watch_spec *w,
			     const char *program, struct st_event_list *funcs)
{
	struct st_event_list out = {0};
	size_t i;
	int ret = 0;

	for (i = 0; i < funcs->nr && !ret; i++)
		ret = function_event(k, w, program, &funcs->events[i], &out);
	if (ret) {
		st_event_list_free(&out);
		return ret;
	}
	out.why_none = funcs->why_none;
	funcs->why_none = NULL;
	st_event_list_free(funcs);
	*funcs = out;
	return 0;
}
