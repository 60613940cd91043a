/* SPDX-License-Identifier: MIT */
/*
 * The runtime's read-copy-update: event calls read an event's callback
 * array without a lock or an atomic instruction; registration publishes a
 * new array and waits for a grace period before freeing the old one.
 *
 * Each thread has one counter (thread-local, registered once in a list the
 * writer scans). A reader copies the global period word into it on entry
 * and zeroes it on exit: two plain stores. The writer flips the period
 * twice and waits, each time, until no thread is inside a section begun
 * in the old period. The order of the reader's stores against its loads
 * comes from membarrier(PRIVATE_EXPEDITED) on the writer's side, which
 * makes every running thread execute a full barrier; where the kernel
 * lacks it, readers fall back to a fence of their own.
 */
#ifndef SIDE_RCU_H
#define SIDE_RCU_H

#include <stdbool.h>
#include <stdint.h>

/* Low bits: nesting depth of the thread's sections; one bit: the period. */
#define SIDE_RCU_NEST_MASK ((uintptr_t)0xffff)
#define SIDE_RCU_PERIOD ((uintptr_t)1 << 16)

struct side_rcu_reader {
	uintptr_t ctr;
	struct side_rcu_reader *next;
	struct side_rcu_reader **pprev;
	bool registered;
};

extern __thread struct side_rcu_reader side_rcu_self
	__attribute__((tls_model("initial-exec"), visibility("hidden")));
/* The period with a nesting count of one: what a reader stores on entry. */
extern uintptr_t side_rcu_period __attribute__((visibility("hidden")));
/* Readers need a fence of their own: the kernel has no membarrier. */
extern bool side_rcu_reader_fence __attribute__((visibility("hidden")));

void side_rcu_register_thread(struct side_rcu_reader *r) __attribute__((visibility("hidden")));
void side_rcu_synchronize(void) __attribute__((visibility("hidden")));
void side_rcu_init(void) __attribute__((visibility("hidden")));

static inline void side_rcu_barrier(void)
{
	if (__builtin_expect(side_rcu_reader_fence, 0))
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	else
		__asm__ __volatile__("" ::: "memory");
}

static inline void side_rcu_read_begin(void)
{
	struct side_rcu_reader *r = &side_rcu_self;
	uintptr_t c = r->ctr;

	if (__builtin_expect(!r->registered, 0))
		side_rcu_register_thread(r);
	if (c & SIDE_RCU_NEST_MASK)
		c++;
	else
		c = __atomic_load_n(&side_rcu_period, __ATOMIC_RELAXED);
	__atomic_store_n(&r->ctr, c, __ATOMIC_RELAXED);
	/* The section's loads stay after the store the writer reads. */
	side_rcu_barrier();
}

static inline void side_rcu_read_end(void)
{
	struct side_rcu_reader *r = &side_rcu_self;

	/* The section's loads stay before the store that ends it. */
	side_rcu_barrier();
	__atomic_store_n(&r->ctr, r->ctr - 1, __ATOMIC_RELAXED);
}

#define side_rcu_dereference(p) __atomic_load_n(&(p), __ATOMIC_CONSUME)
#define side_rcu_assign_pointer(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

#endif /* SIDE_RCU_H */
