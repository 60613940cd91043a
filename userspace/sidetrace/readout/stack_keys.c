// SPDX-License-Identifier: MIT
/* Stack keys cut to N frames, made one where they print alike (stack_keys.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpfload/stacks.h"
#include "readout/stack_keys.h"

/* A stack value of a key part, and what it becomes. */
struct stack_ref {
	uint64_t v;
	uint64_t canon;
	bool readable;
	uint8_t *prefix; /* its innermost frames, as the kernel keeps them */
};

struct order {
	size_t bytes; /* of a prefix */
	bool user; /* a user stack's process (its value's high half) groups first */
};

static int cmp_value(const void *a, const void *b)
{
	const struct stack_ref *x = a, *y = b;

	return (x->v > y->v) - (x->v < y->v);
}

/* Readable stacks by process and frames, each group's least value first. */
static int cmp_frames(const void *a, const void *b, void *ctx)
{
	const struct stack_ref *x = a, *y = b;
	const struct order *o = ctx;
	int r;

	if (x->readable != y->readable)
		return x->readable ? -1 : 1;
	if (x->readable && o->user && ST_USTACK_PID(x->v) != ST_USTACK_PID(y->v))
		return ST_USTACK_PID(x->v) < ST_USTACK_PID(y->v) ? -1 : 1;
	r = x->readable ? memcmp(x->prefix, y->prefix, o->bytes) : 0;
	return r ? r : cmp_value(a, b);
}

static uint64_t *part_of(const struct dump *d, size_t i, uint32_t off)
{
	return (uint64_t *)(d->keys + i * d->key_size + ST_KEY_HDR + off);
}

/* The distinct values of part off among map m's keys, sorted; NULL when out of memory. */
static struct stack_ref *values(const struct dump *d, uint32_t m, uint32_t off, size_t *nr)
{
	struct stack_ref *refs = calloc(d->nr + 1, sizeof(*refs));
	size_t i, n = 0;
	uint64_t v;

	for (i = 0; refs && i < d->nr; i++) {
		if (st_key_map_id(d->keys + i * d->key_size) != m)
			continue;
		memcpy(&v, part_of(d, i, off), sizeof(v));
		refs[n++].v = v;
	}
	if (refs)
		qsort(refs, n, sizeof(*refs), cmp_value);
	for (i = 0, *nr = 0; refs && i < n; i++)
		if (!*nr || refs[*nr - 1].v != refs[i].v)
			refs[(*nr)++] = refs[i];
	return refs;
}

static int merge_part(const struct st_tracer *t, struct dump *d, uint32_t m,
		      const struct st_kpart *p)
{
	struct order o = {(size_t)p->frames * ST_STACK_FRAME_BYTES, p->kind == ST_KPART_USTACK};
	struct stack_ref *refs, *r;
	size_t nr, i, g;
	uint64_t v;
	int ret = 0;

	refs = values(d, m, p->off, &nr);
	if (!refs)
		return -ENOMEM;
	for (i = 0; i < nr && !ret; i++) {
		refs[i].prefix = malloc(o.bytes);
		if (!refs[i].prefix)
			ret = -ENOMEM;
		else
			refs[i].readable = st_stack_prefix(&t->bpf, o.user, refs[i].v, p->frames,
							   refs[i].prefix);
	}
	if (ret)
		goto cleanup;
	qsort_r(refs, nr, sizeof(*refs), cmp_frames, &o);
	for (i = 0, g = 0; i < nr; i++) {
		/* Sorted so that a group's stacks follow its first. */
		if (!refs[i].readable ||
		    (o.user && ST_USTACK_PID(refs[g].v) != ST_USTACK_PID(refs[i].v)) ||
		    memcmp(refs[g].prefix, refs[i].prefix, o.bytes))
			g = i;
		refs[i].canon = refs[g].v;
	}
	qsort(refs, nr, sizeof(*refs), cmp_value);
	for (i = 0; i < d->nr; i++) {
		if (st_key_map_id(d->keys + i * d->key_size) != m)
			continue;
		memcpy(&v, part_of(d, i, p->off), sizeof(v));
		r = bsearch(&(struct stack_ref){.v = v}, refs, nr, sizeof(*refs), cmp_value);
		if (r)
			memcpy(part_of(d, i, p->off), &r->canon, sizeof(r->canon));
	}
cleanup:
	for (i = 0; i < nr; i++)
		free(refs[i].prefix);
	free(refs);
	return ret;
}

int st_stack_keys_merge(const struct st_tracer *t, const struct st_compiled *c, struct dump *d)
{
	uint32_t m, k;
	int ret = 0;

	for (m = 0; m < c->nr_maps && !ret; m++)
		for (k = 0; k < c->layouts[m].nr_parts && !ret; k++) {
			const struct st_kpart *p = &c->layouts[m].parts[k];

			if ((p->kind == ST_KPART_USTACK || p->kind == ST_KPART_KSTACK) && p->frames)
				ret = merge_part(t, d, m, p);
		}
	return ret;
}
