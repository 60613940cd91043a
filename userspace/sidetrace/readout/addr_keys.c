// SPDX-License-Identifier: MIT
/*
 * Aggregation keys with strings by address: resolved when a map is read,
 * and their cut strings counted as the kernel counts the ones it reads.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "readout/addr_keys.h"
#include "readout/aggregations.h"
#include "readout/dump.h"
#include "readout/compact_keys.h"
#include "readout/inproc_read.h"

bool st_addr_key_resolve(const struct st_tracer *t, const struct st_compiled *c, uint8_t *key,
			 uint32_t *site)
{
	const struct st_map_layout *lay;
	bool cut, any_cut = false;
	struct st_key_hdr hdr;
	struct st_ro_ref ref;
	uint8_t *part;
	uint32_t k;

	memcpy(&hdr, key, sizeof(hdr));
	if (!hdr.addr_parts || hdr.map_id >= c->nr_maps)
		return false;
	lay = &c->layouts[hdr.map_id];
	for (k = 0; k < lay->nr_parts; k++) {
		if (!(hdr.addr_parts & (1U << k)) || lay->parts[k].kind != ST_KPART_STR)
			continue;
		part = key + ST_KEY_HDR + lay->parts[k].off;
		memcpy(&ref, part, sizeof(ref));
		/* The kernel checked ref against this segment: the read succeeds. */
		st_ro_strings_read(&t->bpf.ro, &ref, (char *)part, &cut);
		if (cut && site)
			*site = ref.site;
		any_cut |= cut;
	}
	hdr.addr_parts = 0;
	memcpy(key, &hdr, sizeof(hdr));
	return any_cut;
}

/* The probe whose sites include site (st_loader.site_base). */
static uint32_t site_probe(const struct st_tracer *t, const struct st_compiled *c, uint32_t site)
{
	uint32_t lo = 0, hi = c->nr_probes, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (t->bpf.site_base[mid] <= site)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static bool any_ro_loads(const struct st_compiled *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		if (c->probes[i].cfg.ro_loads)
			return true;
	return false;
}

/* What counting cuts needs: per_map[probe * nr_maps + map] events. */
struct cut_count {
	const struct st_tracer *t;
	const struct st_compiled *c;
	uint64_t *per_map;
	uint8_t *key; /* a key's room, its literals read */
};

/* Adds count events of key (its whole form) when it held a cut string by address. */
static void count_cut(struct cut_count *cc, const uint8_t *key, uint64_t count)
{
	uint32_t site = 0, id = st_key_map_id(key);

	if (key != cc->key)
		memcpy(cc->key, key, cc->c->key_size);
	if (id < cc->c->nr_maps && st_addr_key_resolve(cc->t, cc->c, cc->key, &site))
		cc->per_map[(size_t)site_probe(cc->t, cc->c, site) * cc->c->nr_maps + id] += count;
}

/* The kernel's keys of fd (compact keys when compact); bufs holds two keys more. */
static void cuts_in(struct cut_count *cc, int fd, bool compact, uint8_t *bufs,
		    struct st_val *percpu)
{
	size_t ks = cc->c->key_size;
	uint8_t *prev = bufs, *next = bufs + ks;
	bool first = true;
	struct st_val val;

	while (!bpf_map_get_next_key(fd, first ? NULL : prev, next)) {
		first = false;
		memcpy(prev, next, ks);
		memcpy(cc->key, next, ks);
		if (st_key_map_id(next) >= cc->c->nr_maps ||
		    (compact && !st_compact_key_expand(cc->c, next, cc->key)) ||
		    bpf_map_lookup_elem(fd, next, percpu))
			continue;
		st_val_combine(percpu, cc->t->bpf.ncpus, false, &val);
		count_cut(cc, cc->key, val.count);
	}
}

/* st_inproc_each_key(): an engine's key; its literals are keyed by address as the kernel's. */
static int engine_cut(void *ctx, const uint8_t *key, const struct st_val *val, bool plain,
		      const void *value)
{
	count_cut(ctx, key, val->count);
	return 0;
}

int st_addr_key_cuts(const struct st_tracer *t, const struct st_compiled *c, uint64_t *cuts)
{
	struct cut_count cc = {.t = t, .c = c};
	size_t nr = (size_t)c->nr_probes * c->nr_maps;
	struct st_val *percpu = NULL;
	uint64_t *per_map = NULL;
	uint8_t *bufs = NULL;
	uint32_t p, m;
	int ret = 0;

	memset(cuts, 0, c->nr_probes * sizeof(*cuts));
	if (!any_ro_loads(c))
		return 0;
	per_map = calloc(nr + 1, sizeof(*per_map));
	percpu = calloc(t->bpf.ncpus, sizeof(*percpu));
	bufs = calloc(3, c->key_size);
	if (!per_map || !percpu || !bufs) {
		ret = -ENOMEM;
		goto cleanup;
	}
	cc.per_map = per_map;
	cc.key = bufs + 2 * c->key_size;
	cuts_in(&cc, t->bpf.aggr_fd, false, bufs, percpu);
	cuts_in(&cc, t->bpf.compact_fd, true, bufs, percpu);
	ret = st_inproc_each_key(st_tracer_inprocs(t), c, -1, false, engine_cut, &cc);
	for (p = 0; p < c->nr_probes; p++)
		for (m = 0; m < c->nr_maps; m++)
			if (per_map[(size_t)p * c->nr_maps + m] > cuts[p])
				cuts[p] = per_map[(size_t)p * c->nr_maps + m];
cleanup:
	free(per_map);
	free(percpu);
	free(bufs);
	return ret;
}
