/* SPDX-License-Identifier: MIT */
/*
 * A ring of variable-length records in shared memory, as a BPF program
 * and its reader see BPF_MAP_TYPE_RINGBUF: the in-process engine's output.
 * Any number of the application's threads write records (never waiting:
 * a full ring refuses at once); one consumer, the collector, reads them in
 * order.
 *
 * head and tail are byte positions that only grow; the data offset is a
 * position masked by the caller's own size, never by anything read from
 * shared memory, and every record header the consumer reads is checked
 * against the data area's bounds: garbage loses records, never reaches
 * outside.
 */
#ifndef SIDETRACE_SHM_RING_H
#define SIDETRACE_SHM_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The ring's header; size data bytes follow. */
struct st_shm_ring {
	uint64_t head; /* producers: where the next record is reserved */
	uint64_t size; /* data bytes, for the other side to check */
	uint64_t pad0[6];
	uint64_t tail; /* the consumer: the first byte not consumed */
	uint64_t pad1[7];
};

_Static_assert(sizeof(struct st_shm_ring) == 128, "ring header size");

enum st_shm_rec_state {
	ST_SHM_REC_BUSY, /* reserved, being written (zeroed memory is BUSY) */
	ST_SHM_REC_READY,
	ST_SHM_REC_PAD, /* fills the end of the data area: skipped */
};

/* A record: this, then len bytes of payload, padded to 8. */
struct st_shm_rec {
	uint32_t len;
	uint32_t state; /* enum st_shm_rec_state */
};

#define ST_SHM_RING_MIN 64U
#define ST_SHM_RING_MAX (1U << 31)

/*
 * Bytes of a ring of size data bytes, header included; 0 unless size is a
 * power of 2 from ST_SHM_RING_MIN to ST_SHM_RING_MAX.
 */
size_t st_shm_ring_bytes(uint32_t size);

/* Makes an empty ring in memory of st_shm_ring_bytes(size) bytes. */
void st_shm_ring_init(struct st_shm_ring *ring, uint32_t size);

/* Whether the ring in memory says it was made for size data bytes. */
bool st_shm_ring_check(const struct st_shm_ring *ring, uint32_t size);

/*
 * Sends a record of len bytes: 0, -ENOSPC when it does not fit in the
 * free space (at once: nothing waits for the consumer), -EBUSY when other
 * writers kept winning the reservation (only under abuse), -EINVAL.
 * tail_seen, in the writers' private memory (zero for a new ring), keeps
 * the last tail they read, so that the word the consumer writes is read
 * about once a lap.
 */
int st_shm_ring_output(struct st_shm_ring *ring, uint32_t size, uint64_t *tail_seen,
		       const void *data, uint32_t len);

/*
 * The consumer: hands each ready record, in order, to cb and frees it,
 * up to the first record still being written or the head as it was on
 * entry. data points into shared memory: the application may still
 * scribble over it, so cb must trust nothing in it but len (checked here
 * against the ring). A cb's negative return stops there (that record
 * consumed) and is returned; else the number of records consumed. Corrupt
 * positions or headers drop what is in the ring.
 */
int st_shm_ring_consume(struct st_shm_ring *ring, uint32_t size,
			int (*cb)(void *ctx, const void *data, uint32_t len), void *ctx);

#endif /* SIDETRACE_SHM_RING_H */
