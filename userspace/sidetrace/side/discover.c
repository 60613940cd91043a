/* SPDX-License-Identifier: MIT */
/*
 * Discovery of SIDE events and USDT probes in object files and processes.
 *
 * An object's probe sites are its stapsdt notes; its SIDE events are the
 * descriptions that the "side_event_description_ptr" section points to.
 * The two meet by name: a note's provider and name are the description's,
 * sanitized to [A-Za-z0-9_].
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <side/abi/event-description.h>
#include <side/probe.h>

#include "common/side_types.h"
#include "side/discover.h"
#include "objfile/elf.h"
#include "side/notes.h"
#include "side/side_desc.h"

static int event_cmp(const void *a, const void *b)
{
	const struct st_event *x = a, *y = b;
	int c;

	/* SIDE events first, then plain USDT probes, each by name. */
	if (x->has_side != y->has_side)
		return x->has_side ? -1 : 1;
	c = strcmp(x->provider, y->provider);
	return c ? c : strcmp(x->name, y->name);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Read every description listed in side_event_description_ptr, each once.
 * One type-node budget for the whole file keeps a hostile file with many
 * large descriptions from costing more than a big legitimate one.
 */
static int descs_read(struct st_elf *e, struct st_event **evs, size_t *nr)
{
	unsigned long budget = ST_MAX_FILE_TYPE_NODES;
	size_t nr_addrs = 0, done = 0, i;
	uint64_t *addrs = NULL, n, addr;
	GElf_Shdr sh;
	int ret = 0;

	*evs = NULL;
	if (!st_elf_find_section(e, "side_event_description_ptr", &sh) || sh.sh_type == SHT_NOBITS)
		goto cleanup;
	n = sh.sh_size / sizeof(uint64_t);
	if (n > ST_MAX_EVENTS)
		n = ST_MAX_EVENTS;
	if (!n)
		goto cleanup;
	addrs = calloc(n, sizeof(*addrs));
	if (!addrs) {
		ret = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < n; i++)
		if (st_elf_read_ptr(e, sh.sh_addr + i * sizeof(uint64_t), &addr) && addr)
			addrs[nr_addrs++] = addr;
	if (!nr_addrs)
		goto cleanup;
	qsort(addrs, nr_addrs, sizeof(*addrs), u64_cmp);
	*evs = calloc(nr_addrs, sizeof(**evs));
	if (!*evs) {
		ret = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < nr_addrs; i++) {
		struct st_event *ev = &(*evs)[done];

		/* The same description listed twice is one event. */
		if (i && addrs[i] == addrs[i - 1])
			continue;
		if (st_read_event_desc(e, addrs[i], ev, &budget)) {
			/* Keep it visible: an unreadable description is news. */
			if (!ev->provider)
				ev->provider = strdup("?");
			if (!ev->name)
				ev->name = strdup("?");
		}
		ev->usdt_provider = ev->provider ? strdup(ev->provider) : NULL;
		ev->usdt_name = ev->name ? strdup(ev->name) : NULL;
		done++;
		if (!ev->provider || !ev->name || !ev->usdt_provider || !ev->usdt_name) {
			ret = -ENOMEM;
			goto cleanup;
		}
		st_sanitize_name(ev->usdt_provider);
		st_sanitize_name(ev->usdt_name);
	}
cleanup:
	free(addrs);
	*nr = done;
	return ret;
}

static int list_grow(struct st_event_list *out, size_t more)
{
	struct st_event *p;

	p = realloc(out->events, (out->nr + more) * sizeof(*p));
	if (!p && out->nr + more)
		return -ENOMEM;
	out->events = p;
	out->cap = out->nr + more;
	return 0;
}

/* Append the sites of notes[0..nr) to ev; their args strings move over. */
static int attach_sites(struct st_event *ev, struct st_note *notes, size_t nr)
{
	struct st_site *p;
	size_t i;

	p = realloc(ev->sites, (ev->nr_sites + nr) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	ev->sites = p;
	for (i = 0; i < nr; i++) {
		ev->sites[ev->nr_sites++] = notes[i].site;
		notes[i].site.args = NULL;
	}
	return 0;
}

/* Order of descriptions by sanitized names, to find a note's in log n. */
static int usdt_key_cmp(const void *a, const void *b)
{
	const struct st_event *x = *(struct st_event *const *)a;
	const struct st_event *y = *(struct st_event *const *)b;
	int c = strcmp(x->usdt_provider, y->usdt_provider);

	return c ? c : strcmp(x->usdt_name, y->usdt_name);
}

/*
 * The descriptions whose sanitized names are the note's: *first and how
 * many. Notes are meant to carry sanitized names, but the note's are
 * sanitized too, so that one written with the raw SIDE names still finds
 * its event.
 */
static int find_descs(struct st_event **index, size_t nr, const struct st_note *n, size_t *first,
		      size_t *count)
{
	struct st_event key = {0}, *kp = &key, **hit;
	int ret = 0;

	*count = 0;
	key.usdt_provider = strdup(n->provider);
	key.usdt_name = strdup(n->name);
	if (!key.usdt_provider || !key.usdt_name) {
		ret = -ENOMEM;
		goto cleanup;
	}
	st_sanitize_name(key.usdt_provider);
	st_sanitize_name(key.usdt_name);
	hit = nr ? bsearch(&kp, index, nr, sizeof(*index), usdt_key_cmp) : NULL;
	if (!hit)
		goto cleanup;
	*first = hit - index;
	while (*first && !usdt_key_cmp(&kp, &index[*first - 1]))
		(*first)--;
	while (*first + *count < nr && !usdt_key_cmp(&kp, &index[*first + *count]))
		(*count)++;
cleanup:
	free(key.usdt_provider);
	free(key.usdt_name);
	return ret;
}

/* The event's USDT names become the note's, as tools must spell them. */
static int take_note_names(struct st_event *ev, const struct st_note *n)
{
	char *p = strdup(n->provider), *e = strdup(n->name);

	if (!p || !e) {
		free(p);
		free(e);
		return -ENOMEM;
	}
	free(ev->usdt_provider);
	free(ev->usdt_name);
	ev->usdt_provider = p;
	ev->usdt_name = e;
	return 0;
}

static int set_error(struct st_event *ev, const char *msg)
{
	if (ev->error)
		return 0;
	ev->error = strdup(msg);
	return ev->error ? 0 : -ENOMEM;
}

/*
 * A SIDE site passes min(fields, SIDE_SDT_MAX_VALUES*) values, the
 * description and the argument vector (and the dynamic fields). A site
 * built otherwise would feed a tracer garbage: say so.
 */
static int check_site_args(struct st_event *ev)
{
	unsigned int max = ev->variadic ? SIDE_SDT_MAX_VALUES_VARIADIC : SIDE_SDT_MAX_VALUES;
	unsigned int expect, got;
	char msg[128];
	uint32_t i;

	expect = (ev->nr_fields < max ? ev->nr_fields : max) + 2 + ev->variadic;
	for (i = 0; i < ev->nr_sites; i++) {
		got = ev->sites[i].sdt.nr;
		if (got == expect)
			continue;
		snprintf(msg, sizeof(msg),
			 "probe site 0x%" PRIx64 " has %u SDT arguments, the SIDE layout has %u",
			 ev->sites[i].pc, got, expect);
		return set_error(ev, msg);
	}
	return 0;
}

/* A new event for a probe that no description names. */
static int add_plain(struct st_event_list *out, const struct st_note *n, struct st_event **ev)
{
	*ev = &out->events[out->nr++];
	memset(*ev, 0, sizeof(**ev));
	(*ev)->provider = strdup(n->provider);
	(*ev)->name = strdup(n->name);
	(*ev)->usdt_provider = strdup(n->provider);
	(*ev)->usdt_name = strdup(n->name);
	if (!(*ev)->provider || !(*ev)->name || !(*ev)->usdt_provider || !(*ev)->usdt_name)
		return -ENOMEM;
	return 0;
}

/* Path, and the warnings that only make sense once sites are known. */
static int finish_event(struct st_event *ev, const char *path, size_t skipped)
{
	char msg[128];
	uint32_t i;
	int ret;

	ev->path = strdup(path);
	if (!ev->path)
		return -ENOMEM;
	for (i = 0; i < ev->nr_sites && !ev->error; i++) {
		if (!ev->sites[i].sema_addr || ev->sites[i].sema_offset)
			continue;
		snprintf(msg, sizeof(msg),
			 "semaphore 0x%" PRIx64
			 " is not in file-backed data: the kernel cannot count attached probes",
			 ev->sites[i].sema_addr);
		ret = set_error(ev, msg);
		if (ret)
			return ret;
	}
	if (ev->has_side && !ev->error) {
		ret = check_site_args(ev);
		if (ret)
			return ret;
	}
	if (skipped && !ev->error) {
		snprintf(msg, sizeof(msg), "%zu malformed stapsdt notes in this file were ignored",
			 skipped);
		return set_error(ev, msg);
	}
	return 0;
}

/*
 * Match note groups with descriptions and append the result to out:
 * descriptions (with or without sites), then probes without description.
 */
static int merge(const char *path, struct st_note_vec *nv, struct st_event *descs, size_t nr_descs,
		 size_t skipped, struct st_event_list *out)
{
	size_t i, j, k, first = out->nr, d_first, d_count;
	struct st_event **index = NULL;
	int ret;

	/* Reserve it all now: index points into out->events. */
	ret = list_grow(out, nr_descs + nv->nr);
	if (ret)
		return ret;
	index = calloc(nr_descs ? nr_descs : 1, sizeof(*index));
	if (!index)
		return -ENOMEM;
	for (i = 0; i < nr_descs; i++) {
		index[i] = &out->events[out->nr];
		out->events[out->nr++] = descs[i];
		memset(&descs[i], 0, sizeof(descs[i]));
	}
	if (nr_descs)
		qsort(index, nr_descs, sizeof(*index), usdt_key_cmp);
	if (nv->nr)
		qsort(nv->v, nv->nr, sizeof(*nv->v), st_note_cmp);
	for (i = 0; i < nv->nr; i = j) {
		struct st_event *ev;

		for (j = i + 1; j < nv->nr; j++)
			if (strcmp(nv->v[i].provider, nv->v[j].provider) ||
			    strcmp(nv->v[i].name, nv->v[j].name))
				break;
		ret = find_descs(index, nr_descs, &nv->v[i], &d_first, &d_count);
		if (ret)
			goto cleanup;
		if (!d_count) {
			ret = add_plain(out, &nv->v[i], &ev);
			if (ret)
				goto cleanup;
		} else {
			ev = index[d_first];
			/* Notes cannot tell the others apart: say so. */
			for (k = 1; k < d_count; k++) {
				ret = set_error(index[d_first + k],
						"its sanitized USDT name is also another event's; "
						"its sites are listed there");
				if (ret)
					goto cleanup;
			}
			if (!ev->nr_sites) {
				ret = take_note_names(ev, &nv->v[i]);
				if (ret)
					goto cleanup;
			}
		}
		ret = attach_sites(ev, &nv->v[i], j - i);
		if (ret)
			goto cleanup;
	}
	for (i = first; i < out->nr; i++) {
		ret = finish_event(&out->events[i], path, skipped);
		if (ret)
			goto cleanup;
	}
	if (out->nr > first)
		qsort(out->events + first, out->nr - first, sizeof(*out->events), event_cmp);
cleanup:
	free(index);
	return ret;
}

int st_discover_file(const char *path, struct st_event_list *out, char *err, size_t errlen)
{
	struct st_event *descs = NULL;
	struct st_note_vec nv = {0};
	size_t nr_descs = 0, skipped = 0, i;
	struct st_elf e;
	int ret;

	ret = st_elf_open(path, &e, err, errlen);
	if (ret)
		return ret;
	ret = st_notes_read(&e, &nv, &skipped);
	if (!ret)
		ret = descs_read(&e, &descs, &nr_descs);
	if (!ret)
		ret = merge(path, &nv, descs, nr_descs, skipped, out);
	if (ret)
		snprintf(err, errlen, "%s", strerror(-ret));
	for (i = 0; i < nr_descs; i++)
		st_event_fini(&descs[i]);
	free(descs);
	st_notes_free(&nv);
	st_elf_close(&e);
	return ret;
}
