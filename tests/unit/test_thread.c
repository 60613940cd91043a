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

/*
 * Started aside, the thread may run on every CPU of its creator's but
 * the one the creator was on, and so never waits behind it there.
 */
static void test_aside(void)
{
	struct seen s = {.cpu = -1};
	cpu_set_t all;
	pthread_t t;
	int n;

	if (sched_getaffinity(0, sizeof(all), &all)) {
		ok(false, "aside: the caller's CPUs");
		return;
	}
	n = CPU_COUNT(&all);
	ok(st_thread_start_aside(&t, where, &s), "aside: started");
	pthread_join(t, NULL);
	ok(s.cpus == (n > 1 ? n - 1 : n), "aside: every CPU of the caller's but one");
	ok(s.cpu >= 0 && CPU_ISSET(s.cpu, &all), "aside: ran on one of them");
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
