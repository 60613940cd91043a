// SPDX-License-Identifier: MIT
/*
 * The helpers of bpf_host.h: the SDT arguments of an event computed from
 * its argument vector as the probe site computes them, the thread's
 * identity and scratch memory, the clock, the CPU slot, and reads of
 * application memory that never fault (readable.c).
 */
#define _GNU_SOURCE
#include <linux/rseq.h>
#include <sched.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include <side/probe.h>
#include "host.h"
#include "engine_state.h"
#include "readable.h"

/* What a thread keeps for one session (st_eng.gen). */
struct st_thread {
	uint32_t gen;
	uint32_t pid, tid;
	uint32_t rand;
	void *mem; /* its scratch, st_host_thread_mem() */
	size_t mem_size;
};

static __thread struct st_thread st_self;

/* The scratch of every thread, freed when the session ends. */
struct st_mem_block {
	struct st_mem_block *next;
	size_t size;
};

/* Pushed without a lock: a thread's first event may be a signal handler's. */
static struct st_mem_block *st_mem_blocks;

static struct st_thread *self(void)
{
	struct st_thread *t = &st_self;
	uint32_t gen = __atomic_load_n(&st_eng.gen, __ATOMIC_ACQUIRE);

	if (t->gen != gen) {
		t->gen = gen;
		t->pid = getpid();
		t->tid = gettid();
		t->rand = t->tid * 2654435761U | 1;
		t->mem = NULL;
	}
	return t;
}

/*
 * The vector and its array are the ones the application's event handed
 * the callback, built by the side_event macros on its stack: read in
 * place, as every in-process tracer reads them. What they point to
 * (strings, nested vectors) is read with checks, as in the kernel.
 */
void st_host_ctx_args(struct st_host_ctx *ctx)
{
	const struct side_arg_vec *vec = ctx->vec;

	ctx->sav = side_ptr_get(vec->sav);
	ctx->sav_len = vec->len;
}

uint64_t st_host_sdt_word(const struct st_host_ctx *ctx, uint32_t i)
{
	if (i == ctx->nr_values)
		return (uintptr_t)ctx->desc;
	if (i == ctx->nr_values + 1)
		return (uintptr_t)ctx->vec;
	if (i == ctx->nr_values + 2)
		return (uintptr_t)ctx->var_struct;
	if (i > ctx->nr_values)
		return 0;
	/* As the probe site computes it; a dynamic value is its side_arg's address. */
	return side_sdt_value(ctx->sav, ctx->sav, ctx->sav_len, i);
}

/*
 * ST_NR_SCRATCH scratches per thread, mapped at its first event of a
 * session: a thread that never hits an event costs nothing.
 */
void *st_host_thread_mem(size_t size)
{
	struct st_thread *t = self();
	struct st_mem_block *b;
	size_t total = size + sizeof(*b);

	if (t->mem)
		return t->mem;
	/* mmap, not malloc: the event may be a signal handler's. */
	b = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED)
		return NULL;
	b->size = total;
	b->next = __atomic_load_n(&st_mem_blocks, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&st_mem_blocks, &b->next, b, true, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED))
		;
	t->mem = b + 1;
	t->mem_size = size;
	return t->mem;
}

int st_host_session_start(void)
{
	return st_readable_init();
}

/* After the callbacks are gone: no thread uses its scratch any more. */
void st_host_session_end(void)
{
	struct st_mem_block *b, *next;

	b = __atomic_exchange_n(&st_mem_blocks, NULL, __ATOMIC_ACQUIRE);
	for (; b; b = next) {
		next = b->next;
		munmap(b, b->size);
	}
	st_readable_free();
}

/*
 * glibc's rseq area (2.35 and later; weak, so that older ones link): the
 * kernel keeps the thread's CPU in it, read here without a call. Size 0:
 * glibc did not register it (the application did, or it is disabled).
 */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));

uint32_t st_host_cpu(void)
{
	int cpu = -1;

	if (&__rseq_size && __rseq_size)
		cpu = ((volatile struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset))
			      ->cpu_id;
	if (cpu < 0)
		cpu = sched_getcpu();
	return cpu < 0 ? 0 : cpu;
}

uint32_t st_host_slot(void)
{
	uint32_t cpu = st_host_cpu(), n = st_eng.prog.shm.nr_slots;

	/* A CPU past the slots (one brought online since): no division per event otherwise. */
	return cpu < n ? cpu : cpu % n;
}

uint64_t st_host_pid_tgid(void)
{
	struct st_thread *t = self();

	return (uint64_t)t->pid << 32 | t->tid;
}

uint64_t st_host_uid_gid(void)
{
	return (uint64_t)getgid() << 32 | getuid();
}

/* bpf_ktime_get_ns() is CLOCK_MONOTONIC: records of both paths compare. */
uint64_t st_host_ktime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* xorshift32 per thread: rand is no cryptographic generator in BPF either. */
uint32_t st_host_prandom(void)
{
	struct st_thread *t = self();
	uint32_t x = t->rand;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	t->rand = x;
	return x;
}

uint64_t st_host_cgroup_id(void)
{
	return st_eng.cgroup_id;
}

long st_host_comm(void *buf, uint32_t size)
{
	char comm[16] = "";

	if (!size)
		return -22;
	prctl(PR_GET_NAME, comm);
	memcpy(buf, comm, size < sizeof(comm) ? size : sizeof(comm));
	((char *)buf)[size - 1] = '\0';
	return 0;
}
