// SPDX-License-Identifier: MIT
/*
 * Kernel maps -> printer structures. The aggregation hash holds the maps
 * with keys: its keys are (map id, key parts[, bucket]) and its values one
 * st_val per CPU. The maps without keys are slots of a per-CPU array
 * (st_flat), read into the same key form (dump_maps.c). Histogram buckets
 * are separate keys there and become one entry with a bucket array for
 * the printer here.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/events.h"
#include "bpfload/stacks.h"
#include "readout/aggregations.h"
#include "readout/dump.h"
#include "readout/stack_keys.h"
#include "readout/dump_maps.h"
#include "readout/wholes.h"
#include "output/kept_text.h"

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
	char text[ST_KEPT_TEXT_MAX];
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
			kv[k].perf_stack = p->perf;
			kv[k].s = st_stack_text(t->stacks, &t->bpf, c, p->kind == ST_KPART_USTACK,
						p->perf, u);
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

/*
 * A plain value kept as an integer that prints as text (ntop(), ksym()...):
 * *out, its text as a printf's %s prints it; NULL for other values. A
 * process's address has no process with it here: in hex, as bpftrace
 * prints what it cannot name. 0 or -ENOMEM.
 */
static int kept_value_text(const struct st_tracer *t, enum st_kept k, uint64_t v, char **out)
{
	char text[ST_KEPT_TEXT_MAX];

	*out = NULL;
	if (st_kept_is_text(k))
		st_kept_text(k, v, text, sizeof(text));
	else if (k == ST_KEPT_KSYM && t && t->stacks)
		return (*out = st_ksym_text(t->stacks, v)) ? 0 : -ENOMEM;
	else if (k == ST_KEPT_KSYM || k == ST_KEPT_USYM)
		snprintf(text, sizeof(text), "0x%" PRIx64, v);
	else
		return 0;
	return (*out = strdup(text)) ? 0 : -ENOMEM;
}

/* Adds the value read (with its bucket) to entry e of map mc. */
static int entry_value(const struct st_tracer *t, struct st_map_entry *e,
		       const struct st_map_info *mi, const struct st_map_cfg *mc,
		       const struct dump_val *dv, const uint8_t *key, size_t nb)
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
		else if (kept_value_text(t, mi->value_kept, e->value, (char **)&e->str))
			return -ENOMEM;
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
		ret = entry_value(t, e, mi, mc, &d->vals[i], key, nb);
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
	ret = st_dump_maps(t, c, map_id, &d);
	if (ret)
		return ret;
	/* Before the sort: keys made one by their stacks' frames sort together. */
	ret = st_stack_keys_merge(t, c, &d);
	if (ret)
		goto cleanup;
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
