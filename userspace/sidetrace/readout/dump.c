// SPDX-License-Identifier: MIT
/* The dump of keys and combined values that every reader of the maps adds to. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "readout/dump.h"

uint32_t st_key_map_id(const uint8_t *key)
{
	struct st_key_hdr hdr;

	memcpy(&hdr, key, sizeof(hdr));
	return hdr.map_id;
}

/*
 * Sums the CPUs' copies and decodes min and max (see struct st_val): the
 * result holds them as plain values. Counts and sums wrap, as the
 * kernel's atomic adds do: a process's engine may leave any value.
 */
void st_val_combine(const struct st_val *percpu, int ncpus, bool is_signed, struct st_val *out)
{
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < ncpus; i++) {
		const struct st_val *v = &percpu[i];

		out->count = st_binary(ST_B_ADD, out->count, v->count);
		out->sum = st_binary(ST_B_ADD, out->sum, v->sum);
		if (v->min > out->min)
			out->min = v->min;
		if (v->max > out->max)
			out->max = v->max;
	}
	out->min = st_min_decode(out->min, is_signed);
	out->max = st_max_decode(out->max, is_signed);
}

/*
 * Adds v, a combined value of a key that reads the same as into's, to
 * into: counts and sums add up, the least min and the greatest max stay.
 */
static void val_merge(struct st_val *into, const struct st_val *v, bool is_signed)
{
	bool less_min = is_signed ? (int64_t)v->min < (int64_t)into->min : v->min < into->min;
	bool more_max = is_signed ? (int64_t)v->max > (int64_t)into->max : v->max > into->max;

	if (v->count && (!into->count || less_min))
		into->min = v->min;
	if (v->count && (!into->count || more_max))
		into->max = v->max;
	into->count = st_binary(ST_B_ADD, into->count, v->count);
	into->sum = st_binary(ST_B_ADD, into->sum, v->sum);
}

/* Keys that read the same (see st_addr_key_resolve()) become one: their values add up. */
void st_dump_merge_equal(const struct st_compiled *c, struct dump *d)
{
	size_t ks = d->key_size, i, n = 0;
	uint32_t id;

	for (i = 0; i < d->nr; i++) {
		id = st_key_map_id(d->keys + i * ks);
		if (n && id < c->nr_maps && !memcmp(d->keys + (n - 1) * ks, d->keys + i * ks, ks)) {
			val_merge(&d->vals[n - 1].v, &d->vals[i].v,
				  c->maps[id].flags & ST_MAPF_SIGNED);
			if (d->vals[i].newer)
				memcpy(d->vals[n - 1].raw, d->vals[i].raw, ST_STR_LEN);
			continue;
		}
		if (n != i) {
			memcpy(d->keys + n * ks, d->keys + i * ks, ks);
			d->vals[n] = d->vals[i];
		}
		n++;
	}
	d->nr = n;
}

static int dump_grow(struct dump *d)
{
	size_t cap = d->cap ? 2 * d->cap : 64;
	struct dump_val *vals;
	uint8_t *keys;

	vals = realloc(d->vals, cap * sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	d->vals = vals;
	keys = realloc(d->keys, cap * d->key_size);
	if (!keys)
		return -ENOMEM;
	d->keys = keys;
	d->cap = cap;
	return 0;
}

int st_dump_add(struct dump *d, const uint8_t *key, const struct st_val *v, const void *raw)
{
	int ret;

	if (d->nr == d->cap) {
		ret = dump_grow(d);
		if (ret)
			return ret;
	}
	memcpy(d->keys + d->nr * d->key_size, key, d->key_size);
	if (v)
		d->vals[d->nr].v = *v;
	if (raw)
		memcpy(d->vals[d->nr].raw, raw, ST_STR_LEN);
	d->vals[d->nr].newer = false;
	d->nr++;
	return 0;
}

void st_dump_free(struct dump *d)
{
	free(d->keys);
	free(d->vals);
	memset(d, 0, sizeof(*d));
}
