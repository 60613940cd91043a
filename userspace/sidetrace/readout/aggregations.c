// SPDX-License-Identifier: MIT
/*
 * Kernel maps -> printer structures. The aggregation hash holds the maps
 * with keys: its keys are (map id, key parts[, bucket]) and its values one
 * st_val per CPU. The maps without keys are slots of a per-CPU array
 * (st_flat), read here into the same key form. Histogram buckets are
 * separate keys here and become one entry with a bucket array for the
 * printer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "events/events.h"
#include "readout/addr_keys.h"
#include "bpfload/stacks.h"
#include "readout/compact_keys.h"
#include "readout/aggregations.h"
#include "readout/dump.h"
#include "readout/inproc_read.h"
#include "readout/wholes.h"
#include "output/kept_text.h"

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

/*
 * Every key of map map_id (all maps when -1), with its value:
 * aggregations, slots, values.
 */
static int dump_aggr(const struct st_tracer *t, const struct st_compiled *c, int map_id,
		     struct dump *d)
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

/* Orders keys by map, key parts, then bucket: a histogram's rows adjoin. */
static int cmp_keys(const void *a, const void *b, void *arg)
{
	return memcmp(a, b, *(const size_t *)arg);
}

static uint64_t key_bucket(const uint8_t *key, const struct st_map_cfg *mc)
{
	uint64_t b;

	memcpy(&b, key + st_key_bucket_off(mc->key_size), sizeof(b));
	return b;
}

/*
 * An enum key prints as the label of a mapping of one value; the values
 * of a range mapping stay numbers, or distinct keys would print alike.
 */
static const char *key_label(const struct st_map_info *mi, uint32_t k, uint64_t u)
{
	const struct st_type *t = mi->key_enum[k];
	int i;

	if (mi->not_enum & (1U << k))
		return NULL;
	i = st_type_enum_mapping(t, u);
	return i >= 0 && t->enum_begin[i] == t->enum_end[i] ? t->enum_labels[i] : NULL;
}

/* ustack(N): the stack's text cut after its Nth frame (the kernel kept them all). */
static void cut_frames(char *text, uint32_t n)
{
	char *p = text;

	while (n-- && (p = strchr(p, '\n')))
		if (!n)
			*p = '\0';
		else
			p++;
}

/* A byte buffer's text as bpftrace prints it in a map; NULL when out of memory. */
static char *buf_text(const void *slot)
{
	char text[ST_BUF_TEXT];

	st_buf_text(slot, 'r', text);
	return strdup(text);
}

static int fill_keys(const struct st_tracer *t, struct st_key_val *kv, const uint8_t *key,
		     const struct st_map_info *mi, const struct st_map_layout *lay,
		     const struct st_compiled *c)
{
	const uint8_t *parts = key + ST_KEY_HDR;
	const char *label;
	char text[256];
	uint32_t k;

	for (k = 0; k < lay->nr_parts; k++) {
		const struct st_kpart *p = &lay->parts[k];
		uint64_t u, pid;

		switch (p->kind) {
		case ST_KPART_STR:
			kv[k].type = ST_VT_STR;
			kv[k].s = strndup((const char *)parts + p->off, ST_STR_LEN);
			break;
		case ST_KPART_BUF:
			kv[k].type = ST_VT_STR;
			kv[k].made = true;
			kv[k].s = buf_text(parts + p->off);
			break;
		case ST_KPART_PROBE:
			memcpy(&u, parts + p->off, sizeof(u));
			kv[k].type = ST_VT_STR;
			kv[k].s = strdup(st_compiled_probe_name(c, u) ?: "?");
			break;
		case ST_KPART_USTACK:
		case ST_KPART_KSTACK:
			memcpy(&u, parts + p->off, sizeof(u));
			kv[k].type = ST_VT_STR;
			kv[k].stack = true;
			kv[k].s =
				st_stack_text(t->stacks, &t->bpf, c, p->kind == ST_KPART_USTACK, u);
			if (kv[k].s && p->frames)
				cut_frames((char *)kv[k].s, p->frames);
			break;
		case ST_KPART_KSYM:
			memcpy(&u, parts + p->off, sizeof(u));
			kv[k].type = ST_VT_STR;
			kv[k].s = st_ksym_text(t->stacks, u);
			break;
		case ST_KPART_TEXT:
			memcpy(&u, parts + p->off, sizeof(u));
			st_kept_text(p->text, u, text, sizeof(text));
			kv[k].type = ST_VT_STR;
			kv[k].s = strdup(text);
			break;
		case ST_KPART_USYM:
			memcpy(&u, parts + p->off, sizeof(u));
			memcpy(&pid, parts + p->off + ST_KPART_USYM_PID, sizeof(pid));
			kv[k].type = ST_VT_STR;
			kv[k].s = st_usym_text(t->stacks, pid, u);
			break;
		default:
			memcpy(&u, parts + p->off, sizeof(u));
			kv[k].type = mi->key_types[k];
			kv[k].u = u;
			label = key_label(mi, k, u);
			if (label) {
				kv[k].type = ST_VT_STR;
				kv[k].s = strdup(label);
			}
			break;
		}
		if (kv[k].type == ST_VT_STR && !kv[k].s)
			return -ENOMEM;
	}
	return 0;
}

/* Adds the value read (with its bucket) to entry e of map mc. */
static int entry_value(struct st_map_entry *e, const struct st_map_info *mi,
		       const struct st_map_cfg *mc, const struct dump_val *dv, const uint8_t *key,
		       size_t nb)
{
	const struct st_val *v = &dv->v;
	const char *label;
	uint64_t bucket = st_kind_has_bucket(mc->kind) ? key_bucket(key, mc) : 0;

	switch (mc->kind) {
	case ST_K_HIST:
	case ST_K_LHIST:
		if (bucket < nb)
			((uint64_t *)e->buckets)[bucket] += v->count;
		e->total = st_binary(ST_B_ADD, e->total, v->sum);
		break;
	case ST_K_COUNT:
		e->value = v->count;
		break;
	case ST_K_SUM:
		e->value = v->sum;
		break;
	case ST_K_MIN:
		e->value = v->min;
		break;
	case ST_K_MAX:
		e->value = v->max;
		break;
	case ST_K_VALUE:
		memcpy(&e->value, dv->raw, sizeof(e->value));
		label = mi->not_enum & (1U << ST_MAX_MAP_KEYS)
				? NULL
				: st_type_enum_label(mi->value_enum, e->value);
		e->str_made = mi->value_type == ST_VT_BUF;
		if (e->str_made)
			e->str = buf_text(dv->raw);
		else if (mc->flags & ST_MAPF_STR)
			e->str = strndup((const char *)dv->raw, ST_STR_LEN);
		else if (label)
			e->str = strdup(label);
		if ((mc->flags & ST_MAPF_STR || label) && !e->str)
			return -ENOMEM;
		break;
	default:
		e->total = v->sum;
		break;
	}
	return 0;
}

/* Builds one printer map from the sorted keys of map m in d. */
static int build_map(const struct st_tracer *t, const struct st_program *prog,
		     const struct st_compiled *c, uint32_t m, const struct dump *d, size_t from,
		     size_t to, struct st_map_result *r)
{
	const struct st_map_info *mi = &prog->maps[m];
	const struct st_map_layout *lay = &c->layouts[m];
	const struct st_map_cfg *mc = &c->maps[m];
	size_t ks = d->key_size, nb = 0, n = 0, i;
	struct st_map_entry *entries;
	struct st_key_val *keys;
	uint64_t *buckets = NULL;
	int ret;

	r->name = mi->name;
	r->agg = mi->agg;
	r->nr_keys = mi->nr_keys;
	r->value_signed = mi->value_signed || mi->value_type == ST_VT_INT;
	r->lhist_min = mi->lhist_min;
	r->lhist_max = mi->lhist_max;
	r->lhist_step = mi->lhist_step;
	if (from == to)
		return 0;
	if (mc->kind == ST_K_HIST)
		nb = ST_HIST_BUCKETS;
	else if (mc->kind == ST_K_LHIST)
		nb = st_lhist_buckets(mc->lmin, mc->lmax, mc->lstep);
	entries = calloc(to - from, sizeof(*entries));
	keys = mi->nr_keys ? calloc((to - from) * mi->nr_keys, sizeof(*keys)) : NULL;
	if (nb)
		buckets = calloc((to - from) * nb, sizeof(*buckets));
	r->entries = entries;
	if (!entries || (mi->nr_keys && !keys) || (nb && !buckets)) {
		free(keys);
		free(buckets);
		return -ENOMEM;
	}
	for (i = from; i < to; i++) {
		const uint8_t *key = d->keys + i * ks;
		const struct st_val *v = &d->vals[i].v;
		struct st_map_entry *e;

		/* Histogram rows of one key share an entry. */
		if (n && st_kind_has_bucket(mc->kind) &&
		    !memcmp(key, d->keys + (i - 1) * ks, ST_KEY_HDR + mc->key_size)) {
			e = &entries[n - 1];
		} else {
			e = &entries[n];
			e->keys = mi->nr_keys ? &keys[n * mi->nr_keys] : NULL;
			if (nb)
				e->buckets = &buckets[n * nb];
			ret = fill_keys(t, (struct st_key_val *)e->keys, key, mi, lay, c);
			n++;
			r->nr_entries = n;
			if (ret)
				return ret;
		}
		/* Wraps as st_val_combine() does. */
		e->count = st_binary(ST_B_ADD, e->count, v->count);
		ret = entry_value(e, mi, mc, &d->vals[i], key, nb);
		if (ret)
			return ret;
	}
	return 0;
}

static int read_maps(const struct st_tracer *t, const struct st_program *prog,
		     const struct st_compiled *c, int map_id, struct st_maps_snapshot *snap)
{
	size_t ks = c->key_size, i, from;
	uint32_t m, first, last;
	struct dump d;
	int ret;

	memset(snap, 0, sizeof(*snap));
	if (map_id >= (int)c->nr_maps)
		return -EINVAL;
	ret = dump_aggr(t, c, map_id, &d);
	if (ret)
		return ret;
	/* Sort keys and values together: sort indices, then permute. */
	{
		uint8_t *keys = malloc(d.nr * ks + 1);
		struct dump_val *vals = malloc(d.nr * sizeof(*vals) + 1);
		size_t *idx = malloc(d.nr * sizeof(*idx) + 1);
		uint8_t *rows = malloc(d.nr * (ks + sizeof(size_t)) + 1);

		if (!keys || !vals || !idx || !rows) {
			free(keys);
			free(vals);
			free(idx);
			free(rows);
			ret = -ENOMEM;
			goto cleanup;
		}
		/* Each row is the key followed by its original index. */
		for (i = 0; i < d.nr; i++) {
			memcpy(rows + i * (ks + sizeof(size_t)), d.keys + i * ks, ks);
			memcpy(rows + i * (ks + sizeof(size_t)) + ks, &i, sizeof(i));
		}
		qsort_r(rows, d.nr, ks + sizeof(size_t), cmp_keys, &ks);
		for (i = 0; i < d.nr; i++) {
			memcpy(&idx[i], rows + i * (ks + sizeof(size_t)) + ks, sizeof(size_t));
			memcpy(keys + i * ks, d.keys + idx[i] * ks, ks);
			vals[i] = d.vals[idx[i]];
		}
		free(rows);
		free(idx);
		free(d.keys);
		free(d.vals);
		d.keys = keys;
		d.vals = vals;
	}
	st_dump_merge_equal(c, &d);
	first = map_id < 0 ? 0 : map_id;
	last = map_id < 0 ? c->nr_maps : (uint32_t)map_id + 1;
	snap->maps = calloc(last - first ? last - first : 1, sizeof(*snap->maps));
	if (!snap->maps) {
		ret = -ENOMEM;
		goto cleanup;
	}
	from = 0;
	for (m = first; m < last; m++) {
		size_t to = from;

		while (to < d.nr && st_key_map_id(d.keys + to * ks) == m)
			to++;
		snap->nr_maps++;
		ret = build_map(t, prog, c, m, &d, from, to, &snap->maps[m - first]);
		if (ret)
			goto cleanup;
		from = to;
	}
cleanup:
	st_dump_free(&d);
	if (ret)
		st_maps_snapshot_free(snap);
	return ret;
}

static void result_free(struct st_map_result *r)
{
	size_t i, k;

	if (!r->entries)
		return;
	for (i = 0; i < r->nr_entries; i++) {
		for (k = 0; r->entries[i].keys && k < r->nr_keys; k++)
			if (r->entries[i].keys[k].type == ST_VT_STR)
				free((char *)r->entries[i].keys[k].s);
		free((char *)r->entries[i].str);
		free((char *)r->entries[i].json);
	}
	/* Keys and buckets were allocated as one block each. */
	free((void *)r->entries[0].keys);
	free((void *)r->entries[0].buckets);
	free((void *)r->entries);
	r->entries = NULL;
}

void st_maps_snapshot_free(struct st_maps_snapshot *snap)
{
	size_t m;

	for (m = 0; m < snap->nr_maps; m++)
		result_free(&snap->maps[m]);
	free(snap->maps);
	memset(snap, 0, sizeof(*snap));
}

int st_maps_read(const struct st_tracer *t, const struct st_program *prog,
		 const struct st_compiled *c, int map_id, struct st_maps_snapshot *snap)
{
	size_t m;
	int ret;

	/* A whole value's map is its leaves' maps: all are read, then joined. */
	if (map_id >= 0 && map_id < (int)prog->nr_maps && !st_map_joined(&prog->maps[map_id]))
		return read_maps(t, prog, c, map_id, snap);
	ret = read_maps(t, prog, c, -1, snap) ?: st_maps_join_wholes(prog, snap);
	if (ret || map_id < 0) {
		if (ret)
			st_maps_snapshot_free(snap);
		return ret;
	}
	for (m = 0; m < snap->nr_maps; m++)
		if (m != (size_t)map_id)
			result_free(&snap->maps[m]);
	snap->maps[0] = snap->maps[map_id];
	snap->nr_maps = 1;
	return 0;
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
