// SPDX-License-Identifier: MIT
/*
 * What a process's engine is handed: the compiled program as it takes it
 * (struct st_ip_prog: the kernel's configurations and, per probe, the
 * SIDE names of its event) and its shared memory, laid out here. Apart
 * from the session (inproc.c) so that the fuzzer hands the engine what
 * the collector would (tests/fuzz/fuzz_inproc.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "inproc/inproc.h"
#include "inproc/inproc_prog.h"

void st_inproc_shm_params(const struct st_compiled *c, struct st_shm_params *sp)
{
	int cpus = get_nprocs_conf();

	memset(sp, 0, sizeof(*sp));
	sp->nr_slots = cpus > 0 ? cpus : 1;
	sp->nr_probes = c->nr_probes;
	sp->nr_flat = c->nr_flat ? c->nr_flat : 1;
	sp->key_size = c->key_size;
	/* Its engine runs the plain programs' probes on the stack machine: full keys. */
	sp->aggr_entries = st_compiled_hash_entries(c, ST_HASH_AGGR | ST_HASH_COMPACT);
	sp->compact_key_size = c->compact_key_size;
	sp->compact_entries = st_compiled_hash_entries(c, ST_HASH_COMPACT);
	sp->values_entries = st_compiled_hash_entries(c, ST_HASH_VALUES);
	sp->ring_size = st_compiled_events_size(c);
}

struct st_ip_event *st_inproc_program_events(void *prog)
{
	struct st_ip_prog *p = prog;

	return (void *)((struct st_map_cfg *)(p + 1) + p->nr_maps);
}

void *st_inproc_program(const struct st_inproc *ip, const struct st_compiled *c, bool deferred,
			size_t *len)
{
	size_t n = c->nr_probes, size;
	struct st_ip_event *events;
	struct st_probe_cfg *cfgs;
	struct st_ip_prog *p;
	enum st_prog prog;
	uint32_t i;

	size = sizeof(*p) + c->nr_maps * sizeof(struct st_map_cfg) +
	       n * (sizeof(*events) + sizeof(*cfgs));
	p = calloc(1, size);
	if (!p)
		return NULL;
	p->version = ST_IP_VERSION;
	p->nr_probes = n;
	p->nr_maps = c->nr_maps;
	p->key_words = (c->key_size - ST_KEY_HDR) / 8;
	p->ckey_words = (c->compact_key_size - ST_KEY_HDR) / 8;
	p->deferred = deferred;
	p->shm_size = ip->lay.size;
	p->shm = ip->params;
	memcpy(p + 1, c->maps, c->nr_maps * sizeof(struct st_map_cfg));
	events = st_inproc_program_events(p);
	cfgs = (void *)(events + n);
	for (i = 0; i < n; i++) {
		const struct st_event *ev = c->probes[i].event;

		cfgs[i] = c->probes[i].cfg;
		/* A probe the engine does not serve names no event. */
		if (!ip->served[i])
			continue;
		snprintf(events[i].provider, sizeof(events[i].provider), "%s", ev->provider);
		snprintf(events[i].name, sizeof(events[i].name), "%s", ev->name);
		events[i].nr_fields = ev->nr_fields;
		events[i].variadic = ev->variadic;
		prog = st_compiled_prog(&c->probes[i]);
		/* The engine runs keyed_event() whole for both keyed programs. */
		events[i].run = prog == ST_PROG_KEYED || prog == ST_PROG_KEYED1 ? ST_IP_RUN_KEYED
										: ST_IP_RUN_EVENT;
	}
	*len = size;
	return p;
}

int st_inproc_memory(struct st_inproc *ip, int *memfd)
{
	struct st_shm_hdr *hdr;
	int fd, ret;

	if (!st_shm_layout(&ip->params, &ip->lay) ||
	    !st_shm_geoms(&ip->params, &ip->aggr_geom, &ip->compact_geom, &ip->values_geom))
		return -E2BIG;
	/* What a read of its hashes may wait for entries the process holds (inproc_read.c). */
	ip->aggr_geom.budget = ip->compact_geom.budget = ip->values_geom.budget = &ip->tally.budget;
	fd = memfd_create("sidetrace-inproc", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, ip->lay.size)) {
		ret = -errno;
		goto fail;
	}
	ip->shm = mmap(NULL, ip->lay.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ip->shm == MAP_FAILED) {
		ip->shm = NULL;
		ret = -errno;
		goto fail;
	}
	hdr = (void *)ip->shm;
	hdr->magic = ST_SHM_MAGIC;
	hdr->version = ST_IP_VERSION;
	st_shm_hash_init(&ip->aggr_geom, (void *)(ip->shm + ip->lay.aggr));
	st_shm_hash_init(&ip->compact_geom, (void *)(ip->shm + ip->lay.compact));
	st_shm_hash_init(&ip->values_geom, (void *)(ip->shm + ip->lay.values));
	st_shm_ring_init((void *)(ip->shm + ip->lay.ring), ip->params.ring_size);
	*memfd = fd;
	return 0;
fail:
	close(fd);
	return ret;
}
