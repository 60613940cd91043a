// SPDX-License-Identifier: MIT
/*
 * --in-process of every process, or of a -c command (st_inproc_take())
 * and its descendants: the agents listening now (their abstract sockets
 * in /proc/net/unix), each given the program as it shows up. The kernel's
 * probes at the side: sites' fallbacks count a process's events until its
 * engine disarms them (ST_IP_GO), the engine from then on: each event goes
 * one way or the other at its site's fallback (side/probe.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpfload/follow.h"
#include "inproc/inproc.h"
#include "inproc/inproc_client.h"
#include "bpfload/loader.h"
#include "util/escape.h"
#include "util/grow.h"
#include "util/thread.h"

#define RESCAN_NS (250 * 1000 * 1000ULL)

/* A process given the program by a thread of its own (st_inproc_poll()). */
struct st_attach_job {
	pthread_t thread;
	struct st_inprocs *s;
	const struct st_loader *l;
	const struct st_compiled *c;
	pid_t pid;
	bool quiet;
	bool running; /* to be joined */
	bool done; /* the thread has returned */
};

/*
 * The processes tried, whichever way it went: each is tried once, by pid
 * and start time. One that is gone is forgotten: a new process may have
 * its pid.
 */
struct st_tried {
	pid_t pid;
	unsigned long long start; /* its start time, /proc/PID/stat field 22 */
};

/* A session's processes tried (st_inprocs.seen). */
struct st_inproc_seen {
	struct st_tried *procs;
	size_t nr, cap;
	uint64_t next_scan;
	struct st_attach_job jobs[ST_INPROC_ATTACHING];
};

/* pid's start time in clock ticks since boot; 0 if it is gone. */
static unsigned long long start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	/* After the comm's last ')': field 3 on. */
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')'))) {
		for (i = 3, p++; i < 22 && p; i++)
			p = strchr(p + 1, ' ');
		if (p)
			t = strtoull(p + 1, NULL, 10);
	}
	fclose(f);
	return t;
}

static bool tried(const struct st_inproc_seen *seen, pid_t pid)
{
	size_t i;

	for (i = 0; i < seen->nr; i++)
		if (seen->procs[i].pid == pid)
			return true;
	return false;
}

static struct st_tried *remember(struct st_inproc_seen *seen, pid_t pid)
{
	struct st_tried *p;

	if (st_grow(&seen->procs, &seen->cap, seen->nr, sizeof(*seen->procs), 64))
		return NULL;
	p = &seen->procs[seen->nr++];
	*p = (struct st_tried){.pid = pid, .start = start_time(pid)};
	return p;
}

/* Forgets the processes gone (or whose pid is another's now). */
static void forget_gone(struct st_inproc_seen *seen)
{
	size_t i, n = 0;

	for (i = 0; i < seen->nr; i++)
		if (start_time(seen->procs[i].pid) == seen->procs[i].start)
			seen->procs[n++] = seen->procs[i];
	seen->nr = n;
}

/* Whether pid maps the object of one of the probes an engine can serve. */
static bool maps_a_target(const struct st_compiled *c, pid_t pid)
{
	char path[64], line[4096], *file, real[4096];
	bool found = false;
	uint32_t i;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f)) {
		file = strchr(line, '/');
		if (!file)
			continue;
		file[strcspn(file, "\n")] = '\0';
		for (i = 0; i < c->nr_probes && !found; i++)
			found = st_probe_served_in_process(&c->probes[i]) &&
				realpath(c->probes[i].event->path, real) && !strcmp(real, file);
	}
	if (f)
		fclose(f);
	return found;
}

static bool seen_alloc(struct st_inprocs *s)
{
	if (!s->seen)
		s->seen = calloc(1, sizeof(*s->seen));
	return s->seen;
}

/*
 * Gives pid the program and starts its engine, saying how it went; the
 * kernel counts its events until the engine disarms the fallbacks
 * (ST_IP_GO). -ECHILD: a wrapper (st_inproc_start()), said nothing of.
 */
static int take(struct st_inprocs *s, const struct st_loader *l, const struct st_compiled *c,
		pid_t pid, int wait_ms, bool quiet)
{
	struct st_inproc *ip = NULL;
	char err[512];
	int ret;

	ret = st_inproc_start(s, l, c, pid, wait_ms, true, &ip, err, sizeof(err));
	if (ret == -ECHILD)
		return ret;
	if (!ret) {
		ret = st_inproc_go(ip);
		if (ret)
			snprintf(err, sizeof(err), "cannot start pid %d's engine: %s", pid,
				 strerror(-ret));
	}
	if (ret && ret != -ECANCELED && !kill(pid, 0))
		st_errorf("%s: the side: probes of pid %d run in the kernel", err, pid);
	else if (!ret && !quiet)
		st_errorf("pid %d runs the side: probes in the process", pid);
	return ret;
}

void st_inproc_take(struct st_inprocs *s, const struct st_loader *l, const struct st_compiled *c,
		    pid_t pid, int wait_ms, bool quiet)
{
	struct st_tried *t = seen_alloc(s) ? remember(s->seen, pid) : NULL;

	/* A wrapper, forgotten (t is the last): tried again should its agent show up. */
	if (t && t->start && take(s, l, c, pid, wait_ms, quiet) == -ECHILD)
		s->seen->nr--;
}

static void *attach_job(void *arg)
{
	struct st_attach_job *j = arg;

	take(j->s, j->l, j->c, j->pid, 0, j->quiet);
	__atomic_store_n(&j->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* Joins the jobs done (all: wait for every one); returns a free one, or NULL. */
static struct st_attach_job *jobs_reap(struct st_inproc_seen *seen, bool all)
{
	struct st_attach_job *free_job = NULL;
	size_t i;

	for (i = 0; i < ST_INPROC_ATTACHING; i++) {
		struct st_attach_job *j = &seen->jobs[i];

		if (j->running && (all || __atomic_load_n(&j->done, __ATOMIC_ACQUIRE))) {
			pthread_join(j->thread, NULL);
			j->running = false;
		}
		if (!j->running && !free_job)
			free_job = j;
	}
	return free_job;
}

/* Starts a job giving pid the program; false when none is free (pid is tried again later). */
static bool job_start(struct st_inprocs *s, const struct st_loader *l, const struct st_compiled *c,
		      pid_t pid, bool quiet)
{
	struct st_attach_job *j = jobs_reap(s->seen, false);
	struct st_tried *t;

	if (!j || !(t = remember(s->seen, pid)))
		return false;
	if (!t->start)
		return true;
	*j = (struct st_attach_job){.s = s, .l = l, .c = c, .pid = pid, .quiet = quiet};
	j->running = st_thread_start(&j->thread, attach_job, j);
	if (!j->running)
		take(s, l, c, pid, 0, quiet);
	return true;
}

/* The pid of a /proc/net/unix line's path "@sidetrace-inproc.PID", or 0. */
static pid_t agent_of(const char *line)
{
	const char *at = strrchr(line, '@');
	int pid, n = 0;

	if (!at || sscanf(at, "@" ST_IP_SOCK_FMT "%n", &pid, &n) != 1 || at[n] != '\n' || pid <= 0)
		return 0;
	return pid;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void st_inproc_poll(struct st_inprocs *s, const struct st_loader *l, const struct st_compiled *c,
		    bool quiet)
{
	struct st_inproc_seen *seen;
	char line[512];
	FILE *f;
	pid_t pid;

	if (!c->inproc_all || !seen_alloc(s))
		return;
	seen = s->seen;
	if (now_ns() < seen->next_scan)
		return;
	seen->next_scan = now_ns() + RESCAN_NS;
	forget_gone(seen);
	f = fopen("/proc/net/unix", "re");
	if (!f)
		return;
	while (!st_ip_stopping() && fgets(line, sizeof(line), f)) {
		pid = agent_of(line);
		if (!pid || pid == getpid() || tried(seen, pid))
			continue;
		/* -c: the command's descendants only, which the kernel follows until then. */
		if (!(l->follow ? st_follow_has(l, pid) : maps_a_target(c, pid)))
			remember(seen, pid);
		else if (!job_start(s, l, c, pid, quiet))
			break;
	}
	fclose(f);
}

void st_inprocs_close(struct st_inprocs *s)
{
	if (s->seen) {
		st_ip_end();
		jobs_reap(s->seen, true);
		free(s->seen->procs);
		free(s->seen);
		s->seen = NULL;
	}
	st_inproc_close(s->list);
	s->list = NULL;
}
