// SPDX-License-Identifier: MIT
/*
 * Unit tests of the in-process engine's shared-memory structures: the
 * hash (BPF hash semantics, per-slot values, the lock, concurrent adds and
 * iteration), the record ring (order, wrap, full, concurrent producers),
 * garbage written over both (which must never make them reach outside
 * their memory: run under ASan too), and st_shm_layout().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common/shm_layout.h"

#include "unit.h"

#define NR_THREADS 4
#define KEY_BASE 0x5a5a000000000000ULL

/* Zeroed memory of exactly n bytes, so that ASan sees a byte beyond. */
static void *shm_alloc(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, n))
		abort();
	memset(p, 0, n);
	return p;
}

static struct st_shm_hash *hash_new(struct st_shm_hash_geom *g, uint32_t key_size,
				    uint32_t value_size, uint32_t nr_values, uint32_t max_entries)
{
	struct st_shm_hash *h;

	if (!st_shm_hash_geom_init(g, key_size, value_size, nr_values, max_entries))
		abort();
	h = shm_alloc(st_shm_hash_size(g));
	st_shm_hash_init(g, h);
	return h;
}

/* A key whose every word derives from k: a torn copy shows. */
static void make_key(uint64_t *key, uint32_t key_size, uint64_t k)
{
	uint32_t i;

	for (i = 0; i < key_size / 8; i++)
		key[i] = k * (i + 1) + KEY_BASE;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_geom(void)
{
	/* key, value, values, entries: the last two are past 2^40 bytes. */
	static const uint32_t bad[][4] = {{0, 8, 1, 1},
					  {12, 8, 1, 1},
					  {ST_KEY_MAX + 8, 8, 1, 1},
					  {8, 0, 1, 1},
					  {8, 12, 1, 1},
					  {8, 8, 0, 1},
					  {8, 8, 1, 0},
					  {8, 8, 1, 0x80000000U},
					  {512, 0xfffffff8U, 0xffffffffU, 1 << 30},
					  {64, 4096, 4096, 1 << 20}};
	struct st_shm_hash_geom g;
	struct st_shm_hash *h;
	size_t i;

	CHECK(st_shm_hash_geom_init(&g, 16, 32, 4, 100));
	CHECK(g.nr_buckets == 256 && g.entry_size == 8 + 16 + 4 * 32);
	CHECK(st_shm_hash_size(&g) == 64 + 256 * g.entry_size);
	CHECK(st_shm_hash_geom_init(&g, 8, 8, 1, 1) && g.nr_buckets == 2);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(!st_shm_hash_geom_init(&g, bad[i][0], bad[i][1], bad[i][2], bad[i][3]),
		   "geometry: a size 0, not a multiple of 8, too large, or overflowing");
	h = hash_new(&g, 16, 8, 2, 10);
	CHECK(st_shm_hash_check(&g, h));
	h->nr_buckets *= 2;
	CHECK(!st_shm_hash_check(&g, h));
	free(h);
}

static void test_flags(void)
{
	uint64_t a[2], b[2], v7 = 7, v9 = 9, out_key[2], out_vals[4], *p;
	struct st_shm_hash_geom g;
	struct st_shm_hash *h = hash_new(&g, 16, 8, 4, 8);
	uint32_t pos = 0;

	make_key(a, 16, 1);
	make_key(b, 16, 2);
	CHECK(st_shm_hash_update(&g, h, a, &v7, 2, ST_SHM_EXIST) == -ENOENT);
	CHECK(st_shm_hash_update(&g, h, a, &v7, 2, ST_SHM_NOEXIST) == 0);
	CHECK(st_shm_hash_update(&g, h, a, &v9, 2, ST_SHM_NOEXIST) == -EEXIST);
	p = st_shm_hash_lookup(&g, h, a, 2);
	CHECK(p && *p == 7);
	CHECK(*(uint64_t *)st_shm_hash_lookup(&g, h, a, 0) == 0 &&
	      *(uint64_t *)st_shm_hash_lookup(&g, h, a, 3) == 0);
	CHECK(st_shm_hash_update(&g, h, a, &v9, 1, ST_SHM_EXIST) == 0);
	CHECK(*(uint64_t *)st_shm_hash_lookup(&g, h, a, 1) == 9 && *p == 7);
	CHECK(st_shm_hash_update(&g, h, a, &v9, 2, ST_SHM_ANY) == 0 && *p == 9);
	CHECK(st_shm_hash_update(&g, h, b, &v7, 0, ST_SHM_ANY) == 0);
	CHECK(st_shm_hash_update(&g, h, a, &v7, 0, 3) == -EINVAL);
	CHECK(st_shm_hash_update(&g, h, a, &v7, 4, ST_SHM_ANY) == -EINVAL);
	CHECK(st_shm_hash_lookup(&g, h, a, 4) == NULL && h->live == 2);
	while (st_shm_hash_next(&g, h, &pos, out_key, out_vals) && memcmp(out_key, a, 16))
		;
	CHECK(!memcmp(out_key, a, 16) && out_vals[0] == 0 && out_vals[1] == 9 && out_vals[2] == 9 &&
	      out_vals[3] == 0);
	CHECK(st_shm_hash_zero(&g, h, a) == 0 && *p == 0 && st_shm_hash_lookup(&g, h, a, 1));
	CHECK(*(uint64_t *)st_shm_hash_lookup(&g, h, a, 1) == 0);
	CHECK(st_shm_hash_delete(&g, h, a) == 0 && st_shm_hash_lookup(&g, h, a, 0) == NULL);
	CHECK(st_shm_hash_delete(&g, h, a) == -ENOENT && st_shm_hash_zero(&g, h, a) == -ENOENT);
	CHECK(st_shm_hash_lookup(&g, h, b, 0) && h->live == 1);
	free(h);
}

static int count_live(const struct st_shm_hash_geom *g, struct st_shm_hash *h)
{
	uint32_t pos = 0;
	int n = 0;

	while (st_shm_hash_next(g, h, &pos, NULL, NULL))
		n++;
	return n;
}

static void test_full_and_churn(void)
{
	struct st_shm_hash_geom g;
	struct st_shm_hash *h = hash_new(&g, 16, 8, 1, 8);
	uint64_t key[2], v, bad = 0, i, *p;

	for (i = 0; i < 8; i++) {
		make_key(key, 16, i);
		bad += st_shm_hash_update(&g, h, key, &i, 0, ST_SHM_NOEXIST) != 0;
	}
	make_key(key, 16, 8);
	CHECK(!bad && st_shm_hash_update(&g, h, key, &v, 0, ST_SHM_ANY) == -E2BIG);
	make_key(key, 16, 3);
	CHECK(st_shm_hash_update(&g, h, key, &v, 0, ST_SHM_ANY) == 0);
	CHECK(st_shm_hash_delete(&g, h, key) == 0);
	make_key(key, 16, 8);
	CHECK(st_shm_hash_update(&g, h, key, &v, 0, ST_SHM_ANY) == 0 && count_live(&g, h) == 8);
	free(h);

	/* 32 keys stay, 20 more come and go: 100000 inserts never fill 64. */
	h = hash_new(&g, 16, 8, 1, 64);
	for (i = 0; i < 32; i++) {
		make_key(key, 16, 1000000 + i);
		bad += st_shm_hash_update(&g, h, key, &i, 0, ST_SHM_NOEXIST) != 0;
	}
	for (i = 0; i < 100000; i++) {
		make_key(key, 16, i);
		bad += st_shm_hash_update(&g, h, key, &i, 0, ST_SHM_NOEXIST) != 0;
		if (i < 20)
			continue;
		make_key(key, 16, i - 20);
		bad += st_shm_hash_delete(&g, h, key) != 0;
	}
	CHECK(!bad);
	for (i = 0; i < 32; i++) {
		make_key(key, 16, 1000000 + i);
		bad += !(p = st_shm_hash_lookup(&g, h, key, 0)) || *p != i;
	}
	CHECK(!bad && count_live(&g, h) == 52 && h->live == 52);
	free(h);
}

/* A thread of a hash test: its table, and what it counts. */
struct thr {
	const struct st_shm_hash_geom *g;
	struct st_shm_hash *h;
	int id;
	uint64_t seen, bad, busy;
};

static int threads_done;

/* n threads on one table: thread 0 runs first(), the others rest(). */
static void run_threads(struct thr *t, int n, const struct st_shm_hash_geom *g,
			struct st_shm_hash *h, void *(*first)(void *), void *(*rest)(void *))
{
	pthread_t tid[NR_THREADS];
	int i;

	threads_done = 0;
	for (i = 0; i < n; i++) {
		t[i] = (struct thr){.g = g, .h = h, .id = i};
		pthread_create(&tid[i], NULL, i ? rest : first, &t[i]);
	}
	for (i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
}

static void *adder(void *arg)
{
	struct thr *c = arg;
	uint64_t key[2], zero[2] = {0}, *p, i;

	for (i = 0; i < 100000; i++) {
		make_key(key, 16, i % 50);
		while (!(p = st_shm_hash_lookup(c->g, c->h, key, c->id & 1)))
			c->busy += st_shm_hash_update(c->g, c->h, key, zero, c->id & 1,
						      ST_SHM_NOEXIST) == -EBUSY;
		__atomic_fetch_add(&p[0], 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&p[1], i % 50, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void test_concurrent_adds(void)
{
	struct st_shm_hash_geom g;
	struct st_shm_hash *h = hash_new(&g, 16, 16, 2, 64);
	struct thr ctx[NR_THREADS];
	uint64_t key[2], vals[4];
	uint32_t pos = 0;
	int bad = 0, n = 0;

	run_threads(ctx, NR_THREADS, &g, h, adder, adder);
	for (; st_shm_hash_next(&g, h, &pos, key, vals); n++) {
		/* 2000 adds per key per thread, two threads per slot. */
		bad += vals[0] != 4000 || vals[2] != 4000;
		bad += vals[1] != 4000 * (key[0] - KEY_BASE) || vals[3] != vals[1];
	}
	CHECK(n == 50 && !bad);
	free(h);
}

/* Inserts and deletes its own keys, value 3 * k in slot 1. */
static void *churner(void *arg)
{
	struct thr *c = arg;
	uint64_t key[4], v, i, k;

	for (i = 0; i < 100000; i++) {
		k = (uint64_t)c->id << 32 | (i % 40);
		make_key(key, 32, k);
		v = 3 * k;
		while (st_shm_hash_update(c->g, c->h, key, &v, 1, ST_SHM_ANY) == -EBUSY)
			c->busy++;
		if (i < 10)
			continue;
		make_key(key, 32, (uint64_t)c->id << 32 | ((i - 10) % 40));
		while (st_shm_hash_delete(c->g, c->h, key) == -EBUSY)
			c->busy++;
	}
	__atomic_fetch_add(&threads_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *iterator(void *arg)
{
	struct thr *c = arg;
	uint64_t key[4], want[4], vals[3];
	uint32_t pos;

	while (__atomic_load_n(&threads_done, __ATOMIC_ACQUIRE) < NR_THREADS - 1) {
		for (pos = 0; st_shm_hash_next(c->g, c->h, &pos, key, vals); c->seen++) {
			make_key(want, 32, key[0] - KEY_BASE);
			c->bad += memcmp(want, key, 32) || vals[0] || vals[2] ||
				  vals[1] != 3 * (key[0] - KEY_BASE);
		}
	}
	return NULL;
}

static void test_concurrent_iteration(void)
{
	struct st_shm_hash_geom g;
	struct st_shm_hash *h = hash_new(&g, 32, 8, 3, 64);
	struct thr ctx[NR_THREADS];

	run_threads(ctx, NR_THREADS, &g, h, iterator, churner);
	CHECK(ctx[0].seen > 0 && ctx[0].bad == 0 && count_live(&g, h) == 30 && h->live == 30);
	free(h);
}

/* The entry whose value 0 p is. */
static struct st_shm_hash_entry *entry_of(const struct st_shm_hash_geom *g, void *p)
{
	return (struct st_shm_hash_entry *)((char *)p - g->key_size) - 1;
}

/* A lock or an entry held by this thread, or by one that died. */
static void test_held(void)
{
	struct st_shm_hash_geom g;
	struct st_shm_hash *h = hash_new(&g, 16, 8, 2, 8);
	uint64_t a[2], b[2], v = 5, key[2], vals[2];
	struct st_shm_hash_entry *e;
	uint32_t pos = 0, i, bad = 0;
	double t0;

	make_key(a, 16, 1);
	make_key(b, 16, 2);
	CHECK(st_shm_hash_update(&g, h, a, &v, 0, ST_SHM_ANY) == 0);
	/* A signal handler that interrupted this thread's insert: at once, no spinning. */
	h->lock = gettid();
	for (i = 0, t0 = now(); i < 100; i++)
		bad += st_shm_hash_update(&g, h, b, &v, 0, ST_SHM_ANY) != -EBUSY ||
		       st_shm_hash_delete(&g, h, a) != -EBUSY;
	CHECK(!bad && now() - t0 < 0.1);
	/* Overwrites and lookups take no lock. */
	CHECK(st_shm_hash_update(&g, h, a, &v, 1, ST_SHM_EXIST) == 0 &&
	      st_shm_hash_lookup(&g, h, a, 0));
	/* Its holder died: a bounded wait, then a refusal. */
	h->lock = 0x7ffffff0;
	t0 = now();
	CHECK(st_shm_hash_update(&g, h, b, &v, 0, ST_SHM_ANY) == -EBUSY && now() - t0 < 5 &&
	      h->lock == 0x7ffffff0);
	h->lock = 0;
	CHECK(st_shm_hash_update(&g, h, b, &v, 0, ST_SHM_ANY) == 0 && h->lock == 0 &&
	      st_shm_hash_delete(&g, h, b) == 0);

	/* An entry whose owner died mid-write. */
	e = entry_of(&g, st_shm_hash_lookup(&g, h, a, 0));
	e->seq |= 1;
	t0 = now();
	CHECK(st_shm_hash_lookup(&g, h, a, 0) == NULL);
	CHECK(st_shm_hash_update(&g, h, a, &v, 1, ST_SHM_EXIST) == -EBUSY);
	CHECK(st_shm_hash_update(&g, h, a, &v, 1, ST_SHM_NOEXIST) == -EEXIST);
	CHECK(st_shm_hash_delete(&g, h, a) == -EBUSY && st_shm_hash_zero(&g, h, a) == -EBUSY);
	CHECK(!st_shm_hash_next(&g, h, &pos, key, vals) && h->lock == 0 && now() - t0 < 5);
	e->seq++;
	CHECK(st_shm_hash_update(&g, h, a, &v, 1, ST_SHM_EXIST) == 0);
	CHECK(st_shm_hash_zero(&g, h, a) == 0 && st_shm_hash_delete(&g, h, a) == 0);
	free(h);
}

/* One thread zeroes a key while the other overwrites it: both own the entry. */
static void *owner_racer(void *arg)
{
	struct thr *c = arg;
	uint64_t a[2], v[2] = {7, 7}, i;
	int err;

	make_key(a, 16, 1);
	for (i = 0; i < 100000; i++) {
		if (c->id)
			err = st_shm_hash_update(c->g, c->h, a, v, i & 1, ST_SHM_EXIST);
		else
			err = st_shm_hash_zero(c->g, c->h, a);
		c->busy += err == -EBUSY;
		c->bad += err && err != -EBUSY;
	}
	return NULL;
}

static void test_owner_races(void)
{
	struct st_shm_hash_geom g;
	struct st_shm_hash *h = hash_new(&g, 16, 16, 2, 8);
	uint64_t a[2], v[2] = {7, 7}, key[2], vals[4];
	struct thr ctx[2];
	uint32_t pos = 0;

	make_key(a, 16, 1);
	CHECK(st_shm_hash_update(&g, h, a, v, 0, ST_SHM_ANY) == 0);
	run_threads(ctx, 2, &g, h, owner_racer, owner_racer);
	/* Refusals only when an owner stays preempted past the bounded wait. */
	CHECK(!ctx[0].bad && !ctx[1].bad && ctx[0].busy + ctx[1].busy < 1000);
	/* Whole values only: a pair is 0, 0 or 7, 7. */
	CHECK(st_shm_hash_next(&g, h, &pos, key, vals) && vals[0] == vals[1] &&
	      vals[2] == vals[3] && h->live == 1);
	free(h);
}

struct sink {
	int n;
	uint32_t lens[64];
	unsigned char bytes[64][256];
};

static int collect(void *ctx, const void *data, uint32_t len)
{
	struct sink *s = ctx;

	if (s->n < 64 && len <= 256) {
		s->lens[s->n] = len;
		memcpy(s->bytes[s->n], data, len);
	}
	s->n++;
	return 0;
}

static int refuse(void *ctx, const void *data, uint32_t len)
{
	return -EPIPE;
}

/* Bytes written and not yet consumed. */
static uint64_t ring_avail(const struct st_shm_ring *r)
{
	return r->head - r->tail;
}

static void test_ring_basic(void)
{
	struct st_shm_ring *r = shm_alloc(st_shm_ring_bytes(256));
	unsigned char buf[256];
	struct sink s = {0};
	uint64_t seen = 0;
	uint32_t i;
	int bad = 0;
	double t0;

	CHECK(st_shm_ring_bytes(256) == 128 + 256 && !st_shm_ring_bytes(384) &&
	      !st_shm_ring_bytes(32) && !st_shm_ring_bytes(0));
	st_shm_ring_init(r, 256);
	CHECK(st_shm_ring_check(r, 256) && !st_shm_ring_check(r, 512));
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = i;
	for (i = 0; i < 5; i++)
		CHECK(st_shm_ring_output(r, 256, &seen, buf + i, i * 5) == 0);
	CHECK(ring_avail(r) == 8 + 16 + 24 + 24 + 32);
	CHECK(st_shm_ring_consume(r, 256, collect, &s) == 5 && s.n == 5);
	for (i = 0; i < 5; i++)
		bad += s.lens[i] != i * 5 || memcmp(s.bytes[i], buf + i, i * 5);
	CHECK(!bad && ring_avail(r) == 0);

	/* head at 104 + 112 = 216: 72 bytes do not fit before the end. */
	CHECK(st_shm_ring_output(r, 256, &seen, buf, 100) == 0);
	CHECK(st_shm_ring_consume(r, 256, collect, &s) == 1);
	CHECK(st_shm_ring_output(r, 256, &seen, buf + 1, 64) == 0);
	CHECK(r->head == 216 + 40 + 72 && ring_avail(r) == 40 + 72);
	s.n = 0;
	CHECK(st_shm_ring_consume(r, 256, collect, &s) == 1 && s.lens[0] == 64 &&
	      !memcmp(s.bytes[0], buf + 1, 64) && r->tail == r->head);
	for (i = 0, bad = 0; i < 256; i++)
		bad += ((unsigned char *)(r + 1))[i] != 0;
	CHECK(!bad);

	/* Full: refused at once, nothing waits for the consumer. */
	st_shm_ring_init(r, 256);
	seen = 0;
	t0 = now();
	for (i = 0; i < 8; i++)
		bad += st_shm_ring_output(r, 256, &seen, buf, 24) != 0;
	CHECK(!bad && st_shm_ring_output(r, 256, &seen, buf, 1) == -ENOSPC);
	CHECK(st_shm_ring_output(r, 256, &seen, buf, 249) == -ENOSPC && now() - t0 < 1);
	CHECK(st_shm_ring_consume(r, 256, collect, &s) == 8);
	CHECK(st_shm_ring_output(r, 256, &seen, buf, 248) == 0 &&
	      st_shm_ring_consume(r, 256, collect, &s) == 1);
	for (i = 0; i < 3; i++)
		st_shm_ring_output(r, 256, &seen, buf, 8);
	CHECK(st_shm_ring_consume(r, 256, refuse, &s) == -EPIPE && ring_avail(r) == 32);
	CHECK(st_shm_ring_consume(r, 256, collect, &s) == 2);
	CHECK(st_shm_ring_output(NULL, 100, &seen, buf, 8) == -EINVAL &&
	      st_shm_ring_output(r, 256, NULL, buf, 8) == -EINVAL &&
	      st_shm_ring_consume(NULL, 0, collect, &s) == -EINVAL);
	free(r);
}

/* The writers' copy of tail: read again only when the ring looks full, never trusted past it. */
static void test_ring_tail_seen(void)
{
	struct st_shm_ring *r = shm_alloc(st_shm_ring_bytes(256));
	unsigned char buf[256] = {0};
	struct sink s = {0};
	uint64_t seen = 0;
	int i, bad = 0;

	st_shm_ring_init(r, 256);
	for (i = 0; i < 8; i++)
		bad += st_shm_ring_output(r, 256, &seen, buf, 24) != 0;
	/* Full with the copy (0) and with the shared word: refused, the copy read again. */
	CHECK(!bad && st_shm_ring_output(r, 256, &seen, buf, 1) == -ENOSPC && seen == 0);
	CHECK(st_shm_ring_consume(r, 256, collect, &s) == 8 && r->tail == 256);
	/* The copy says full, the word says free: the record goes in, the copy follows. */
	CHECK(st_shm_ring_output(r, 256, &seen, buf, 24) == 0 && seen == 256);
	/* Room by the copy: the shared word is not read (a garbage one is not seen). */
	r->tail = 3;
	CHECK(st_shm_ring_output(r, 256, &seen, buf, 24) == 0 && seen == 256);
	/* Garbage read when the copy runs out: refused, the copy kept. */
	for (i = 0; i < 6; i++)
		bad += st_shm_ring_output(r, 256, &seen, buf, 24) != 0;
	CHECK(!bad && st_shm_ring_output(r, 256, &seen, buf, 24) == -ENOSPC && seen == 256);
	free(r);
}

#define RING_RECS 50000

struct prod_ctx {
	struct st_shm_ring *r;
	uint64_t *tail_seen; /* the producers' copy of tail, shared as the engine's threads share it
			      */
	uint32_t size;
	uint32_t id;
	uint64_t next[NR_THREADS]; /* the consumer's: each producer's next seq */
	uint64_t got, bad;
};

static void *producer(void *arg)
{
	struct prod_ctx *c = arg;
	uint64_t rec[32], i, j, n;

	for (i = 0; i < RING_RECS; i++) {
		/* Whole words for the id and seq, then a tail cut short. */
		n = 3 + (i * 7 + c->id) % 29;
		rec[0] = (uint64_t)c->id << 32 | n;
		rec[1] = i;
		for (j = 2; j < n; j++)
			rec[j] = i * j + c->id;
		while (st_shm_ring_output(c->r, c->size, c->tail_seen, rec, n * 8 - (i & 7)) ==
		       -ENOSPC)
			sched_yield();
	}
	return NULL;
}

static int check_rec(void *ctx, const void *data, uint32_t len)
{
	struct prod_ctx *c = ctx;
	uint64_t rec[32], id, n, i, j;

	memcpy(rec, data, len < sizeof(rec) ? len : sizeof(rec));
	id = rec[0] >> 32;
	n = rec[0] & 0xffffffff;
	i = rec[1];
	c->got++;
	if (id >= NR_THREADS || n > 32 || len != n * 8 - (i & 7) || i != c->next[id]++) {
		c->bad++;
		return 0;
	}
	for (j = 2; j < n; j++)
		c->bad += (j + 1 < n || !(i & 7)) && rec[j] != i * j + id;
	return 0;
}

static void test_ring_threads(void)
{
	uint32_t size = 4096;
	struct st_shm_ring *r = shm_alloc(st_shm_ring_bytes(size));
	struct prod_ctx ctx[NR_THREADS + 1];
	pthread_t t[NR_THREADS];
	uint64_t tail_seen = 0;
	double t0 = now();
	int i;

	st_shm_ring_init(r, size);
	for (i = 0; i <= NR_THREADS; i++) {
		ctx[i] = (struct prod_ctx){.r = r, .tail_seen = &tail_seen, .size = size, .id = i};
		if (i < NR_THREADS)
			pthread_create(&t[i], NULL, producer, &ctx[i]);
	}
	/* The consumer: this thread, until every record came (or a minute passed). */
	while (ctx[NR_THREADS].got < NR_THREADS * RING_RECS && now() - t0 < 60) {
		if (!st_shm_ring_consume(r, size, check_rec, &ctx[NR_THREADS]))
			sched_yield();
	}
	for (i = 0; i < NR_THREADS; i++)
		pthread_join(t[i], NULL);
	CHECK(ctx[NR_THREADS].got == NR_THREADS * RING_RECS && ctx[NR_THREADS].bad == 0);
	CHECK(st_shm_ring_consume(r, size, check_rec, &ctx[NR_THREADS]) == 0 && ring_avail(r) == 0);
	free(r);
}

static int in_ring(void *ctx, const void *data, uint32_t len)
{
	struct st_shm_ring *r = ctx;
	const unsigned char *lo = (const unsigned char *)(r + 1);

	/* The whole record inside the data area; read it all (ASan checks). */
	if ((const unsigned char *)data < lo || (const unsigned char *)data + len > lo + 256)
		abort();
	return len && ((const unsigned char *)data)[len - 1] == 0xfe;
}

/* Random bytes at a random place of n bytes from p, often whole words. */
static void scribble(void *p, size_t n, unsigned int *seed)
{
	size_t off = rand_r(seed) % n;
	uint64_t w = (uint64_t)rand_r(seed) << 33 ^ (uint64_t)rand_r(seed) << 7 ^ rand_r(seed);

	if (rand_r(seed) % 4 == 0)
		w &= 0x1ff; /* small values look like lengths and states */
	if (off + 8 <= n && rand_r(seed) % 2)
		memcpy((char *)p + off - off % 8, &w, 8);
	else
		((unsigned char *)p)[off] = w;
}

static void test_ring_fuzz(void)
{
	size_t bytes = st_shm_ring_bytes(256);
	struct st_shm_ring *r = shm_alloc(bytes);
	unsigned char buf[256];
	unsigned int seed = 1, round;
	uint64_t seen = 0;
	int bad = 0, n;

	memset(buf, 0xfe, sizeof(buf));
	st_shm_ring_init(r, 256);
	for (round = 0; round < 5000; round++) {
		n = rand_r(&seed) % 4;
		while (n--)
			st_shm_ring_output(r, 256, &seen, buf, rand_r(&seed) % 100);
		scribble(r, bytes, &seed);
		if (round % 3 == 0)
			scribble((char *)r + 128, 256, &seed);
		st_shm_ring_output(r, 256, &seen, buf, rand_r(&seed) % 60);
		bad += st_shm_ring_consume(r, 256, in_ring, r) < 0;
		st_shm_ring_consume(r, 256, in_ring, r);
	}
	/* Once the garbage stops, the ring works again. */
	r->head = r->tail = 0x40;
	st_shm_ring_consume(r, 256, in_ring, r);
	CHECK(!bad && st_shm_ring_output(r, 256, &seen, buf, 40) == 0 &&
	      st_shm_ring_consume(r, 256, in_ring, r) == 1);
	free(r);
}

/* The pointer is inside the table's entries, and the slot fits there. */
static bool in_hash(const struct st_shm_hash_geom *g, struct st_shm_hash *h, void *p)
{
	uint64_t off = (char *)p - (char *)h;

	return !p || (off >= 64 + 8 + g->key_size && off + g->value_size <= st_shm_hash_size(g));
}

static void test_hash_fuzz(void)
{
	struct st_shm_hash_geom g;
	struct st_shm_hash *h = hash_new(&g, 16, 16, 2, 8);
	uint64_t size = st_shm_hash_size(&g), key[2], vals[4], v[2] = {1, 2};
	unsigned int seed = 2, round, i;
	int bad = 0, n;
	uint32_t pos;

	for (round = 0; round < 3000; round++) {
		for (i = 0; i < 4; i++) {
			make_key(key, 16, rand_r(&seed) % 12);
			st_shm_hash_update(&g, h, key, v, rand_r(&seed) % 2, rand_r(&seed) % 3);
		}
		for (i = 0; i < 3; i++)
			scribble(h, size, &seed);
		/* Stuck owners and a held lock make every call wait: a few only. */
		for (i = 0; round % 32 && i < g.nr_buckets; i++)
			((struct st_shm_hash_entry *)((char *)(h + 1) + i * g.entry_size))->seq &=
				~1U;
		if (round % 64)
			h->lock = 0;
		for (i = 0; i < 4; i++) {
			make_key(key, 16, rand_r(&seed) % 12);
			bad += !in_hash(&g, h, st_shm_hash_lookup(&g, h, key, i % 2));
			st_shm_hash_update(&g, h, key, v, 1, ST_SHM_ANY);
			st_shm_hash_zero(&g, h, key);
			st_shm_hash_delete(&g, h, key);
		}
		for (pos = 0, n = 0; st_shm_hash_next(&g, h, &pos, key, vals); n++)
			bad += pos > g.nr_buckets;
		bad += n > (int)g.nr_buckets;
		st_shm_hash_check(&g, h);
	}
	CHECK(!bad);
	/* Reinitialised, it works again. */
	memset(h, 0, size);
	st_shm_hash_init(&g, h);
	make_key(key, 16, 1);
	CHECK(st_shm_hash_update(&g, h, key, v, 1, ST_SHM_NOEXIST) == 0 &&
	      st_shm_hash_lookup(&g, h, key, 1) && count_live(&g, h) == 1);
	free(h);
}

static void test_layout(void)
{
	/* nr_slots, nr_probes, nr_flat, key_size, aggr, values, ring_size, compact key, entries */
	static const struct st_shm_params bad[] = {
		{0, 3, 10, 64, 1024, 256, 65536, 24, 16, 0},
		{4, 0, 10, 64, 1024, 256, 65536, 24, 16, 0},
		{4, 3, 10, 0, 1024, 256, 65536, 24, 16, 0},
		{4, 3, 10, 60, 1024, 256, 65536, 24, 16, 0},
		{4, 3, 10, 64, 0, 256, 65536, 24, 16, 0},
		{4, 3, 10, 64, 1024, 0, 65536, 24, 16, 0},
		{4, 3, 10, 64, 1024, 256, 0, 24, 16, 0},
		{4, 3, 10, 64, 1024, 256, 65536 + 4096, 24, 16, 0},
		{0xffffffff, 0xffffffff, 10, 64, 1024, 256, 65536, 24, 16, 0},
		{0xffffffff, 3, 0xffffffff, 64, 1024, 256, 65536, 24, 16, 0},
		{65536, 3, 10, 64, 1 << 20, 256, 65536, 24, 16, 0},
		{256, 3, 0xffffffff, 64, 1024, 256, 65536, 24, 16, 0},
		{4, 3, 10, 64, 1024, 256, 65536, 0, 16, 0},
		{4, 3, 10, 64, 1024, 256, 65536, 24, 0, 0},
		/* Every part below 2^40, not their sum. */
		{4096, 3, 1 << 22, 64, 1 << 21, 256, 65536, 24, 16, 0}};
	struct st_shm_params p = {4, 3, 10, 64, 1024, 256, 65536, 24, 16, 0}, q;
	struct st_shm_hash_geom aggr, compact, values;
	struct st_shm_layout l;
	char name[64];
	size_t i;

	CHECK(st_shm_layout(&p, &l) && st_shm_geoms(&p, &aggr, &compact, &values));
	CHECK(aggr.nr_values == 4 && aggr.value_size == sizeof(struct st_val) &&
	      aggr.key_size == 64 && aggr.max_entries == 1024);
	CHECK(values.nr_values == 1 && values.value_size == sizeof(struct st_value) &&
	      values.max_entries == 256);
	CHECK(l.counters == 64 && l.flat == (64 + 4 * 3 * ST_NR_COUNTERS * 8 + 63) / 64 * 64);
	CHECK(l.aggr == l.flat + 4 * 10 * 32);
	CHECK(compact.key_size == 24 && compact.nr_values == 4 && compact.max_entries == 16);
	CHECK(l.compact == (l.aggr + st_shm_hash_size(&aggr) + 63) / 64 * 64);
	CHECK(l.values == (l.compact + st_shm_hash_size(&compact) + 63) / 64 * 64);
	CHECK(l.ring >= l.values + st_shm_hash_size(&values) && l.ring % 64 == 0);
	CHECK(l.size == l.ring + 128 + 65536);
	q = p, q.nr_flat = 0;
	CHECK(st_shm_layout(&q, &l) && l.aggr == l.flat);
	q = p, q.ring_size = 1U << 31, q.aggr_entries = 1 << 20, q.nr_slots = 128;
	CHECK(st_shm_layout(&q, &l) && l.size < (1ULL << 40));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(name, sizeof(name), "layout: bad params %zu refused", i);
		ok(!st_shm_layout(&bad[i], &l) && !l.size, name);
	}
}

int main(void)
{
	test_geom();
	test_flags();
	test_full_and_churn();
	test_concurrent_adds();
	test_concurrent_iteration();
	test_held();
	test_owner_races();
	test_ring_basic();
	test_ring_tail_seen();
	test_ring_threads();
	test_ring_fuzz();
	test_hash_fuzz();
	test_layout();
	return unit_summary();
}
