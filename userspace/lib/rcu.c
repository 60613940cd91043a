// SPDX-License-Identifier: MIT
/*
 * The writer's side of the runtime's RCU (rcu.h says how readers work):
 * the list of threads that have read, grace periods, fork.
 */
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "rcu.h"

__thread struct side_rcu_reader side_rcu_self __attribute__((tls_model("initial-exec")));
uintptr_t side_rcu_period = 1;
bool side_rcu_reader_fence = true;

/* Guards the list; a grace period holds it while it scans. */
static pthread_mutex_t side_rcu_lock = PTHREAD_MUTEX_INITIALIZER;
/* One grace period at a time: two writers would flip the period under each other. */
static pthread_mutex_t side_rcu_gp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct side_rcu_reader *side_rcu_readers;
static pthread_key_t side_rcu_key;
static pthread_once_t side_rcu_once = PTHREAD_ONCE_INIT;

static void side_rcu_unlink(struct side_rcu_reader *r)
{
	*r->pprev = r->next;
	if (r->next)
		r->next->pprev = r->pprev;
	r->registered = false;
}

/* A thread that ends leaves the list: its counter's storage goes with it. */
static void side_rcu_thread_exit(void *arg)
{
	struct side_rcu_reader *r = arg;

	pthread_mutex_lock(&side_rcu_lock);
	if (r->registered)
		side_rcu_unlink(r);
	pthread_mutex_unlock(&side_rcu_lock);
}

static void side_rcu_key_init(void)
{
	(void)pthread_key_create(&side_rcu_key, side_rcu_thread_exit);
}

void side_rcu_register_thread(struct side_rcu_reader *r)
{
	pthread_once(&side_rcu_once, side_rcu_key_init);
	pthread_mutex_lock(&side_rcu_lock);
	r->next = side_rcu_readers;
	r->pprev = &side_rcu_readers;
	if (r->next)
		r->next->pprev = &r->next;
	side_rcu_readers = r;
	r->registered = true;
	pthread_mutex_unlock(&side_rcu_lock);
	(void)pthread_setspecific(side_rcu_key, r);
}

static bool side_rcu_membarrier(void)
{
	return !syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

/* Every thread's barrier: membarrier, or our own where readers fence. */
static void side_rcu_all_barrier(void)
{
	if (side_rcu_reader_fence || !side_rcu_membarrier())
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static bool side_rcu_old_readers(uintptr_t period)
{
	struct side_rcu_reader *r;

	for (r = side_rcu_readers; r; r = r->next) {
		uintptr_t c = __atomic_load_n(&r->ctr, __ATOMIC_RELAXED);

		if ((c & SIDE_RCU_NEST_MASK) && (c & SIDE_RCU_PERIOD) != period)
			return true;
	}
	return false;
}

/* Flips the period, then waits for every section begun before the flip. */
static void side_rcu_flip_and_wait(void)
{
	struct timespec pause = {.tv_nsec = 50000};
	uintptr_t period;
	int spins = 0;

	period = __atomic_xor_fetch(&side_rcu_period, SIDE_RCU_PERIOD, __ATOMIC_RELAXED);
	side_rcu_all_barrier();
	while (side_rcu_old_readers(period & SIDE_RCU_PERIOD)) {
		if (++spins < 1000)
			sched_yield();
		else
			nanosleep(&pause, NULL);
	}
	side_rcu_all_barrier();
}

void side_rcu_synchronize(void)
{
	pthread_mutex_lock(&side_rcu_gp_lock);
	/* What the caller published is seen before any reader's counter is read. */
	side_rcu_all_barrier();
	pthread_mutex_lock(&side_rcu_lock);
	/*
	 * Two flips: a reader may have loaded the period just before the
	 * first flip and stored it just after; the second flip waits for it.
	 */
	side_rcu_flip_and_wait();
	side_rcu_flip_and_wait();
	pthread_mutex_unlock(&side_rcu_lock);
	pthread_mutex_unlock(&side_rcu_gp_lock);
}

static void side_rcu_before_fork(void)
{
	pthread_mutex_lock(&side_rcu_gp_lock);
	pthread_mutex_lock(&side_rcu_lock);
}

static void side_rcu_after_fork_parent(void)
{
	pthread_mutex_unlock(&side_rcu_lock);
	pthread_mutex_unlock(&side_rcu_gp_lock);
}

/* In the child only this thread lives: the others' counters would block every grace period. */
static void side_rcu_after_fork_child(void)
{
	struct side_rcu_reader *self = &side_rcu_self;

	side_rcu_readers = NULL;
	if (self->registered) {
		self->next = NULL;
		self->pprev = &side_rcu_readers;
		side_rcu_readers = self;
	}
	pthread_mutex_unlock(&side_rcu_lock);
	pthread_mutex_unlock(&side_rcu_gp_lock);
}

void side_rcu_init(void)
{
	long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	if (cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
	    !syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0))
		__atomic_store_n(&side_rcu_reader_fence, false, __ATOMIC_RELAXED);
	(void)pthread_atfork(side_rcu_before_fork, side_rcu_after_fork_parent,
			     side_rcu_after_fork_child);
}
