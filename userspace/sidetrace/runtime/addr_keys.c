// SPDX-License-Identifier: MIT
/*
 * Aggregation keys with strings by address: resolved when a map is read,
 * and their cut strings counted as the kernel counts the ones it reads.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "runtime/addr_keys.h"
#include "runtime/aggregations.h"
#include "runtime/dump.h"
#include "runtime/compact_keys.h"

bool st_addr_key_resolve(const struct st_loader *l, const struct st_compiled *c, uint8_t *key,
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
		st_ro_strings_read(&l->ro, &ref, (char *)part, &cut);
		if (cut && site)
			*site = ref.site;
		any_cut |= cut;
	}
	hdr.addr_parts = 0;
	memcpy(key, &hdr, sizeof(hdr));
	return any_cut;
}

/* The probe whose sites include site (st_loader.site_base). */
static uint32_t site_probe(const struct st_loader *l, const struct st_compiled *c, uint32_t site)
{
	uint32_t lo = 0, hi = c->nr_probes, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (l->site_base[mid] <= site)
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

/*
 * Adds to per_map[probe * nr_maps + map] the events of the keys of fd
 * (compact keys when compact) that held a cut string by address. bufs
 * holds three keys.
 */
static void cuts_in(const struct st_loader *l, const struct st_compiled *c, int fd, bool compact,
		    uint8_t *bufs, struct st_val *percpu, uint64_t *per_map)
{
	size_t ks = c->key_size;
	uint8_t *prev = bufs, *next = bufs + ks, *key = bufs + 2 * ks;
	uint32_t site = 0, id;
	bool first = true;
	struct st_val val;

	while (!bpf_map_get_next_key(fd, first ? NULL : prev, next)) {
		first = false;
		memcpy(prev, next, ks);
		memcpy(key, next, ks);
		id = ((const struct st_key_hdr *)next)->map_id;
		if (id >= c->nr_maps || (compact && !st_compact_key_expand(c, next, key)) ||
		    !st_addr_key_resolve(l, c, key, &site) || bpf_map_lookup_elem(fd, next, percpu))
			continue;
		st_val_combine(percpu, l->ncpus, false, &val);
		per_map[(size_t)site_probe(l, c, site) * c->nr_maps + id] += val.count;
	}
}

int st_addr_key_cuts(const struct st_loader *l, const struct st_compiled *c, uint64_t *cuts)
{
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
	percpu = calloc(l->ncpus, sizeof(*percpu));
	bufs = calloc(3, c->key_size);
	if (!per_map || !percpu || !bufs) {
		ret = -ENOMEM;
		goto cleanup;
	}
	cuts_in(l, c, l->aggr_fd, false, bufs, percpu, per_map);
	cuts_in(l, c, l->compact_fd, true, bufs, percpu, per_map);
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
