// SPDX-License-Identifier: MIT
/* Helper threads of the collector (thread.h). */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>

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

bool st_thread_start_aside(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	cpu_set_t cpus;
	bool started;
	int cpu = sched_getcpu();

	/* One CPU, or more than a cpu_set_t holds: where the scheduler likes. */
	if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(cpus), &cpus) ||
	    CPU_COUNT(&cpus) < 2)
		return start(thread, NULL, fn, arg);
	CPU_CLR(cpu, &cpus);
	if (pthread_attr_init(&attr))
		return start(thread, NULL, fn, arg);
	started = !pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus) &&
		  start(thread, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return started || start(thread, NULL, fn, arg);
}
