// SPDX-License-Identifier: MIT
/*
 * The shared-memory record ring (shm_ring.h). A writer reserves with a
 * compare-and-swap on head, copies, then publishes the record's state with
 * a release store; the consumer reads states with acquire loads.
 *
 * The consumer zeroes every byte it consumes before it moves tail past
 * it, so that all of the data area outside [tail, head) is zero: a record
 * reserved but not yet written reads as BUSY, never as a stale header of
 * an earlier lap that happens to lie where the new record starts.
 */
#include <errno.h>
#include <string.h>

#include "common/shm_ring.h"

#define REC_HDR sizeof(struct st_shm_rec)
/* Reservation attempts: each failure is another writer's success. */
#define OUTPUT_TRIES (1U << 16)

static unsigned char *ring_data(struct st_shm_ring *ring)
{
	return (unsigned char *)(ring + 1);
}

static uint64_t round8(uint64_t n)
{
	return (n + 7) & ~7ULL;
}

size_t st_shm_ring_bytes(uint32_t size)
{
	if (size < ST_SHM_RING_MIN || size > ST_SHM_RING_MAX || (size & (size - 1)))
		return 0;
	return sizeof(struct st_shm_ring) + (size_t)size;
}

void st_shm_ring_init(struct st_shm_ring *ring, uint32_t size)
{
	memset(ring, 0, sizeof(*ring));
	ring->size = size;
	memset(ring_data(ring), 0, size);
}

bool st_shm_ring_check(const struct st_shm_ring *ring, uint32_t size)
{
	return st_shm_ring_bytes(size) && ring->size == size;
}

static void publish(unsigned char *at, uint32_t len, uint32_t state)
{
	struct st_shm_rec *rec = (struct st_shm_rec *)at;

	__atomic_store_n(&rec->len, len, __ATOMIC_RELAXED);
	__atomic_store_n(&rec->state, state, __ATOMIC_RELEASE);
}

/*
 * Reserves need bytes that do not cross the end of the data area: *pos
 * gets the record's position, *pad the bytes of PAD record before it.
 */
static int reserve(struct st_shm_ring *ring, uint32_t size, uint64_t *tail_seen, uint64_t need,
		   uint64_t *pos, uint64_t *pad)
{
	uint64_t head, tail, off;
	unsigned int n;

	for (n = 0; n < OUTPUT_TRIES; n++) {
		head = __atomic_load_n(&ring->head, __ATOMIC_RELAXED);
		/* Garbage positions: the consumer resets them. */
		if (head & 7)
			return -ENOSPC;
		off = head & (size - 1);
		*pad = off + need > size ? size - off : 0;
		/*
		 * The writers' copy of tail first: tail only grows, so the ring
		 * has at least the room the copy shows, and the shared word,
		 * which the consumer keeps writing, is read only when it does
		 * not (about once a lap). Acquire and release pass on the
		 * consumer's zeroes from the writer that read it.
		 */
		tail = __atomic_load_n(tail_seen, __ATOMIC_ACQUIRE);
		if (head - tail + *pad + need > size) {
			/* Acquire: the consumer zeroed what it freed before moving tail. */
			tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
			if (tail & 7 || head - tail > size)
				return -ENOSPC;
			__atomic_store_n(tail_seen, tail, __ATOMIC_RELEASE);
			if (head - tail + *pad + need > size)
				return -ENOSPC;
		}
		if (__atomic_compare_exchange_n(&ring->head, &head, head + *pad + need, false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			*pos = head + *pad;
			return 0;
		}
	}
	return -EBUSY;
}

int st_shm_ring_output(struct st_shm_ring *ring, uint32_t size, uint64_t *tail_seen,
		       const void *data, uint32_t len)
{
	uint64_t need = REC_HDR + round8(len), pos, pad;
	unsigned char *base;
	int err;

	if (!ring || !tail_seen || !st_shm_ring_bytes(size) || (len && !data))
		return -EINVAL;
	base = ring_data(ring);
	if (need > size)
		return -ENOSPC;
	err = reserve(ring, size, tail_seen, need, &pos, &pad);
	if (err)
		return err;
	if (pad)
		publish(base + ((pos - pad) & (size - 1)), pad - REC_HDR, ST_SHM_REC_PAD);
	pos &= size - 1;
	if (len)
		memcpy(base + pos + REC_HDR, data, len);
	publish(base + pos, len, ST_SHM_REC_READY);
	return 0;
}

/* Zeroes n bytes from position pos, wrapping at the end of the data area. */
static void zero_span(unsigned char *base, uint32_t size, uint64_t pos, uint64_t n)
{
	uint64_t off = pos & (size - 1), first;

	if (n >= size) {
		memset(base, 0, size);
		return;
	}
	first = n < size - off ? n : size - off;
	memset(base + off, 0, first);
	memset(base, 0, n - first);
}

/*
 * Corrupt positions or headers: drops everything up to head, zeroed so
 * that no stale header is taken for a record later. A misaligned head is
 * realigned, unless a writer moved it meanwhile (the next call sees).
 */
static void reset(struct st_shm_ring *ring, uint32_t size, uint64_t tail, uint64_t head)
{
	uint64_t aligned = round8(head);

	if (aligned != head) {
		if (!__atomic_compare_exchange_n(&ring->head, &head, aligned, false,
						 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return;
		head = aligned;
	}
	zero_span(ring_data(ring), size, tail, tail & 7 ? size : head - tail);
	__atomic_store_n(&ring->tail, head, __ATOMIC_RELEASE);
}

/* Gives the writers the bytes up to tail, which the consumer zeroed. */
static void free_to(struct st_shm_ring *ring, uint64_t *freed, uint64_t tail)
{
	if (tail == *freed)
		return;
	/* Release: the zeroes are visible before the space is reused. */
	__atomic_store_n(&ring->tail, tail, __ATOMIC_RELEASE);
	*freed = tail;
}

/*
 * The bytes the record at position tail takes, once checked against the
 * data area and head; 0 when its header is garbage.
 */
static uint64_t rec_bytes(uint32_t state, uint32_t len, uint64_t off, uint32_t size, uint64_t left)
{
	uint64_t need;

	if (state == ST_SHM_REC_READY)
		need = REC_HDR + round8(len);
	else if (state == ST_SHM_REC_PAD && !(len & 7) && len + REC_HDR == size - off)
		need = REC_HDR + (uint64_t)len;
	else
		return 0;
	if (need > size - off || need > left)
		return 0;
	return need;
}

int st_shm_ring_consume(struct st_shm_ring *ring, uint32_t size,
			int (*cb)(void *ctx, const void *data, uint32_t len), void *ctx)
{
	uint64_t tail, head, off, need, freed;
	struct st_shm_rec *rec;
	unsigned char *base;
	uint32_t state, len;
	int count = 0, err = 0;

	if (!ring || !st_shm_ring_bytes(size))
		return -EINVAL;
	base = ring_data(ring);
	tail = __atomic_load_n(&ring->tail, __ATOMIC_RELAXED);
	head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
	if ((head | tail) & 7 || head - tail > size) {
		reset(ring, size, tail, head);
		return 0;
	}
	freed = tail;
	while (tail != head) {
		off = tail & (size - 1);
		rec = (struct st_shm_rec *)(base + off);
		state = __atomic_load_n(&rec->state, __ATOMIC_ACQUIRE);
		if (state == ST_SHM_REC_BUSY)
			break;
		len = __atomic_load_n(&rec->len, __ATOMIC_RELAXED);
		need = rec_bytes(state, len, off, size, head - tail);
		if (!need) {
			free_to(ring, &freed, tail);
			reset(ring, size, tail, head);
			return count;
		}
		err = state == ST_SHM_REC_READY ? cb(ctx, rec + 1, len) : 0;
		memset(rec, 0, need);
		tail += need;
		/* An eighth of the ring at a time: the writers' reads of tail miss less. */
		if (tail - freed >= size / 8)
			free_to(ring, &freed, tail);
		if (err < 0)
			break;
		count += state == ST_SHM_REC_READY;
	}
	free_to(ring, &freed, tail);
	return err < 0 ? err : count;
}
