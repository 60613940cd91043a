// SPDX-License-Identifier: MIT
/* Helper threads of the collector (thread.h). */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdlib.h>

#include "util/thread.h"

/* pthread_create() with attr (or NULL), every signal blocked in the thread. */
static bool start(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	bool started;

	sigfillset(&all);
	if (pthread_sigmask(SIG_SETMASK, &all, &old))
		return false;
	started = !pthread_create(thread, attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return started;
}

bool st_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	return start(thread, NULL, fn, arg);
}

/* A thread started aside: its function, and the CPUs it may move to once started. */
struct aside {
	void *(*fn)(void *);
	void *arg;
	cpu_set_t cpus;
};

static void *run_aside(void *p)
{
	struct aside a = *(struct aside *)p;

	free(p);
	/* Started away from its creator; from now on, wherever the scheduler likes. */
	pthread_setaffinity_np(pthread_self(), sizeof(a.cpus), &a.cpus);
	return a.fn(a.arg);
}

bool st_thread_start_aside(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	struct aside *a = malloc(sizeof(*a));
	int cpu = sched_getcpu();
	pthread_attr_t attr;
	cpu_set_t others;
	bool started;

	/* One CPU, or more than a cpu_set_t holds: where the scheduler likes. */
	if (!a || cpu < 0 || cpu >= CPU_SETSIZE ||
	    sched_getaffinity(0, sizeof(a->cpus), &a->cpus) || CPU_COUNT(&a->cpus) < 2 ||
	    pthread_attr_init(&attr))
		goto plain;
	a->fn = fn;
	a->arg = arg;
	others = a->cpus;
	CPU_CLR(cpu, &others);
	started = !pthread_attr_setaffinity_np(&attr, sizeof(others), &others) &&
		  start(thread, &attr, run_aside, a);
	pthread_attr_destroy(&attr);
	if (started)
		return true;
plain:
	free(a);
	return start(thread, NULL, fn, arg);
}
