// SPDX-License-Identifier: MIT
/*
 * What a process's engine counted, read as the kernel's maps are read:
 * its per-CPU slots are more CPUs of st_flat and st_counters, its hashes
 * more keys of st_aggr and st_values (equal keys merge in the dump), and
 * clear() and zero() reach them too. Each function takes the list of
 * the session's processes (st_inproc.next), in order; NULL: none, nothing
 * to add.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/inproc_read.h"

uint32_t st_inproc_nr_slots(const struct st_inproc *ip)
{
	uint32_t n = 0;

	for (; ip; ip = ip->next)
		n += ip->params.nr_slots;
	return n;
}

/* The slot's st_val of each CPU slot of each process into out[], in order. */
void st_inproc_flat(const struct st_inproc *ip, uint32_t slot, struct st_val *out)
{
	uint32_t s;

	for (; ip; out += ip->params.nr_slots, ip = ip->next)
		for (s = 0; slot < ip->params.nr_flat && s < ip->params.nr_slots; s++)
			memcpy(&out[s],
			       st_inproc_percpu(ip, ip->lay.flat, sizeof(*out), ip->params.nr_flat,
						s, slot),
			       sizeof(*out));
}

/* Zeroes the slot in every CPU slot of every process; true if it had counted something. */
bool st_inproc_flat_zero(const struct st_inproc *ip, uint32_t slot)
{
	bool counted = false;
	struct st_val *v;
	uint32_t s;

	for (; ip; ip = ip->next) {
		for (s = 0; slot < ip->params.nr_flat && s < ip->params.nr_slots; s++) {
			v = st_inproc_percpu(ip, ip->lay.flat, sizeof(*v), ip->params.nr_flat, s,
					     slot);
			counted |= __atomic_load_n(&v->count, __ATOMIC_RELAXED) != 0;
			__atomic_store_n(&v->count, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&v->sum, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&v->min, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&v->max, 0, __ATOMIC_RELAXED);
		}
	}
	return counted;
}

void st_inproc_counters(const struct st_inproc *ip, uint64_t *totals, uint32_t nr)
{
	uint32_t s, i, n;

	for (; ip; ip = ip->next) {
		n = ip->params.nr_probes * ST_NR_COUNTERS;
		for (s = 0; s < ip->params.nr_slots; s++)
			for (i = 0; i < nr && i < n; i++)
				totals[i] += __atomic_load_n(
					(uint64_t *)st_inproc_percpu(ip, ip->lay.counters,
								     sizeof(uint64_t), n, s, i),
					__ATOMIC_RELAXED);
	}
}

/* One of the two hashes: aggregations, or plain values. */
static struct st_shm_hash *hash_of(const struct st_inproc *ip, bool plain,
				   const struct st_shm_hash_geom **geom)
{
	*geom = plain ? &ip->values_geom : &ip->aggr_geom;
	return (void *)(ip->shm + (plain ? ip->lay.values : ip->lay.aggr));
}

/* Whether key belongs to map_id (all maps: -1) and to the hash it is in. */
static bool key_wanted(const struct st_compiled *c, const uint8_t *key, int map_id, bool plain)
{
	uint32_t id = st_key_map_id(key);

	return id < c->nr_maps && (map_id < 0 || id == (uint32_t)map_id) &&
	       (c->maps[id].kind == ST_K_VALUE) == plain;
}

static int dump_hash(const struct st_inproc *ip, const struct st_compiled *c, bool plain,
		     int map_id, struct dump *d)
{
	const struct st_shm_hash_geom *g;
	struct st_shm_hash *h = hash_of(ip, plain, &g);
	struct st_val val = {.count = 1};
	uint8_t *key, *vals;
	uint32_t pos = 0, id;
	int ret = 0;

	key = calloc(1, g->key_size);
	vals = calloc(g->nr_values, g->value_size);
	if (!key || !vals) {
		ret = -ENOMEM;
		goto cleanup;
	}
	while (!ret && st_shm_hash_next(g, h, &pos, key, vals)) {
		if (!key_wanted(c, key, map_id, plain))
			continue;
		id = st_key_map_id(key);
		if (!plain)
			st_val_combine((struct st_val *)vals, g->nr_values,
				       c->maps[id].flags & ST_MAPF_SIGNED, &val);
		ret = st_dump_add(d, key, &val, plain ? vals : NULL);
		if (!ret)
			d->vals[d->nr - 1].newer = plain;
	}
cleanup:
	free(key);
	free(vals);
	return ret;
}

int st_inproc_dump(const struct st_inproc *ip, const struct st_compiled *c, int map_id,
		   struct dump *d)
{
	int ret = 0;

	for (; ip && !ret; ip = ip->next) {
		ret = dump_hash(ip, c, false, map_id, d);
		if (!ret)
			ret = dump_hash(ip, c, true, map_id, d);
	}
	return ret;
}

/* Deletes, or zeroes, the keys of map_id (all: -1) in one hash. */
static int reset_hash(const struct st_inproc *ip, const struct st_compiled *c, bool plain,
		      int map_id, bool zero)
{
	const struct st_shm_hash_geom *g;
	struct st_shm_hash *h = hash_of(ip, plain, &g);
	uint8_t *key, *vals;
	uint32_t pos = 0;
	int ret = 0;

	key = calloc(1, g->key_size);
	vals = calloc(g->nr_values, g->value_size);
	if (!key || !vals) {
		ret = -ENOMEM;
		goto cleanup;
	}
	while (st_shm_hash_next(g, h, &pos, key, vals)) {
		if (!key_wanted(c, key, map_id, plain))
			continue;
		if (zero)
			st_shm_hash_zero(g, h, key);
		else
			st_shm_hash_delete(g, h, key);
	}
cleanup:
	free(key);
	free(vals);
	return ret;
}

int st_inproc_reset_keys(const struct st_inproc *ip, const struct st_compiled *c, int map_id,
			 bool zero)
{
	int ret = 0;

	for (; ip && !ret; ip = ip->next) {
		ret = reset_hash(ip, c, false, map_id, zero);
		if (!ret)
			ret = reset_hash(ip, c, true, map_id, zero);
	}
	return ret;
}

int st_inproc_consume(const struct st_inproc *ip,
		      int (*cb)(void *ctx, const void *data, uint32_t len), void *ctx)
{
	int n = 0, ret;

	for (; ip; ip = ip->next) {
		ret = st_shm_ring_consume((void *)(ip->shm + ip->lay.ring), ip->params.ring_size,
					  cb, ctx);
		if (ret < 0)
			return ret;
		n += ret;
	}
	return n;
}

void st_inproc_elem_agg(const struct st_inproc *ip, const struct st_map_cfg *mc, const void *key,
			struct st_val *out)
{
	const struct st_shm_hash_geom *g;
	struct st_shm_hash *h;
	const struct st_val *v;
	uint32_t s;

	if (mc->flags & ST_MAPF_FLAT) {
		st_inproc_flat(ip, mc->flat_base, out);
		return;
	}
	for (; ip; out += ip->params.nr_slots, ip = ip->next) {
		h = hash_of(ip, false, &g);
		for (s = 0; s < g->nr_values; s++) {
			v = st_shm_hash_lookup(g, h, key, s);
			if (v)
				memcpy(&out[s], v, sizeof(*v));
		}
	}
}

bool st_inproc_elem_value(const struct st_inproc *ip, const void *key, struct st_value *out)
{
	const struct st_shm_hash_geom *g;
	struct st_shm_hash *h;
	const struct st_value *v;

	for (; ip; ip = ip->next) {
		h = hash_of(ip, true, &g);
		v = st_shm_hash_lookup(g, h, key, 0);
		if (v) {
			memcpy(out, v, sizeof(*out));
			return true;
		}
	}
	return false;
}

int st_inproc_elem_write(const struct st_inproc *ip, const void *key, const struct st_value *v)
{
	const struct st_shm_hash_geom *g;
	struct st_shm_hash *h;

	int ret = 0;

	for (; ip && !ret; ip = ip->next) {
		h = hash_of(ip, true, &g);
		ret = st_shm_hash_update(g, h, key, v, 0, ST_SHM_ANY);
	}
	return ret;
}

void st_inproc_elem_delete(const struct st_inproc *ip, bool plain, const void *key)
{
	const struct st_shm_hash_geom *g;
	struct st_shm_hash *h;

	for (; ip; ip = ip->next) {
		h = hash_of(ip, plain, &g);
		st_shm_hash_delete(g, h, key);
	}
}
