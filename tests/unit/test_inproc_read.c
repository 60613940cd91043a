// SPDX-License-Identifier: MIT
/*
 * Unit tests of readout/inproc_read.c, the collector reading what a
 * process's engine left in their shared memory, which the process may
 * have written anything into: a key is taken only when it names what
 * the process may (its own pid, its own literals, no stack), and a read
 * waits a bounded time however many entries the process holds.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "readout/dump.h"
#include "inproc/inproc.h"
#include "inproc/inproc_prog.h"
#include "readout/inproc_read.h"

#include "unit.h"

#define OWN_PID 4242
#define OTHER_PID 1
#define OWN_SITE 5

enum { M_PID, M_USYM, M_STACK, M_LIT, M_VAL, M_FLAT, NR_MAPS };

/*
 * @p[pid] = count(); @u[usym(x)] = count(); @s[ustack] = count();
 * @l["literal"] = count() (read whole: by address); @v[pid] = x;
 * @f = count() (a slot, never a key).
 */
static void program(struct st_compiled *c)
{
	static struct st_compiled_probe probe;
	struct st_map_layout *lay = c->layouts;

	memset(c, 0, sizeof(*c));
	c->nr_probes = 1;
	c->probes = &probe;
	c->nr_maps = NR_MAPS;
	c->maps[M_PID] = (struct st_map_cfg){.kind = ST_K_COUNT, .key_size = 8};
	lay[M_PID].nr_parts = 1;
	lay[M_PID].parts[0] = (struct st_kpart){.kind = ST_KPART_INT, .pid = true};
	c->maps[M_USYM] = (struct st_map_cfg){.kind = ST_K_COUNT, .key_size = 16};
	lay[M_USYM].nr_parts = 1;
	lay[M_USYM].parts[0] = (struct st_kpart){.kind = ST_KPART_USYM};
	c->maps[M_STACK] = (struct st_map_cfg){.kind = ST_K_COUNT, .key_size = 8};
	lay[M_STACK].nr_parts = 1;
	lay[M_STACK].parts[0] = (struct st_kpart){.kind = ST_KPART_USTACK};
	c->maps[M_LIT] = (struct st_map_cfg){
		.kind = ST_K_COUNT, .key_size = ST_STR_LEN, .flags = ST_MAPF_READ_WHOLE};
	lay[M_LIT].nr_parts = 1;
	lay[M_LIT].parts[0] = (struct st_kpart){.kind = ST_KPART_STR};
	c->maps[M_VAL] = (struct st_map_cfg){.kind = ST_K_VALUE, .key_size = 8};
	lay[M_VAL].nr_parts = 1;
	lay[M_VAL].parts[0] = (struct st_kpart){.kind = ST_KPART_INT, .pid = true};
	c->maps[M_FLAT] = (struct st_map_cfg){.kind = ST_K_COUNT, .flags = ST_MAPF_FLAT};
	c->key_size = ST_KEY_HDR + ST_STR_LEN;
	c->compact_key_size = ST_KEY_HDR + 8;
}

/* The process's session as the collector makes it, its literals keyed from OWN_SITE. */
static int session(struct st_inproc *ip, const struct st_compiled *c, uint32_t *lit_site)
{
	int memfd = -1;

	memset(ip, 0, sizeof(*ip));
	ip->pid = OWN_PID;
	ip->fd = -1;
	*lit_site = OWN_SITE;
	ip->lit_site = lit_site;
	st_inproc_shm_params(c, &ip->params);
	/* 2,048 buckets a hash. */
	ip->params.aggr_entries = ip->params.compact_entries = ip->params.values_entries = 1024;
	if (st_inproc_memory(ip, &memfd))
		return -1;
	close(memfd);
	return 0;
}

/* A key of map id: its header (addr_parts), then the words of its first part. */
static void put_key(struct st_inproc *ip, const struct st_compiled *c, uint32_t id,
		    uint32_t addr_parts, uint64_t w0, uint64_t w1)
{
	struct st_key_hdr hdr = {.map_id = id, .addr_parts = addr_parts};
	struct st_val one = {.count = 1};
	struct st_value v = {0};
	uint8_t key[ST_KEY_MAX] = {0};
	bool plain = c->maps[id].kind == ST_K_VALUE;

	memcpy(key, &hdr, sizeof(hdr));
	memcpy(key + ST_KEY_HDR, &w0, 8);
	memcpy(key + ST_KEY_HDR + 8, &w1, 8);
	if (plain)
		CHECK(!st_shm_hash_update(&ip->values_geom, (void *)(ip->shm + ip->lay.values), key,
					  &v, 0, ST_SHM_ANY));
	else
		CHECK(!st_shm_hash_update(&ip->aggr_geom, (void *)(ip->shm + ip->lay.aggr), key,
					  &one, 0, ST_SHM_ANY));
}

struct seen {
	uint32_t per_map[NR_MAPS];
	uint64_t words[NR_MAPS][2]; /* the first part's words of the last key of each map */
};

static int collect(void *ctx, const uint8_t *key, const struct st_val *val, bool plain,
		   const void *value)
{
	struct seen *s = ctx;
	uint32_t id = st_key_map_id(key);

	s->per_map[id]++;
	memcpy(s->words[id], key + ST_KEY_HDR, sizeof(s->words[id]));
	return 0;
}

static void test_own_keys(void)
{
	struct st_ro_ref own = {.site = OWN_SITE, .off = -64}, other = {.site = OWN_SITE + 1};
	struct st_compiled c;
	struct st_inproc ip;
	struct seen s = {0};
	uint32_t lit_site;

	program(&c);
	if (session(&ip, &c, &lit_site)) {
		ok(false, "own keys: the session's memory");
		return;
	}
	put_key(&ip, &c, M_PID, 0, OWN_PID, 0);
	put_key(&ip, &c, M_PID, 0, OTHER_PID, 0);
	put_key(&ip, &c, M_USYM, 0, 0x401000, OWN_PID);
	put_key(&ip, &c, M_USYM, 0, 0x401000, OTHER_PID);
	put_key(&ip, &c, M_STACK, 0, 7, 0);
	put_key(&ip, &c, M_LIT, 1, own.site, own.off);
	put_key(&ip, &c, M_LIT, 1, other.site, other.off);
	/* A part by address past the map's parts. */
	put_key(&ip, &c, M_LIT, 2, own.site, own.off);
	/* By address in a map that never keys so. */
	put_key(&ip, &c, M_PID, 1, OWN_PID, 0);
	put_key(&ip, &c, M_VAL, 0, OWN_PID, 0);
	put_key(&ip, &c, M_VAL, 0, OTHER_PID, 0);
	/* Past the key's length: it would print as @p[OWN_PID] a second time. */
	put_key(&ip, &c, M_PID, 0, OWN_PID, 1);
	put_key(&ip, &c, M_FLAT, 0, 0, 0);
	CHECK(!st_inproc_each_key(&ip, &c, -1, true, collect, &s));
	CHECK(s.per_map[M_PID] == 1 && s.words[M_PID][0] == OWN_PID);
	CHECK(s.per_map[M_USYM] == 1 && s.words[M_USYM][1] == OWN_PID);
	CHECK(s.per_map[M_STACK] == 0);
	CHECK(s.per_map[M_LIT] == 1 && s.words[M_LIT][0] == OWN_SITE);
	CHECK(s.per_map[M_VAL] == 1 && s.words[M_VAL][0] == OWN_PID);
	CHECK(s.per_map[M_FLAT] == 0);
	CHECK(ip.tally.refused == 9);
	/* Without literal sites (none found in its mappings), no literal is its own. */
	ip.lit_site = NULL;
	memset(&s, 0, sizeof(s));
	CHECK(!st_inproc_each_key(&ip, &c, M_LIT, false, collect, &s) && !s.per_map[M_LIT]);
	munmap(ip.shm, ip.lay.size);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Every entry of a hash owned (an odd seq) and its lock held, for ever. */
static void hold_all(const struct st_shm_hash_geom *g, struct st_shm_hash *h)
{
	struct st_shm_hash_entry *e;
	uint32_t b;

	h->lock = 1;
	for (b = 0; b < g->nr_buckets; b++) {
		e = (void *)((char *)(h + 1) + (uint64_t)b * g->entry_size);
		e->seq = 1;
		e->state = ST_SHM_LIVE;
	}
}

static int count_keys(void *ctx, const uint8_t *key, const struct st_val *val, bool plain,
		      const void *value)
{
	++*(uint32_t *)ctx;
	return 0;
}

/*
 * A process that holds every entry: each was waited for up to 1,000
 * rounds of back-off, most of them sched_yield() (2,048 buckets a hash,
 * seconds a read; a default hash has 32,768). A read now waits 1,024
 * rounds over the whole process, then gives up on each at its first try,
 * and counts what it skipped.
 */
static void test_held_entries(void)
{
	uint8_t key[ST_KEY_MAX] = {0};
	struct st_val vals[1024];
	struct st_value v = {0};
	struct st_compiled c;
	struct st_inproc ip;
	uint32_t lit_site, n = 0;
	double t0, t;

	program(&c);
	if (session(&ip, &c, &lit_site)) {
		ok(false, "held entries: the session's memory");
		return;
	}
	hold_all(&ip.aggr_geom, (void *)(ip.shm + ip.lay.aggr));
	hold_all(&ip.compact_geom, (void *)(ip.shm + ip.lay.compact));
	hold_all(&ip.values_geom, (void *)(ip.shm + ip.lay.values));
	t0 = now();
	CHECK(!st_inproc_each_key(&ip, &c, -1, true, count_keys, &n) && !n);
	CHECK(!st_inproc_reset_keys(&ip, &c, -1, true));
	st_inproc_elem_agg(&ip, &c.maps[M_PID], key, vals);
	CHECK(!st_inproc_elem_value(&ip, key, &v));
	CHECK(st_inproc_elem_write(&ip, key, &v) == -EBUSY);
	st_inproc_elem_delete(&ip, true, key);
	t = now() - t0;
	printf("held entries: read, reset and element operations in %.3f s, %llu skipped\n", t,
	       (unsigned long long)ip.tally.budget.skipped);
	CHECK(t < 0.5);
	CHECK(ip.tally.budget.skipped >= 3 * ip.aggr_geom.nr_buckets);
	munmap(ip.shm, ip.lay.size);
}

int main(void)
{
	test_own_keys();
	test_held_entries();
	return unit_summary();
}
