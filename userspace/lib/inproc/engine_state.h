/* SPDX-License-Identifier: MIT */
/*
 * The state of the process's one in-process session, shared by the
 * engine's files: the program (private copies, validated), the shared
 * memory and where its parts are, and what the threads keep per session.
 */
#ifndef SIDE_INPROC_ENGINE_STATE_H
#define SIDE_INPROC_ENGINE_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <side/trace.h>
#include "common/inproc_abi.h"
#include "common/shm_hash.h"

struct st_engine {
	/* Read by every event: false in a forked child, whose session is the parent's. */
	bool attached;
	/*
	 * Once the engine counts (ST_IP_GO, or at once): the events whose
	 * sites' fallbacks it disarmed then (side_call_in_process()).
	 */
	bool counting;
	/* Sessions so far: what a thread cached (its pid, tid, scratch) is of one. */
	uint32_t gen;
	struct st_ip_prog prog;
	struct st_ip_event *events;
	struct st_probe_cfg *probes;
	uint32_t *fault_armed; /* per probe, as the kernel's st_fault_armed */
	/*
	 * A site per probe, then one more: SDT argument i in "register" i;
	 * probe i's keys its literals by address as its st_ip_event says,
	 * the last none
	 */
	struct st_site_cfg *sites;
	void *shm;
	struct st_shm_layout lay;
	struct st_shm_hdr *hdr;
	uint64_t *counters;
	struct st_val *flat;
	struct st_shm_hash *aggr, *compact, *values;
	struct st_shm_hash_geom aggr_geom, compact_geom, values_geom;
	struct st_shm_ring *ring;
	uint64_t ring_tail_seen; /* the writers' copy of its tail (st_shm_ring_output()) */
	uint64_t cgroup_id;
	uint64_t tracer_key;
	struct side_tracer_handle *notif;
	uint32_t nr_events; /* descriptions with our callback */
	uintptr_t **served; /* their enable words, nr_served of them */
	uint32_t nr_served;
};

extern struct st_engine st_eng;

/* engine_prog.c: the kernel's program, compiled for the host. */
void st_prog_configure(const struct st_map_cfg *maps, uint32_t nr_maps, uint32_t key_words,
		       uint32_t ckey_words);
void st_prog_event(void *ctx);
void st_prog_keyed(void *ctx);

/* host.c: what the helpers keep per thread, and the readable memory. */
void *st_host_thread_mem(size_t size);
int st_host_session_start(void);
void st_host_session_end(void);
uint32_t st_host_slot(void);

#endif /* SIDE_INPROC_ENGINE_STATE_H */
