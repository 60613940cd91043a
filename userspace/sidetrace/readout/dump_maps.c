// SPDX-License-Identifier: MIT
/*
 * The kernel's maps and the processes' engines read into one dump, in
 * the hash's key form (dump.h): the keyed maps' hashes, the slots of the
 * maps without keys, the engines' keys; and cleared or zeroed there
 * (clear(), zero()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "readout/addr_keys.h"
#include "readout/aggregations.h"
#include "readout/compact_keys.h"
#include "readout/dump.h"
#include "readout/dump_maps.h"
#include "readout/inproc_read.h"

/*
 * Adds the slots of map id (without keys) to d, as the hash keys they would
 * be: one per bucket that counted something, or one for the value. An
 * entry that zero() kept shows with zero counts, and so does a count()
 * always: bpftrace keeps one without keys in an array, whose element
 * exists before anything is counted and after clear(). key is scratch
 * space.
 */
static int dump_flat(const struct st_tracer *t, const struct st_inproc *ip,
		     const struct st_compiled *c, uint32_t id, struct st_val *percpu, uint8_t *key,
		     struct dump *d)
{
	const struct st_map_cfg *mc = &c->maps[id];
	struct st_key_hdr hdr = {.map_id = id};
	size_t before = d->nr;
	struct st_val val;
	uint64_t b;
	uint32_t slot;
	int ret;

	memset(key, 0, d->key_size);
	memcpy(key, &hdr, sizeof(hdr));
	for (b = 0; b < mc->flat_len; b++) {
		slot = mc->flat_base + b;
		if (bpf_map_lookup_elem(t->bpf.flat_fd, &slot, percpu))
			return -errno;
		/* A process's engine: more CPUs. */
		st_inproc_flat(ip, slot, percpu + t->bpf.ncpus);
		st_val_combine(percpu, t->bpf.ncpus + st_inproc_nr_slots(ip),
			       mc->flags & ST_MAPF_SIGNED, &val);
		if (!val.count)
			continue;
		if (st_kind_has_bucket(mc->kind))
			memcpy(key + ST_KEY_HDR, &b, sizeof(b));
		ret = st_dump_add(d, key, &val, NULL);
		if (ret)
			return ret;
	}
	if (d->nr == before && (t->bpf.flat_kept[id] || mc->kind == ST_K_COUNT)) {
		memset(&val, 0, sizeof(val));
		return st_dump_add(d, key, &val, NULL);
	}
	return 0;
}

/* A hash of keys, and the form they take there. */
struct key_hash {
	int fd;
	bool plain; /* st_values: plain values, not aggregations */
	bool compact; /* st_aggr_compact: compact keys (compact_keys.h) */
};

/* The hashes of keyed maps: aggregations in both forms, plain values. */
#define NR_KEY_HASHES 3

static void key_hashes(const struct st_tracer *t, struct key_hash h[NR_KEY_HASHES])
{
	h[0] = (struct key_hash){.fd = t->bpf.aggr_fd};
	h[1] = (struct key_hash){.fd = t->bpf.compact_fd, .compact = true};
	h[2] = (struct key_hash){.fd = t->bpf.values_fd, .plain = true};
}

/*
 * Copies the keys of hash h that belong to map map_id (all maps when -1),
 * with their values (combined over CPUs for aggregations) in full form
 * and with the strings the kernel kept by address resolved, or when
 * with_values is false as the kernel holds them (to delete or zero them).
 */
static int dump_hash(const struct st_tracer *t, const struct st_compiled *c,
		     const struct key_hash *h, int map_id, bool with_values, struct dump *d)
{
	size_t ks = c->key_size;
	struct st_val *percpu, val = {.count = 1};
	uint8_t *prev, *next, *full;
	bool first = true;
	uint32_t id;
	int ret = 0;

	/* A plain value is one st_value; a per-CPU hash has one st_val per CPU. */
	percpu = calloc(t->bpf.ncpus, sizeof(*percpu) + sizeof(struct st_value));
	prev = calloc(3, ks);
	if (!percpu || !prev) {
		ret = -ENOMEM;
		goto cleanup;
	}
	next = prev + ks;
	full = next + ks;
	while (!bpf_map_get_next_key(h->fd, first ? NULL : prev, next)) {
		id = st_key_map_id(next);
		first = false;
		memcpy(prev, next, ks);
		if (id >= c->nr_maps || (map_id >= 0 && id != (uint32_t)map_id) ||
		    (c->maps[id].kind == ST_K_VALUE) != h->plain)
			continue;
		/* A key deleted since get_next_key is simply not there. */
		if (with_values && bpf_map_lookup_elem(h->fd, next, percpu))
			continue;
		/* prev keeps the kernel's key, for get_next_key. */
		memcpy(full, next, ks);
		if (with_values && h->compact && !st_compact_key_expand(c, next, full))
			continue;
		if (with_values && !h->plain) {
			st_val_combine(percpu, t->bpf.ncpus, c->maps[id].flags & ST_MAPF_SIGNED,
				       &val);
			st_addr_key_resolve(t, c, full, NULL);
		}
		ret = st_dump_add(d, full, with_values ? &val : NULL,
				  with_values && h->plain ? percpu : NULL);
		if (ret)
			goto cleanup;
	}
cleanup:
	free(percpu);
	free(prev);
	return ret;
}

/* A process's engine's key into the dump: its literals by address read as the kernel's are. */
struct engine_dump {
	const struct st_tracer *t;
	const struct st_compiled *c;
	struct dump *d;
	uint8_t *full;
};

static int engine_key(void *ctx, const uint8_t *key, const struct st_val *val, bool plain,
		      const void *value)
{
	struct engine_dump *ed = ctx;
	int ret;

	memcpy(ed->full, key, ed->d->key_size);
	if (!plain)
		st_addr_key_resolve(ed->t, ed->c, ed->full, NULL);
	ret = st_dump_add(ed->d, ed->full, val, value);
	if (!ret)
		ed->d->vals[ed->d->nr - 1].newer = plain;
	return ret;
}

/* The keys of the list's engines (the session's key size, st_inproc_shm_params()). */
static int dump_engines(const struct st_tracer *t, const struct st_inproc *ip,
			const struct st_compiled *c, int map_id, struct dump *d)
{
	struct engine_dump ed = {.t = t, .c = c, .d = d};
	int ret;

	if (!ip)
		return 0;
	ed.full = calloc(1, d->key_size);
	ret = ed.full ? st_inproc_each_key(ip, c, map_id, true, engine_key, &ed) : -ENOMEM;
	free(ed.full);
	return ret;
}

int st_dump_maps(const struct st_tracer *t, const struct st_compiled *c, int map_id, struct dump *d)
{
	/* One list of processes for the whole read: serve's may grow meanwhile. */
	const struct st_inproc *ip = st_tracer_inprocs(t);
	struct key_hash hashes[NR_KEY_HASHES];
	struct st_val *percpu;
	uint8_t *key;
	uint32_t id, h;
	int ret = 0;

	memset(d, 0, sizeof(*d));
	d->key_size = c->key_size;
	key_hashes(t, hashes);
	for (h = 0; h < NR_KEY_HASHES && !ret; h++)
		ret = dump_hash(t, c, &hashes[h], map_id, true, d);
	if (!ret)
		ret = dump_engines(t, ip, c, map_id, d);
	percpu = calloc(t->bpf.ncpus + st_inproc_nr_slots(ip), sizeof(*percpu));
	key = calloc(1, d->key_size);
	if (!ret && (!percpu || !key))
		ret = -ENOMEM;
	for (id = 0; !ret && id < c->nr_maps; id++) {
		if (!(c->maps[id].flags & ST_MAPF_FLAT) || (map_id >= 0 && id != (uint32_t)map_id))
			continue;
		ret = dump_flat(t, ip, c, id, percpu, key, d);
	}
	if (ret)
		st_dump_free(d);
	free(percpu);
	free(key);
	return ret;
}

/*
 * Zeroes the slots of map map_id (all when -1) without keys; keep says
 * whether an entry that had counts stays (zero()) or goes (clear()).
 */
static int zero_flat(const struct st_tracer *t, const struct st_compiled *c, int map_id, bool keep)
{
	struct st_val *percpu, *zero;
	uint32_t id, b, slot;
	int ret = 0, cpu;

	percpu = calloc(t->bpf.ncpus, sizeof(*percpu));
	zero = calloc(t->bpf.ncpus, sizeof(*zero));
	if (!percpu || !zero) {
		ret = -ENOMEM;
		goto cleanup;
	}
	for (id = 0; id < c->nr_maps; id++) {
		const struct st_map_cfg *mc = &c->maps[id];
		bool counted = false;

		if (!(mc->flags & ST_MAPF_FLAT) || (map_id >= 0 && id != (uint32_t)map_id))
			continue;
		for (b = 0; b < mc->flat_len; b++) {
			slot = mc->flat_base + b;
			if (bpf_map_lookup_elem(t->bpf.flat_fd, &slot, percpu) ||
			    bpf_map_update_elem(t->bpf.flat_fd, &slot, zero, BPF_ANY)) {
				ret = -errno;
				goto cleanup;
			}
			for (cpu = 0; cpu < t->bpf.ncpus; cpu++)
				counted |= percpu[cpu].count != 0;
			counted |= st_inproc_flat_zero(st_tracer_inprocs(t), slot);
		}
		t->bpf.flat_kept[id] = keep && (counted || t->bpf.flat_kept[id]);
	}
cleanup:
	free(percpu);
	free(zero);
	return ret;
}

/*
 * Deletes the keys of map map_id (all when -1) from the hashes, or when
 * zero is not NULL, sets their values to it.
 */
static int reset_keys(const struct st_tracer *t, const struct st_compiled *c, int map_id,
		      const void *zero)
{
	struct key_hash hashes[NR_KEY_HASHES];
	struct dump d;
	uint32_t h;
	size_t i;
	int ret = 0;

	key_hashes(t, hashes);
	for (h = 0; h < NR_KEY_HASHES && !ret; h++) {
		memset(&d, 0, sizeof(d));
		d.key_size = c->key_size;
		ret = dump_hash(t, c, &hashes[h], map_id, false, &d);
		for (i = 0; !ret && i < d.nr; i++) {
			if (zero)
				bpf_map_update_elem(hashes[h].fd, d.keys + i * d.key_size, zero,
						    BPF_EXIST);
			else
				bpf_map_delete_elem(hashes[h].fd, d.keys + i * d.key_size);
		}
		st_dump_free(&d);
	}
	return ret ? ret : st_inproc_reset_keys(st_tracer_inprocs(t), c, map_id, zero != NULL);
}

int st_maps_clear(const struct st_tracer *t, const struct st_compiled *c, int map_id)
{
	int ret = reset_keys(t, c, map_id, NULL);

	return ret ? ret : zero_flat(t, c, map_id, false);
}

int st_maps_zero(const struct st_tracer *t, const struct st_compiled *c, int map_id)
{
	struct st_val *zero;
	int ret;

	/* Per CPU for aggregations; one st_value for plain values. */
	zero = calloc(1, t->bpf.ncpus * sizeof(*zero) + sizeof(struct st_value));
	if (!zero)
		return -ENOMEM;
	ret = reset_keys(t, c, map_id, zero);
	if (!ret)
		ret = zero_flat(t, c, map_id, true);
	free(zero);
	return ret;
}
