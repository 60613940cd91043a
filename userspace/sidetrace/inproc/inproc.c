// SPDX-License-Identifier: MIT
/*
 * --in-process: a process's session, the program and memory made by
 * inproc_prog.c handed to its agent (inproc_client.c), and its end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "inproc/inproc.h"
#include "inproc/inproc_prog.h"
#include "inproc/inproc_client.h"
#include "bpfload/loader.h"

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

/* Whether probe p's code runs exit() (the specialized programs never do). */
static bool probe_may_exit(const struct st_compiled_probe *p)
{
	uint32_t i;

	for (i = 0; i < p->cfg.nr_insns && i < ST_MAX_INSNS; i++)
		if (p->cfg.insns[i].op == ST_I_EXIT)
			return true;
	return false;
}

/* Where the engine keys each probe's literals (st_inproc.lit_site), from its program. */
static void note_literal_sites(struct st_inproc *ip, const struct st_compiled *c, void *prog)
{
	const struct st_ip_event *events = st_inproc_program_events(prog);
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		ip->lit_site[i] = events[i].ro_len ? events[i].ro_site : UINT32_MAX;
}

/* Whether pid's main thread has forked a child that is still there. */
static bool has_children(pid_t pid)
{
	char path[64], c = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fread(&c, 1, 1, f) != 1)
		c = 0;
	fclose(f);
	return c != 0;
}

/*
 * Connects to pid's agent, waiting up to wait_ms for it to start
 * listening; -ECHILD as soon as pid has forked without one (a wrapper
 * such as sh -c or time, whose children are looked for instead).
 */
static int connect_agent(pid_t pid, int wait_ms, int *fd, char *err, size_t errlen)
{
	struct timespec pause = {.tv_nsec = 5 * 1000 * 1000};
	int ret, waited = 0;

	for (;;) {
		ret = st_ip_connect(pid, fd, err, errlen);
		if (ret != -ECONNREFUSED || waited >= wait_ms || kill(pid, 0) || st_ip_stopping())
			return ret;
		if (has_children(pid)) {
			snprintf(err, errlen, "pid %d forked before its agent listened", pid);
			return -ECHILD;
		}
		nanosleep(&pause, NULL);
		waited += 5;
	}
}

int st_inproc_start(struct st_inprocs *s, const struct st_loader *l, const struct st_compiled *c,
		    pid_t pid, int wait_ms, bool deferred, struct st_inproc **started, char *err,
		    size_t errlen)
{
	struct st_ip_reply reply;
	struct st_inproc *ip;
	int ret, memfd = -1;
	void *prog = NULL;
	size_t len = 0;
	uint32_t i;

	ip = calloc(1, sizeof(*ip));
	if (!ip || !(ip->served = calloc(c->nr_probes + 1, sizeof(*ip->served))) ||
	    !(ip->lit_site = calloc(c->nr_probes + 1, sizeof(*ip->lit_site)))) {
		if (ip)
			free(ip->served);
		free(ip);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ip->pid = pid;
	ip->fd = -1;
	for (i = 0; i < c->nr_probes; i++) {
		ip->served[i] = st_probe_served_in_process(&c->probes[i]);
		ip->may_exit |= ip->served[i] && probe_may_exit(&c->probes[i]);
	}
	st_inproc_shm_params(c, &ip->params);
	ret = st_inproc_memory(ip, &memfd);
	if (ret) {
		snprintf(err, errlen, "cannot make the in-process session's memory: %s",
			 strerror(-ret));
		goto fail;
	}
	/* Before BEGIN has run it counts nothing (st_inprocs_begin()). */
	((struct st_shm_hdr *)ip->shm)->stopped = !__atomic_load_n(&s->begun, __ATOMIC_SEQ_CST);
	seed_values(ip, l);
	prog = st_inproc_program(ip, c, deferred, &len);
	if (!prog) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	ret = connect_agent(pid, wait_ms, &ip->fd, err, errlen);
	if (ret)
		goto fail;
	/* Its agent runs: the process is past exec(), its objects mapped. */
	if (st_inproc_literals(l, c, pid, ip->served, st_inproc_program_events(prog)) == -ENOMEM) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	note_literal_sites(ip, c, prog);
	ret = st_ip_attach(ip->fd, prog, len, memfd, &reply, ST_IP_CONNECT_TIMEOUT_MS);
	if (ret) {
		snprintf(err, errlen, "pid %d refused the in-process program: %s", pid, reply.err);
		goto fail;
	}
	ip->nr_events = reply.nr_events;
	/* Whole before it is seen: serve's HTTP thread reads the list, attach threads add to it. */
	ip->next = __atomic_load_n(&s->list, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&s->list, &ip->next, ip, true, __ATOMIC_SEQ_CST,
					    __ATOMIC_RELAXED))
		;
	/* BEGIN ran while it started: st_inprocs_begin() may not have seen it in the list. */
	if (__atomic_load_n(&s->begun, __ATOMIC_SEQ_CST))
		__atomic_store_n(&((struct st_shm_hdr *)ip->shm)->stopped, 0, __ATOMIC_RELEASE);
	if (started)
		*started = ip;
	goto cleanup;
fail:
	st_inproc_close(ip);
cleanup:
	free(prog);
	if (memfd >= 0)
		close(memfd);
	return ret;
}

int st_inproc_go(const struct st_inproc *ip)
{
	return st_ip_go(ip->fd);
}

void st_inprocs_begin(struct st_inprocs *s)
{
	struct st_inproc *ip;

	__atomic_store_n(&s->begun, 1, __ATOMIC_SEQ_CST);
	for (ip = __atomic_load_n(&s->list, __ATOMIC_SEQ_CST); ip; ip = ip->next)
		__atomic_store_n(&((struct st_shm_hdr *)ip->shm)->stopped, 0, __ATOMIC_RELEASE);
}

void st_inproc_stop(const struct st_inproc *ip)
{
	for (; ip; ip = ip->next)
		__atomic_store_n(&((struct st_shm_hdr *)ip->shm)->stopped, 1, __ATOMIC_RELEASE);
}

bool st_inproc_exit_requested(const struct st_inproc *ip)
{
	for (; ip; ip = ip->next)
		if (ip->may_exit && __atomic_load_n(&((struct st_shm_hdr *)ip->shm)->exit_requested,
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
		free(ip->lit_site);
		free(ip);
	}
}
