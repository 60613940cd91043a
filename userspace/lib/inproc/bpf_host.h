/* SPDX-License-Identifier: MIT */
/*
 * What the BPF fragments (the bpf/ directory's *.bpf.h) need from libbpf's bpf_helpers.h
 * and the kernel, for the host: the in-process engine compiles the same
 * fragments that the kernel runs (engine_prog.c), so one program has one
 * meaning on both paths. Map definitions become plain globals whose
 * addresses name the maps; each helper is a function of host.c, given
 * the engine's state (engine_state.h).
 */
#ifndef SIDE_INPROC_BPF_HOST_H
#define SIDE_INPROC_BPF_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/types.h>
#include <linux/bpf.h>

#define ST_ENGINE_HOST 1
/* Set at attach (engine.c) from the program the collector sent. */
#define ST_LOAD_CONST static volatile

#define SEC(name)
#define __uint(name, val) int(*name)[val]
#define __type(name, val) typeof(val) *name
/*
 * The kernel's "global functions", which its verifier checks once each:
 * file-local here and inlined where the compiler sees fit (a call for
 * each instruction of the stack machine cost a quarter of a printf).
 */
#define __noinline static inline
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#define barrier_var(var) asm volatile("" : "+r"(var))

struct pt_regs;

#include "common/numa.h"
#include "host.h"

/*
 * SDT argument i of the event (host.c); the "instruction pointer" is the
 * kernel site's address that the event's literals are offsets from.
 */
#define CTX_WORD(ctx, i) \
	((i) == ST_PT_REGS_IP ? ((const struct st_host_ctx *)(ctx))->ip \
			      : st_host_sdt_word((const struct st_host_ctx *)(ctx), (i)))

/* The flags of struct st_shm_hdr, in the session's shared memory. */
struct st_shm_hdr *st_host_hdr(void);
#define st_exit_requested (st_host_hdr()->exit_requested)
#define st_stopped (st_host_hdr()->stopped)
#define st_map_err (st_host_hdr()->map_err)

/*
 * The maps (maps.bpf.h, scratch.bpf.h), by their definitions' addresses:
 * defined after them, in engine_prog.c, where the compiler folds the
 * comparison of a constant address.
 */
static void *st_host_lookup(const void *map, const void *key);
static long st_host_update(const void *map, const void *key, const void *value, uint64_t flags);
static long st_host_delete(const void *map, const void *key);
static inline void *bpf_map_lookup_elem(const void *map, const void *key)
{
	return st_host_lookup(map, key);
}

static inline long bpf_map_update_elem(const void *map, const void *key, const void *value,
				       uint64_t flags)
{
	return st_host_update(map, key, value, flags);
}

static inline long bpf_map_delete_elem(const void *map, const void *key)
{
	return st_host_delete(map, key);
}

/* Records reach the collector at its next poll: no wake-up. */
static inline long bpf_ringbuf_output(const void *ring, const void *data, uint64_t size,
				      uint64_t flags)
{
	return st_host_ringbuf_output(data, size);
}

/* Asked only to decide a wake-up, which the collector's poll makes moot: no shared read. */
static inline uint64_t bpf_ringbuf_query(const void *ring, uint64_t flags)
{
	return 0;
}

static inline long bpf_loop(uint32_t nr, long (*fn)(uint32_t, void *), void *ctx, uint64_t flags)
{
	uint32_t i;

	for (i = 0; i < nr; i++)
		if (fn(i, ctx))
			return i + 1;
	return nr;
}

static inline long bpf_probe_read_user(void *dst, uint32_t size, const void *src)
{
	return st_host_read(dst, size, src);
}

static inline long bpf_probe_read_user_str(void *dst, uint32_t size, const void *src)
{
	return st_host_read_str(dst, size, src);
}

/* Kernel memory: only kernel probes read it, and they never run here. */
static inline long bpf_probe_read_kernel(void *dst, uint32_t size, const void *src)
{
	return -14; /* EFAULT */
}

static inline long bpf_probe_read_kernel_str(void *dst, uint32_t size, const void *src)
{
	return -14;
}

static inline uint64_t bpf_get_attach_cookie(void *ctx)
{
	return ((const struct st_host_ctx *)ctx)->cookie;
}

static inline uint64_t bpf_get_current_pid_tgid(void)
{
	return st_host_pid_tgid();
}

static inline uint64_t bpf_get_current_uid_gid(void)
{
	return st_host_uid_gid();
}

static inline uint64_t bpf_ktime_get_ns(void)
{
	return st_host_ktime_ns();
}

static inline uint32_t bpf_get_smp_processor_id(void)
{
	return st_host_cpu();
}

static inline uint32_t bpf_get_numa_node_id(void)
{
	return st_numa_node();
}

/* The task is the kernel's: a probe that reads it is never the engine's (in_process.c). */
static inline uint64_t bpf_get_current_task(void)
{
	return 0;
}

static inline uint32_t bpf_get_prandom_u32(void)
{
	return st_host_prandom();
}

static inline uint64_t bpf_get_current_cgroup_id(void)
{
	return st_host_cgroup_id();
}

static inline long bpf_get_current_comm(void *buf, uint32_t size)
{
	return st_host_comm(buf, size);
}

#endif /* SIDE_INPROC_BPF_HOST_H */
