// SPDX-License-Identifier: MIT
/* Traced files replaced on disk, attached again; see replaced.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "events/event_same.h"
#include "targets/targets.h"
#include "bpfload/loader.h"
#include "bpfload/replaced.h"
#include "util/clock.h"

int st_replaced_watch(struct st_replaced **out, const struct st_compiled *c)
{
	struct st_replaced *r = calloc(1, sizeof(*r));
	struct st_replaced_file *f;
	const char *path;
	struct stat st;
	uint32_t i;
	size_t j;

	if (!r)
		return -ENOMEM;
	*out = r;
	r->files = calloc(c->nr_probes + 1, sizeof(*r->files));
	if (!r->files)
		return -ENOMEM;
	for (i = 0; i < c->nr_probes; i++) {
		path = c->probes[i].event->path;
		for (j = 0; j < r->nr && strcmp(r->files[j].path, path); j++)
			;
		if (j < r->nr || stat(path, &st))
			continue;
		f = &r->files[r->nr];
		f->path = strdup(path);
		if (!f->path)
			return -ENOMEM;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		r->nr++;
	}
	r->next_check_ns = st_now_ns() + ST_REPLACED_CHECK_S * 1000000000ULL;
	return 0;
}

/* The event of q's file that is probe p's, or NULL. */
static const struct st_event *find_event(struct st_target_set *ts, const struct st_event *old,
					 char *err, size_t errlen)
{
	struct st_probe_query q = {.target = old->path, .kind = old->kind};
	const struct st_event_list *list;
	size_t i;

	if (st_probe_kind_function(st_event_kind(old)))
		q.function = old->name;
	list = st_target_query(ts, &q, err, errlen);
	for (i = 0; list && i < list->nr; i++)
		if (st_event_same_probe(&list->events[i], old))
			return &list->events[i];
	return NULL;
}

/* Attaches c's probes in f->path to the new file there. 0, or -errno and why in err. */
static int attach_new(struct st_loader *l, const struct st_compiled *c, struct st_replaced_file *f,
		      char *err, size_t errlen)
{
	struct st_site_gen gen = {0};
	const struct st_event *old, *ev;
	uint32_t i, n = 0;
	int ret = -ENOMEM;

	gen.events = calloc(c->nr_probes + 1, sizeof(*gen.events));
	gen.site_base = calloc(c->nr_probes + 1, sizeof(*gen.site_base));
	if (!gen.events || !gen.site_base) {
		snprintf(err, errlen, "out of memory");
		goto cleanup;
	}
	for (i = 0; i < c->nr_probes; i++) {
		old = c->probes[i].event;
		if (strcmp(old->path, f->path))
			continue;
		ev = find_event(&gen.targets, old, err, errlen);
		if (!ev || !st_event_same_shape(ev, old)) {
			if (ev || !*err)
				snprintf(err, errlen,
					 "%s is not in it as the program was compiled for",
					 c->probes[i].name);
			ret = -EINVAL;
			goto cleanup;
		}
		gen.events[i] = ev;
		n++;
	}
	ret = n ? st_loader_add_gen(l, c, &gen, err, errlen) : 0;
cleanup:
	free(gen.events);
	free(gen.site_base);
	st_target_set_free(&gen.targets);
	return ret;
}

/* Whether f's path holds a new file that stood still since the last check. */
static bool settled(struct st_replaced_file *f, const struct stat *st)
{
	bool same = f->seen.dev == st->st_dev && f->seen.ino == st->st_ino &&
		    f->seen.size == st->st_size && f->seen.mtime.tv_sec == st->st_mtim.tv_sec &&
		    f->seen.mtime.tv_nsec == st->st_mtim.tv_nsec;

	f->seen.dev = st->st_dev;
	f->seen.ino = st->st_ino;
	f->seen.size = st->st_size;
	f->seen.mtime = st->st_mtim;
	return same;
}

int st_replaced_poll(struct st_replaced *r, struct st_loader *l, const struct st_compiled *c)
{
	struct st_replaced_file *f;
	char err[512];
	struct stat st;
	int done = 0;
	size_t i;

	if (!r || st_now_ns() < r->next_check_ns)
		return 0;
	r->next_check_ns = st_now_ns() + ST_REPLACED_CHECK_S * 1000000000ULL;
	for (i = 0; i < r->nr; i++) {
		f = &r->files[i];
		if (stat(f->path, &st) || !S_ISREG(st.st_mode) ||
		    (st.st_dev == f->dev && st.st_ino == f->ino) || !settled(f, &st))
			continue;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		err[0] = '\0';
		if (attach_new(l, c, f, err, sizeof(err))) {
			__atomic_add_fetch(&f->refused, 1, __ATOMIC_RELAXED);
			fprintf(stderr,
				"sidetrace: %s was replaced on disk; the new file is not traced: "
				"%s\n",
				f->path, err);
			continue;
		}
		__atomic_add_fetch(&f->attached, 1, __ATOMIC_RELAXED);
		done++;
		fprintf(stderr, "sidetrace: %s was replaced on disk; the new file is traced too\n",
			f->path);
	}
	return done;
}

void st_replaced_free(struct st_replaced *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr; i++)
		free(r->files[i].path);
	free(r->files);
	free(r);
}
