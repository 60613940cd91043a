// SPDX-License-Identifier: MIT
/*
 * What a process's engine counted, read as the kernel's maps are read:
 * its per-CPU slots are more CPUs of st_flat and st_counters, its hashes
 * more keys of st_aggr and st_values (their callers merge equal keys), and
 * clear() and zero() reach them too. Each function takes the list of
 * the session's processes (st_inproc.next), in order; NULL: none, nothing
 * to add.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "readout/compact_keys.h"
#include "readout/dump.h"
#include "readout/inproc_read.h"
#include "util/escape.h"

/*
 * Back-off rounds that one read of a process's hashes may wait for the
 * entries it holds (its owner mid-write) before it gives up on the rest
 * at their first try: a few ms at most, where an honest process holds an
 * entry for a few hundred ns. Per process, so that one holding all of
 * its entries delays no other's.
 */
#define READ_WAITS 1024

/* A new read of the list's hashes: each process's budget of waits anew. */
static void new_read(const struct st_inproc *ip, bool all)
{
	for (; ip; ip = all ? ip->next : NULL)
		if (ip->aggr_geom.budget)
			__atomic_store_n(&ip->aggr_geom.budget->waits, READ_WAITS,
					 __ATOMIC_RELAXED);
}

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

/* The engine's hashes, as the kernel's maps st_aggr, st_aggr_compact and st_values. */
enum engine_hash {
	HASH_AGGR,
	HASH_COMPACT,
	HASH_VALUES,
};

static struct st_shm_hash *hash_of(const struct st_inproc *ip, enum engine_hash which,
				   const struct st_shm_hash_geom **geom)
{
	switch (which) {
	case HASH_AGGR:
		*geom = &ip->aggr_geom;
		return (void *)(ip->shm + ip->lay.aggr);
	case HASH_COMPACT:
		*geom = &ip->compact_geom;
		return (void *)(ip->shm + ip->lay.compact);
	default:
		*geom = &ip->values_geom;
		return (void *)(ip->shm + ip->lay.values);
	}
}

/* Whether key belongs to map_id (all maps: -1) and to the hash it is in. */
static bool key_wanted(const struct st_compiled *c, const uint8_t *key, int map_id, bool plain)
{
	uint32_t id = st_key_map_id(key);

	return id < c->nr_maps && (map_id < 0 || id == (uint32_t)map_id) &&
	       (c->maps[id].kind == ST_K_VALUE) == plain;
}

/* What each_key() hands its function: one key of one hash, with its values. */
struct key_visit {
	const struct st_inproc *ip; /* the process whose memory holds it */
	const struct st_compiled *c;
	const struct st_shm_hash_geom *g;
	struct st_shm_hash *h;
	bool plain;
	bool compact; /* key is compact (st_compact_key_expand()) */
	const uint8_t *key;
	uint8_t *vals;
};

/*
 * Calls fn for each key of map_id (all: -1) in one hash of every
 * process, until fn fails. 0 or -errno.
 */
static int each_key(const struct st_inproc *ip, const struct st_compiled *c, enum engine_hash which,
		    int map_id, int (*fn)(const struct key_visit *v, void *ctx), void *ctx)
{
	bool plain = which == HASH_VALUES;
	struct key_visit v = {.c = c, .plain = plain, .compact = which == HASH_COMPACT};
	uint8_t *key = NULL;
	uint32_t pos;
	int ret = 0;

	for (; ip && !ret; ip = ip->next) {
		v.ip = ip;
		v.h = hash_of(ip, which, &v.g);
		free(key);
		free(v.vals);
		key = calloc(1, v.g->key_size);
		v.vals = calloc(v.g->nr_values, v.g->value_size);
		if (!key || !v.vals) {
			ret = -ENOMEM;
			break;
		}
		v.key = key;
		pos = 0;
		while (!ret && st_shm_hash_next(v.g, v.h, &pos, key, v.vals))
			if (key_wanted(c, key, map_id, plain))
				ret = fn(&v, ctx);
	}
	free(key);
	free(v.vals);
	return ret;
}

/* What an aggregation's key visit hands on: the key and its value over CPU slots. */
struct aggr_ctx {
	int (*fn)(void *ctx, const uint8_t *key, const struct st_val *val, bool plain,
		  const void *value);
	void *ctx;
	uint8_t *full; /* a compact key in its whole form */
};

/* Whether the process may key with pid: its own (its threads' tgid) only. */
static bool own_pid(const struct st_inproc *ip, const uint8_t *part)
{
	uint64_t pid;

	memcpy(&pid, part, sizeof(pid));
	return pid == (uint64_t)ip->pid;
}

/* Whether site is one the process's engine keys literals from (st_inproc.lit_site). */
static bool own_literal_site(const struct st_inproc *ip, const struct st_compiled *c,
			     const uint8_t *part)
{
	struct st_ro_ref ref;
	uint32_t i;

	memcpy(&ref, part, sizeof(ref));
	for (i = 0; ip->lit_site && i < c->nr_probes; i++)
		if (ip->lit_site[i] != UINT32_MAX && ref.site == ip->lit_site[i])
			return true;
	return false;
}

/*
 * Whether key (whole), read from ip's memory, names only what the process
 * may: its own pid in a pid part and as a usym()'s process (whose files
 * would be read and named), a string literal only by a site its engine
 * was handed (an object it maps, not another's read from its file), and
 * no stack: its engine serves no probe that takes one, whose id would
 * name the kernel's stack of another process. And a key as the engine
 * writes them: of a map with keys, zero past its length, or it would
 * print as another key of the same parts.
 */
static bool own_key(const struct st_inproc *ip, const struct st_compiled *c, const uint8_t *key)
{
	const struct st_map_layout *lay;
	const struct st_map_cfg *mc;
	const struct st_kpart *p;
	struct st_key_hdr hdr;
	const uint8_t *part;
	uint32_t k;

	memcpy(&hdr, key, sizeof(hdr));
	lay = &c->layouts[hdr.map_id];
	mc = &c->maps[hdr.map_id];
	if (mc->flags & ST_MAPF_FLAT)
		return false;
	for (k = st_key_len(mc->kind, mc->key_size); k < c->key_size; k++)
		if (key[k])
			return false;
	if (hdr.addr_parts &&
	    (!(mc->flags & ST_MAPF_READ_WHOLE) || hdr.addr_parts >> lay->nr_parts))
		return false;
	for (k = 0; k < lay->nr_parts; k++) {
		p = &lay->parts[k];
		part = key + ST_KEY_HDR + p->off;
		if (hdr.addr_parts & (1U << k)) {
			if (p->kind != ST_KPART_STR || !own_literal_site(ip, c, part))
				return false;
		} else if (p->kind == ST_KPART_USTACK || p->kind == ST_KPART_KSTACK) {
			return false;
		} else if ((p->kind == ST_KPART_USYM && !own_pid(ip, part + ST_KPART_USYM_PID)) ||
			   (p->kind == ST_KPART_INT && p->pid && !own_pid(ip, part))) {
			return false;
		}
	}
	return true;
}

/*
 * each_key(): the key, whole, and its values combined over CPU slots, to
 * the caller's fn; a key that names what the process may not is counted
 * and left out.
 */
static int visit_key(const struct key_visit *v, void *ctx)
{
	struct st_val val = {.count = 1};
	uint32_t id = st_key_map_id(v->key);
	struct aggr_ctx *ac = ctx;

	if (v->compact && !st_compact_key_expand(v->c, v->key, ac->full))
		return 0;
	if (!own_key(v->ip, v->c, v->compact ? ac->full : v->key)) {
		/* The list is the readers' (const); its tallies are counters. */
		__atomic_add_fetch(&((struct st_inproc *)v->ip)->tally.refused, 1,
				   __ATOMIC_RELAXED);
		return 0;
	}
	if (!v->plain)
		st_val_combine((struct st_val *)v->vals, v->g->nr_values,
			       v->c->maps[id].flags & ST_MAPF_SIGNED, &val);
	return ac->fn(ac->ctx, v->compact ? ac->full : v->key, &val, v->plain,
		      v->plain ? v->vals : NULL);
}

int st_inproc_each_key(const struct st_inproc *ip, const struct st_compiled *c, int map_id,
		       bool values,
		       int (*fn)(void *ctx, const uint8_t *key, const struct st_val *val,
				 bool plain, const void *value),
		       void *ctx)
{
	struct aggr_ctx ac = {.fn = fn, .ctx = ctx};
	int ret;

	if (!ip)
		return 0;
	new_read(ip, true);
	ac.full = calloc(1, c->key_size);
	if (!ac.full)
		return -ENOMEM;
	ret = each_key(ip, c, HASH_AGGR, map_id, visit_key, &ac);
	if (!ret)
		ret = each_key(ip, c, HASH_COMPACT, map_id, visit_key, &ac);
	if (!ret && values)
		ret = each_key(ip, c, HASH_VALUES, map_id, visit_key, &ac);
	free(ac.full);
	return ret;
}

/* each_key(): the key zeroed (ctx non-NULL) or deleted. */
static int reset_key(const struct key_visit *v, void *zero)
{
	if (zero)
		st_shm_hash_zero(v->g, v->h, v->key);
	else
		st_shm_hash_delete(v->g, v->h, v->key);
	return 0;
}

int st_inproc_reset_keys(const struct st_inproc *ip, const struct st_compiled *c, int map_id,
			 bool zero)
{
	void *z = zero ? &zero : NULL;
	int ret;

	new_read(ip, true);
	ret = each_key(ip, c, HASH_AGGR, map_id, reset_key, z);

	if (!ret)
		ret = each_key(ip, c, HASH_COMPACT, map_id, reset_key, z);
	return ret ? ret : each_key(ip, c, HASH_VALUES, map_id, reset_key, z);
}

/* What st_shm_ring_consume() hands on: the caller's callback, and whose ring it is. */
struct consume_ctx {
	int (*cb)(void *ctx, const struct st_inproc *ip, const void *data, uint32_t len);
	void *ctx;
	const struct st_inproc *ip;
};

static int consume_one(void *ctx, const void *data, uint32_t len)
{
	struct consume_ctx *cc = ctx;

	return cc->cb(cc->ctx, cc->ip, data, len);
}

int st_inproc_consume(const struct st_inproc *ip,
		      int (*cb)(void *ctx, const struct st_inproc *ip, const void *data,
				uint32_t len),
		      void *ctx)
{
	struct consume_ctx cc = {.cb = cb, .ctx = ctx};
	int ret;

	for (; ip; ip = ip->next) {
		cc.ip = ip;
		ret = st_shm_ring_consume((void *)(ip->shm + ip->lay.ring), ip->params.ring_size,
					  consume_one, &cc);
		if (ret < 0 && ret != -EAGAIN)
			return ret;
	}
	return 0;
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
		new_read(ip, false);
		h = hash_of(ip, HASH_AGGR, &g);
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
		new_read(ip, false);
		h = hash_of(ip, HASH_VALUES, &g);
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
		new_read(ip, false);
		h = hash_of(ip, HASH_VALUES, &g);
		ret = st_shm_hash_update(g, h, key, v, 0, ST_SHM_ANY);
	}
	return ret;
}

bool st_inproc_elem_delete(const struct st_inproc *ip, bool plain, const void *key)
{
	const struct st_shm_hash_geom *g;
	struct st_shm_hash *h;
	bool deleted = false;

	for (; ip; ip = ip->next) {
		new_read(ip, false);
		h = hash_of(ip, plain ? HASH_VALUES : HASH_AGGR, &g);
		deleted |= !st_shm_hash_delete(g, h, key);
	}
	return deleted;
}

void st_inproc_report(const struct st_inproc *ip)
{
	unsigned long long n;

	for (; ip; ip = ip->next) {
		n = __atomic_load_n(&ip->tally.refused, __ATOMIC_RELAXED);
		if (n)
			st_errorf("pid %d: %llu keys of its in-process memory left out of the maps "
				  "read: they named another process, a stack or a string outside "
				  "its objects",
				  (int)ip->pid, n);
		n = __atomic_load_n(&ip->tally.budget.skipped, __ATOMIC_RELAXED);
		if (n)
			st_errorf("pid %d: %llu entries of its in-process memory skipped: it held "
				  "them past the wait of a read",
				  (int)ip->pid, n);
	}
}
