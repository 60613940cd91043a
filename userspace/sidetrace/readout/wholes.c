// SPDX-License-Identifier: MIT
/*
 * Maps of whole values (@t = (1, "a")): the checker keeps one map per
 * leaf; here the leaves' entries of one key become the whole's entry,
 * its value the text bpftrace prints ("(1, a)"), and the leaves are
 * marked so that no printer shows them alone.
 */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ctypes/composite.h"
#include "readout/wholes.h"

static int cmp_keys(const struct st_key_val *a, const struct st_key_val *b, uint32_t nr)
{
	uint32_t k;
	int c = 0;

	for (k = 0; !c && k < nr; k++) {
		if ((a[k].type == ST_VT_STR) != (b[k].type == ST_VT_STR))
			c = a[k].type == ST_VT_STR ? 1 : -1;
		else if (a[k].type == ST_VT_STR)
			c = strcmp(a[k].s, b[k].s);
		else
			c = (a[k].u > b[k].u) - (a[k].u < b[k].u);
	}
	return c;
}

static int cmp_entries(const void *a, const void *b, void *nr)
{
	const struct st_map_entry *const *ea = a, *const *eb = b;

	return cmp_keys((*ea)->keys, (*eb)->keys, *(uint32_t *)nr);
}

/* A leaf's entries by key, to find each key's value. */
struct leaf_index {
	const struct st_map_info *info;
	const struct st_map_result *r;
	const struct st_map_entry **by_key;
};

static const struct st_map_entry *leaf_find(const struct leaf_index *l,
					    const struct st_map_entry *key)
{
	size_t lo = 0, hi = l->r->nr_entries, mid;
	int c;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = cmp_keys(key->keys, l->by_key[mid]->keys, l->r->nr_keys);
		if (!c)
			return l->by_key[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

struct join {
	struct leaf_index *leaves;
	const struct st_map_entry *key;
	bool json; /* strings quoted and escaped */
};

/* Leaf i of the entry being joined, as the leaf's own map would print it. */
static void leaf_value(void *arg, struct st_textbuf *tb, uint32_t i)
{
	const struct join *j = arg;
	const struct st_map_entry *e = leaf_find(&j->leaves[i], j->key);
	const struct st_map_result *r = j->leaves[i].r;

	/* An integer kept as text (strerror(), strftime()) has its text made too. */
	bool text = j->leaves[i].info->value_type == ST_VT_STR || (e && e->str);

	/* A key a leaf lacks reads as bpftrace reads a missing key: "" or 0. */
	if (text && j->json)
		st_tb_json_str(tb, e && e->str ? e->str : "");
	else if (text)
		st_tb_puts(tb, e && e->str ? e->str : "");
	else if (r->value_signed)
		st_tb_printf(tb, "%" PRId64, e ? (int64_t)e->value : 0);
	else
		st_tb_printf(tb, "%" PRIu64, e ? e->value : 0);
}

/* The entries of whole map w: one per key of its first leaf. */
static int join_entries(struct st_ctypes *types, const struct st_map_info *w,
			struct st_map_result *r, struct leaf_index *leaves)
{
	const struct st_map_result *first = leaves[0].r;
	struct st_map_entry *entries;
	struct st_key_val *keys;
	struct st_textbuf tb = {0};
	struct join j = {.leaves = leaves};
	size_t i, k, n = first->nr_entries;

	entries = calloc(n ? n : 1, sizeof(*entries));
	keys = calloc(n * r->nr_keys + 1, sizeof(*keys));
	if (!entries || !keys) {
		free(entries);
		free(keys);
		return -ENOMEM;
	}
	r->entries = entries;
	entries[0].keys = keys;
	for (i = 0; i < n; i++) {
		entries[i].keys = &keys[i * r->nr_keys];
		r->nr_entries = i + 1;
		for (k = 0; k < r->nr_keys; k++) {
			keys[i * r->nr_keys + k] = first->entries[i].keys[k];
			if (keys[i * r->nr_keys + k].type == ST_VT_STR &&
			    !(keys[i * r->nr_keys + k].s = strdup(first->entries[i].keys[k].s)))
				return -ENOMEM;
		}
		j.key = &first->entries[i];
		j.json = false;
		st_ctype_text(types, w->whole, ST_WHOLE_TEXT, &tb, leaf_value, &j);
		entries[i].str = st_tb_take(&tb);
		j.json = true;
		st_ctype_text(types, w->whole, ST_WHOLE_JSON, &tb, leaf_value, &j);
		entries[i].json = st_tb_take(&tb);
		if (!entries[i].str || !entries[i].json)
			return -ENOMEM;
	}
	return 0;
}

static int join_map(const struct st_program *prog, struct st_maps_snapshot *snap, uint32_t m)
{
	const struct st_map_info *w = &prog->maps[m];
	struct leaf_index *leaves = calloc(w->nr_leaves, sizeof(*leaves));
	uint32_t i, nr_keys = w->nr_keys;
	int ret = leaves ? 0 : -ENOMEM;
	size_t e;

	for (i = 0; !ret && i < w->nr_leaves; i++) {
		const struct st_map_result *r = &snap->maps[w->first_leaf + i];

		leaves[i].r = r;
		leaves[i].info = &prog->maps[w->first_leaf + i];
		leaves[i].by_key = calloc(r->nr_entries + 1, sizeof(*leaves[i].by_key));
		if (!leaves[i].by_key) {
			ret = -ENOMEM;
			break;
		}
		for (e = 0; e < r->nr_entries; e++)
			leaves[i].by_key[e] = &r->entries[e];
		qsort_r(leaves[i].by_key, r->nr_entries, sizeof(*leaves[i].by_key), cmp_entries,
			&nr_keys);
	}
	if (!ret)
		ret = join_entries(prog->ctypes, w, &snap->maps[m], leaves);
	for (i = 0; leaves && i < w->nr_leaves; i++)
		free(leaves[i].by_key);
	free(leaves);
	return ret;
}

static bool has_whole_key(const struct st_map_info *m)
{
	uint32_t k;

	for (k = 0; k < ST_MAX_MAP_KEYS; k++)
		if (m->key_whole[k])
			return true;
	return false;
}

bool st_map_joined(const struct st_map_info *m)
{
	return m->whole || has_whole_key(m);
}

/* A whole key's parts, from part, as its text. */
static void part_value(void *arg, struct st_textbuf *tb, uint32_t i)
{
	const struct st_key_val *k = (const struct st_key_val *)arg + i;

	if (k->type == ST_VT_STR)
		st_tb_puts(tb, k->s);
	else if (k->type == ST_VT_INT)
		st_tb_printf(tb, "%" PRId64, k->i);
	else
		st_tb_printf(tb, "%" PRIu64, k->u);
}

/* One entry's keys as written: a whole key's parts joined into its text. */
static int join_entry_keys(struct st_ctypes *types, const struct st_map_info *m,
			   const struct st_key_val *parts, uint32_t nr_parts, struct st_key_val *to)
{
	struct st_textbuf tb = {0};
	uint32_t k, n = 0;

	for (k = 0; k < nr_parts; n++) {
		if (k >= ST_MAX_MAP_KEYS || !m->key_whole[k]) {
			to[n] = parts[k];
			if (to[n].type == ST_VT_STR && !(to[n].s = strdup(parts[k].s)))
				return -ENOMEM;
			k++;
			continue;
		}
		st_tb_reset(&tb);
		st_ctype_text(types, m->key_whole[k], ST_WHOLE_KEY, &tb, part_value,
			      (void *)&parts[k]);
		to[n].type = ST_VT_STR;
		to[n].s = st_tb_take(&tb);
		if (!to[n].s)
			return -ENOMEM;
		k += m->key_parts[k];
	}
	return 0;
}

/* The keys of map r that has whole keys, joined; r->nr_keys becomes the keys' number. */
static int join_keys(struct st_ctypes *types, const struct st_map_info *m, struct st_map_result *r)
{
	uint32_t k, n = 0;
	struct st_key_val *keys,
		*old = r->nr_entries ? (struct st_key_val *)r->entries[0].keys : NULL;
	size_t i;
	int ret = 0;

	for (k = 0; k < r->nr_keys;
	     k += k < ST_MAX_MAP_KEYS && m->key_whole[k] ? m->key_parts[k] : 1)
		n++;
	if (!r->nr_entries) {
		r->nr_keys = n;
		return 0;
	}
	keys = calloc(r->nr_entries * n + 1, sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (i = 0; !ret && i < r->nr_entries; i++)
		ret = join_entry_keys(types, m, r->entries[i].keys, r->nr_keys, &keys[i * n]);
	for (i = 0; i < r->nr_entries; i++) {
		for (k = 0; k < r->nr_keys; k++)
			if (old[i * r->nr_keys + k].type == ST_VT_STR)
				free((char *)old[i * r->nr_keys + k].s);
		((struct st_map_entry *)r->entries)[i].keys = &keys[i * n];
	}
	free(old);
	r->nr_keys = n;
	return ret;
}

int st_maps_join_wholes(const struct st_program *prog, struct st_maps_snapshot *snap)
{
	uint32_t m;
	int ret = 0;

	for (m = 0; !ret && m < snap->nr_maps && m < prog->nr_maps; m++) {
		snap->maps[m].leaf = prog->maps[m].leaf;
		if (prog->maps[m].whole && !snap->maps[m].entries &&
		    prog->maps[m].first_leaf + prog->maps[m].nr_leaves <= snap->nr_maps)
			ret = join_map(prog, snap, m);
		if (!ret && has_whole_key(&prog->maps[m]))
			ret = join_keys(prog->ctypes, &prog->maps[m], &snap->maps[m]);
	}
	return ret;
}
