// SPDX-License-Identifier: MIT
/* The collector's helper threads (util/thread.h). */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>

#include "unit.h"
#include "util/thread.h"

struct seen {
	int cpus; /* the CPUs the thread may run on */
	int cpu; /* and the one it ran on */
	bool blocked; /* SIGINT blocked in the thread */
};

static void *where(void *arg)
{
	struct seen *s = arg;
	cpu_set_t set;
	sigset_t now;

	s->cpu = sched_getcpu();
	s->cpus = pthread_getaffinity_np(pthread_self(), sizeof(set), &set) ? -1 : CPU_COUNT(&set);
	s->blocked = !pthread_sigmask(SIG_BLOCK, NULL, &now) && sigismember(&now, SIGINT);
	return NULL;
}

static volatile bool spin;

/* Keeps a CPU busy: where a plain thread would not be placed either. */
static void *spinner(void *arg)
{
	(void)arg;
	while (spin)
		;
	return NULL;
}

/*
 * Started aside, the thread starts on another CPU than its creator's,
 * then may run on every CPU its creator may. The creator may use two
 * CPUs, the other one kept busy: a plain thread would as likely start
 * beside its creator. The creator could move between its own look at
 * its CPU and the start's: three tries.
 */
static void test_aside(void)
{
	struct seen s = {.cpu = -1};
	cpu_set_t all, two, other;
	pthread_attr_t attr;
	bool away = false;
	int i, mine, c1 = -1;
	pthread_t t, busy;

	if (sched_getaffinity(0, sizeof(all), &all)) {
		ok(false, "aside: the caller's CPUs");
		return;
	}
	mine = sched_getcpu();
	for (i = 0; i < CPU_SETSIZE && c1 < 0; i++)
		if (i != mine && CPU_ISSET(i, &all))
			c1 = i;
	if (c1 < 0) {
		ok(st_thread_start_aside(&t, where, &s), "aside: started on the one CPU");
		pthread_join(t, NULL);
		ok(s.cpu == mine && s.cpus == 1, "aside: one CPU, the caller's");
		return;
	}
	CPU_ZERO(&two);
	CPU_SET(mine, &two);
	CPU_SET(c1, &two);
	CPU_ZERO(&other);
	CPU_SET(c1, &other);
	spin = true;
	if (sched_setaffinity(0, sizeof(two), &two) || pthread_attr_init(&attr) ||
	    pthread_attr_setaffinity_np(&attr, sizeof(other), &other) ||
	    pthread_create(&busy, &attr, spinner, NULL)) {
		ok(false, "aside: two CPUs, one busy");
		return;
	}
	pthread_attr_destroy(&attr);
	for (i = 0; i < 3 && !away; i++) {
		mine = sched_getcpu();
		ok(st_thread_start_aside(&t, where, &s), "aside: started");
		pthread_join(t, NULL);
		away = s.cpu >= 0 && s.cpu != mine;
	}
	spin = false;
	pthread_join(busy, NULL);
	sched_setaffinity(0, sizeof(all), &all);
	ok(away, "aside: started on another CPU than the caller's");
	ok(s.cpus == 2, "aside: then free to run on both CPUs of the caller's");
	ok(s.blocked, "aside: the thread takes no signal");
}

/* A plain start: signals blocked in the thread, the caller's mask unchanged. */
static void test_start(void)
{
	struct seen s = {.cpu = -1};
	sigset_t before, after;
	pthread_t t;

	pthread_sigmask(SIG_BLOCK, NULL, &before);
	ok(st_thread_start(&t, where, &s), "start: started");
	pthread_join(t, NULL);
	pthread_sigmask(SIG_BLOCK, NULL, &after);
	ok(s.blocked, "start: the thread takes no signal");
	ok(sigismember(&before, SIGINT) == sigismember(&after, SIGINT),
	   "start: the caller's mask unchanged");
}

int main(void)
{
	test_aside();
	test_start();
	return unit_summary();
}
