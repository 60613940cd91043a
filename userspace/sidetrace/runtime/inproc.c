// SPDX-License-Identifier: MIT
/*
 * --in-process: the compiled program as the engine takes it (struct
 * st_ip_prog: the kernel's configurations and, per probe, the SIDE names
 * of its event), its shared memory made and laid out here, both handed
 * to the process's agent (inproc_client.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "runtime/inproc.h"
#include "runtime/inproc_client.h"
#include "runtime/loader.h"

bool st_inproc_can_serve(const struct st_compiled_probe *p)
{
	const struct st_event *ev = p->event;

	return ev && ev->view == ST_VIEW_SIDE && ev->has_side && !p->cfg.stacks;
}

uint32_t st_inproc_site_delta(const struct st_compiled *c, const struct st_compiled_probe *p,
			      const struct st_site *site)
{
	return c->inproc_all && st_inproc_can_serve(p) ? site->fallback_delta : 0;
}

static void shm_params(const struct st_compiled *c, struct st_shm_params *sp)
{
	int cpus = get_nprocs_conf();

	memset(sp, 0, sizeof(*sp));
	sp->nr_slots = cpus > 0 ? cpus : 1;
	sp->nr_probes = c->nr_probes;
	sp->nr_flat = c->nr_flat ? c->nr_flat : 1;
	sp->key_size = c->key_size;
	sp->aggr_entries = ST_DEFAULT_MAP_ENTRIES;
	sp->values_entries = ST_DEFAULT_MAP_ENTRIES;
	sp->ring_size = !st_compiled_streams(c) ? ST_EVENTS_MIN_SIZE
			: c->events_size	? c->events_size
						: ST_EVENTS_DEFAULT_SIZE;
}

/* The program: header, map configurations, events, probe configurations. */
static void *build_program(const struct st_inproc *ip, const struct st_compiled *c, bool deferred,
			   size_t *len)
{
	size_t n = c->nr_probes, size;
	struct st_ip_event *events;
	struct st_probe_cfg *cfgs;
	struct st_ip_prog *p;
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
	events = (void *)((struct st_map_cfg *)(p + 1) + c->nr_maps);
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
		events[i].run = st_compiled_prog(&c->probes[i]) == ST_PROG_KEYED ? ST_IP_RUN_KEYED
										 : ST_IP_RUN_EVENT;
	}
	*len = size;
	return p;
}

/* The memfd, laid out and initialized; its mapping in ip->shm. -errno. */
static int make_memory(struct st_inproc *ip, int *memfd)
{
	struct st_shm_hdr *hdr;
	int fd, ret;

	if (!st_shm_layout(&ip->params, &ip->lay) ||
	    !st_shm_geoms(&ip->params, &ip->aggr_geom, &ip->values_geom))
		return -E2BIG;
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
	st_shm_hash_init(&ip->values_geom, (void *)(ip->shm + ip->lay.values));
	st_shm_ring_init((void *)(ip->shm + ip->lay.ring), ip->params.ring_size);
	*memfd = fd;
	return 0;
fail:
	close(fd);
	return ret;
}

/*
 * The plain values stored before the process runs the program (BEGIN),
 * which its clauses read and update: copied from the kernel's st_values.
 */
static void seed_values(struct st_inproc *ip, const struct st_loader *l)
{
	struct st_shm_hash *h = (void *)(ip->shm + ip->lay.values);
	size_t ks = ip->values_geom.key_size;
	uint8_t *prev, *next;
	struct st_value v;
	bool first = true;

	prev = calloc(2, ks);
	if (!prev)
		return;
	next = prev + ks;
	while (!bpf_map_get_next_key(l->values_fd, first ? NULL : prev, next)) {
		first = false;
		memcpy(prev, next, ks);
		if (!bpf_map_lookup_elem(l->values_fd, next, &v))
			st_shm_hash_update(&ip->values_geom, h, next, &v, 0, ST_SHM_ANY);
	}
	free(prev);
}

/* Connects to pid's agent, waiting up to wait_ms for it to start listening. */
static int connect_agent(pid_t pid, int wait_ms, int *fd, char *err, size_t errlen)
{
	struct timespec pause = {.tv_nsec = 5 * 1000 * 1000};
	int ret, waited = 0;

	for (;;) {
		ret = st_ip_connect(pid, fd, err, errlen);
		if (ret != -ECONNREFUSED || waited >= wait_ms || kill(pid, 0))
			return ret;
		nanosleep(&pause, NULL);
		waited += 5;
	}
}

int st_inproc_start(struct st_loader *l, const struct st_compiled *c, pid_t pid, int wait_ms,
		    bool deferred, char *err, size_t errlen)
{
	struct st_ip_reply reply;
	struct st_inproc *ip;
	int ret, memfd = -1;
	void *prog = NULL;
	size_t len = 0;
	uint32_t i;

	ip = calloc(1, sizeof(*ip));
	if (!ip || !(ip->served = calloc(c->nr_probes + 1, sizeof(*ip->served)))) {
		free(ip);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ip->pid = pid;
	ip->fd = -1;
	for (i = 0; i < c->nr_probes; i++)
		ip->served[i] = st_inproc_can_serve(&c->probes[i]);
	shm_params(c, &ip->params);
	ret = make_memory(ip, &memfd);
	if (ret) {
		snprintf(err, errlen, "cannot make the in-process session's memory: %s",
			 strerror(-ret));
		goto fail;
	}
	seed_values(ip, l);
	prog = build_program(ip, c, deferred, &len);
	if (!prog) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	ret = connect_agent(pid, wait_ms, &ip->fd, err, errlen);
	if (ret)
		goto fail;
	ret = st_ip_attach(ip->fd, prog, len, memfd, &reply, ST_IP_CONNECT_TIMEOUT_MS);
	if (ret) {
		snprintf(err, errlen, "pid %d refused the in-process program: %s", pid, reply.err);
		goto fail;
	}
	ip->nr_events = reply.nr_events;
	/* Whole before it is seen: serve's HTTP thread reads the list. */
	ip->next = l->inproc;
	__atomic_store_n(&l->inproc, ip, __ATOMIC_RELEASE);
	goto cleanup;
fail:
	st_inproc_close(ip);
cleanup:
	free(prog);
	if (memfd >= 0)
		close(memfd);
	return ret;
}

uint64_t st_inproc_go_addr(const struct st_inproc *ip)
{
	return ((const struct st_shm_hdr *)ip->shm)->go_addr;
}

int st_inproc_go(const struct st_inproc *ip)
{
	return st_ip_go(ip->fd);
}

void st_inproc_stop(const struct st_inproc *ip)
{
	for (; ip; ip = ip->next)
		__atomic_store_n(&((struct st_shm_hdr *)ip->shm)->stopped, 1, __ATOMIC_RELEASE);
}

bool st_inproc_exit_requested(const struct st_inproc *ip)
{
	for (; ip; ip = ip->next)
		if (__atomic_load_n(&((struct st_shm_hdr *)ip->shm)->exit_requested,
				    __ATOMIC_RELAXED))
			return true;
	return false;
}

void st_inproc_close(struct st_inproc *ip)
{
	struct st_inproc *next;

	for (; ip; ip = next) {
		next = ip->next;
		if (ip->fd >= 0)
			st_ip_detach(ip->fd);
		if (ip->shm)
			munmap(ip->shm, ip->lay.size);
		free(ip->served);
		free(ip);
	}
}
