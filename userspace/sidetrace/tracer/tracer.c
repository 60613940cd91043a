// SPDX-License-Identifier: MIT
/* A session's probes, in the kernel and in processes, and their end (tracer.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tracer/tracer.h"

int st_tracer_load(struct st_tracer *t, const struct st_compiled *c, char *err, size_t errlen)
{
	if (!t->stacks && !(t->stacks = st_stacks_new())) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return st_loader_load(&t->bpf, c, err, errlen);
}

int st_tracer_attach(struct st_tracer *t, const struct st_compiled *c, pid_t pid, char *err,
		     size_t errlen)
{
	int ret = st_loader_attach(&t->bpf, c, pid, err, errlen);

	if (ret >= 0 && c->reattach && st_replaced_watch(&t->replaced, c)) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
	}
	return ret;
}

bool st_tracer_exit_requested(const struct st_tracer *t)
{
	return st_loader_exit_requested(&t->bpf) || st_inproc_exit_requested(st_tracer_inprocs(t));
}

void st_tracer_begin(struct st_tracer *t)
{
	st_inprocs_begin(&t->inproc);
	st_loader_begin(&t->bpf);
}

void st_tracer_stop(const struct st_tracer *t, bool settle)
{
	st_inproc_stop(st_tracer_inprocs(t));
	st_loader_stop(&t->bpf, settle);
}

void st_tracer_close(struct st_tracer *t)
{
	/* The attach threads first: they add to the list. */
	st_inprocs_close(&t->inproc);
	st_loader_close(&t->bpf);
	st_replaced_free(t->replaced);
	t->replaced = NULL;
	st_stacks_free(t->stacks);
	t->stacks = NULL;
}
