/* SPDX-License-Identifier: MIT */
/*
 * The stapsdt notes of an object file: one per probe site, with the
 * provider and name of its probe. Internal to discovery.
 */
#ifndef SIDETRACE_SIDE_NOTES_H
#define SIDETRACE_SIDE_NOTES_H

#include <stddef.h>

#include "objfile/elf.h"
#include "events/events.h"

/* One stapsdt note: a probe site and the probe it belongs to. */
struct st_note {
	char *provider;
	char *name;
	struct st_site site;
};

struct st_note_vec {
	struct st_note *v;
	size_t nr, cap;
};

/*
 * Collects every stapsdt note of e into nv (zero-initialized), sites with
 * their arguments parsed; *skipped counts malformed notes. 0 or -ENOMEM.
 */
int st_notes_read(struct st_elf *e, struct st_note_vec *nv, size_t *skipped);

/* Orders notes by provider, name, then address (for qsort). */
int st_note_cmp(const void *a, const void *b);

void st_notes_free(struct st_note_vec *nv);

#endif /* SIDETRACE_SIDE_NOTES_H */
