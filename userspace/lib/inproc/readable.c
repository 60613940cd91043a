// SPDX-License-Identifier: MIT
/*
 * The process's readable memory, from /proc/self/maps: a read whose bytes
 * lie in a readable mapping is a memcpy(); any other goes through
 * process_vm_readv() on the process itself, which fails with EFAULT where
 * a load would fault, and a success there means the mappings changed, so
 * they are read again (at most every ST_READABLE_REFRESH_NS).
 *
 * Two tables, one being rewritten while the other is read, under a
 * sequence count: a reader that sees the count move by more than one may
 * have read the table being rewritten, and asks again. A thread keeps the
 * range of its last hit. What this cannot see: memory that another thread
 * unmaps while an event reads it, which the application itself passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include "common/proc_maps.h"
#include "host.h"
#include "readable.h"

#define ST_READABLE_MAX 65536 /* ranges kept: vm.max_map_count's default */
#define ST_READABLE_REFRESH_NS 10000000ULL

struct st_range {
	uint64_t lo, hi;
};

struct st_table_fill {
	struct st_range *t;
	uint32_t n;
};

static struct st_range *st_tables[2];
static uint32_t st_table_len[2];
static uint32_t st_seq; /* even: table (seq >> 1) & 1 is whole */
static uint64_t st_last_refresh;
static pthread_mutex_t st_refresh_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * A thread's last hits: an event reads its stack (the vector), the
 * program's literals and the heap, so one range alone would thrash.
 */
#define ST_HITS 4

static __thread struct {
	uint32_t seq;
	uint32_t next; /* the hit replaced next */
	struct st_range r[ST_HITS];
} st_hits;

/* Adds a readable mapping to the table, merged with the last range when they touch. */
static int add_range(const struct st_mapping *m, void *arg)
{
	struct st_table_fill *f = arg;

	if (m->perms[0] != 'r')
		return 0;
	if (f->n && f->t[f->n - 1].hi == m->lo)
		f->t[f->n - 1].hi = m->hi;
	else if (f->n < ST_READABLE_MAX)
		f->t[f->n++] = (struct st_range){m->lo, m->hi};
	return 0;
}

/* Reads /proc/self/maps into table t; only async-signal-safe calls. */
static int fill_table(struct st_range *t, uint32_t *n)
{
	struct st_table_fill f = {.t = t};
	int err = st_maps_walk(0, add_range, &f);

	*n = f.n;
	return err;
}

/* Rewrites the table not being read, then makes it the one read. */
static void refresh(void)
{
	uint32_t seq, next;

	if (pthread_mutex_trylock(&st_refresh_lock))
		return;
	seq = __atomic_load_n(&st_seq, __ATOMIC_RELAXED);
	next = ((seq >> 1) + 1) & 1;
	__atomic_store_n(&st_seq, seq + 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (fill_table(st_tables[next], &st_table_len[next]))
		st_table_len[next] = 0;
	__atomic_store_n(&st_seq, seq + 2, __ATOMIC_RELEASE);
	st_last_refresh = st_host_ktime_ns();
	pthread_mutex_unlock(&st_refresh_lock);
}

/* The readable range that holds p, from a table read whole; false if none. */
static bool find(uint64_t p, struct st_range *out)
{
	const struct st_range *t;
	uint32_t seq, lo, hi, mid, n;
	bool found;

	do {
		seq = __atomic_load_n(&st_seq, __ATOMIC_ACQUIRE);
		t = st_tables[(seq >> 1) & 1];
		n = st_table_len[(seq >> 1) & 1];
		found = false;
		for (lo = 0, hi = n; t && lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (p < t[mid].lo) {
				hi = mid;
			} else if (p >= t[mid].hi) {
				lo = mid + 1;
			} else {
				*out = t[mid];
				found = true;
				break;
			}
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&st_seq, __ATOMIC_RELAXED) - seq > 1);
	return found;
}

/* Bytes readable from p on, in one range: 0 if p is in none. */
static uint64_t readable_from(uint64_t p)
{
	uint32_t seq = __atomic_load_n(&st_seq, __ATOMIC_ACQUIRE), i;
	struct st_range r;

	if (st_hits.seq != seq) {
		memset(&st_hits, 0, sizeof(st_hits));
		st_hits.seq = seq;
	}
	for (i = 0; i < ST_HITS; i++)
		if (p >= st_hits.r[i].lo && p < st_hits.r[i].hi)
			return st_hits.r[i].hi - p;
	if (!find(p, &r))
		return 0;
	st_hits.r[st_hits.next++ % ST_HITS] = r;
	return r.hi - p;
}

#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
/*
 * Readable here means mapped, not inside one object: a program may read
 * past an object into the next, as the kernel's may. ASan, which guards
 * objects, is kept out of these reads (the fuzzer's build).
 */
__attribute__((no_sanitize("address"))) static void app_copy(void *dst, const void *src, size_t n)
{
	const volatile uint8_t *s = src;
	uint8_t *d = dst;

	while (n--)
		*d++ = *s++;
}

__attribute__((no_sanitize("address"))) static const char *app_nul(const char *src, size_t n)
{
	const volatile char *s = src;
	size_t i;

	for (i = 0; i < n; i++)
		if (!s[i])
			return src + i;
	return NULL;
}
#else
#define app_copy memcpy
#define app_nul(src, n) ((const char *)memchr(src, '\0', n))
#endif

/* process_vm_readv() of the process itself: EFAULT instead of a fault. */
static long read_checked(void *dst, uint64_t n, uint64_t p)
{
	struct iovec local = {.iov_base = dst, .iov_len = n};
	struct iovec remote = {.iov_base = (void *)p, .iov_len = n};
	ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);

	if (got != (ssize_t)n)
		return -EFAULT;
	if (st_host_ktime_ns() - st_last_refresh > ST_READABLE_REFRESH_NS)
		refresh();
	return 0;
}

long st_host_read(void *dst, uint32_t size, const void *src)
{
	uint64_t p = (uintptr_t)src;

	if (!size)
		return 0;
	if (p + size < p)
		return -EFAULT;
	if (readable_from(p) >= size) {
		app_copy(dst, src, size);
		return 0;
	}
	return read_checked(dst, size, p);
}

/* As bpf_probe_read_user_str(): the length with the NUL, or -EFAULT. */
long st_host_read_str(void *dst, uint32_t size, const void *src)
{
	uint64_t p = (uintptr_t)src, avail, i;
	char *d = dst, c;
	const char *nul;

	if (!size)
		return -EINVAL;
	avail = readable_from(p);
	/* The usual case: the string and its NUL in one readable range. */
	nul = app_nul(src, avail < size - 1 ? avail : size - 1);
	if (nul) {
		app_copy(dst, src, nul - (const char *)src + 1);
		return nul - (const char *)src + 1;
	}
	for (i = 0; i + 1 < size; i++) {
		if (i < avail)
			app_copy(&c, (const char *)src + i, 1);
		else if (read_checked(&c, 1, p + i))
			return -EFAULT;
		d[i] = c;
		if (!c)
			return i + 1;
	}
	d[i] = '\0';
	return size;
}

int st_readable_init(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		st_tables[i] = mmap(NULL, ST_READABLE_MAX * sizeof(struct st_range),
				    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (st_tables[i] == MAP_FAILED) {
			st_tables[i] = NULL;
			st_readable_free();
			return -ENOMEM;
		}
	}
	refresh();
	return 0;
}

/* After the callbacks are gone: no reader is left. */
void st_readable_free(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (st_tables[i])
			munmap(st_tables[i], ST_READABLE_MAX * sizeof(struct st_range));
		st_tables[i] = NULL;
		st_table_len[i] = 0;
	}
	/* A thread's last hit is of the old tables. */
	__atomic_store_n(&st_seq, (st_seq | 1) + 1, __ATOMIC_RELEASE);
}
