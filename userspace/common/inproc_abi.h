/* SPDX-License-Identifier: MIT */
/*
 * The in-process engine's contract between the collector (sidetrace
 * --in-process) and the runtime library (libside's agent), defined once
 * for both.
 *
 * Control: each process that uses the runtime has one agent thread,
 * asleep in accept() on the abstract unix socket ST_IP_SOCK_FMT (its pid).
 * The collector connects, the agent checks its credentials (root or the
 * process's own user), and the collector checks the agent's (the pid it
 * meant). The collector then sends ST_IP_ATTACH: the compiled program
 * (struct st_ip_prog, below) and, as SCM_RIGHTS, a memfd of shared memory
 * laid out by st_shm_layout(). The agent validates the program, maps the
 * memory, registers its callbacks and answers ST_IP_REPLY. The session
 * lasts as long as the connection: its end (ST_IP_DETACH, the collector
 * exiting or being killed) unregisters the callbacks and unmaps the memory.
 *
 * Shared memory: per-"CPU" slots of every per-CPU kernel map (a slot is
 * the CPU the event ran on, sched_getcpu(), and every update is atomic, as
 * on a preemptible kernel), the hashes of keyed maps (shm_hash.h), the
 * plain values, the per-probe counters, and a ring of records
 * (shm_ring.h). The application writes, the collector reads; the
 * collector writes only to clear or zero values.
 */
#ifndef SIDETRACE_INPROC_ABI_H
#define SIDETRACE_INPROC_ABI_H

#include <stdint.h>
#include "sidetrace.h"

#define ST_IP_VERSION 7
/* The agent's abstract socket name, from its pid (no leading NUL here). */
#define ST_IP_SOCK_FMT "sidetrace-inproc.%d"
/* A message's payload is at most this long (a program of ST_MAX_PROBES probes is refused before).
 */
#define ST_IP_MSG_MAX (8U << 20)
/* Probes of one in-process program. */
#define ST_IP_MAX_PROBES 256
/* An error text in a reply, NUL included. */
#define ST_IP_ERR_LEN 256

enum st_ip_msg_type {
	ST_IP_ATTACH = 1, /* collector -> agent: struct st_ip_prog, memfd */
	ST_IP_REPLY, /* agent -> collector: struct st_ip_reply */
	ST_IP_DETACH, /* collector -> agent: end the session (no payload) */
	/*
	 * collector -> agent: a deferred program (st_ip_prog.deferred) starts
	 * counting now (no payload).
	 */
	ST_IP_GO,
};

/* Every message: this header, then len bytes of payload. */
struct st_ip_msg {
	uint32_t type; /* enum st_ip_msg_type */
	uint32_t len;
};

struct st_ip_reply {
	int32_t status; /* 0, or a negative errno */
	uint32_t nr_events; /* event descriptions the program's probes matched */
	char err[ST_IP_ERR_LEN]; /* why, when status < 0 */
};

/*
 * What runs for a probe's events: the fragments of the kernel's program
 * that the collector chose for it (its st_compiled_prog()).
 */
enum st_ip_run {
	ST_IP_RUN_EVENT, /* the stack machine, as sidetrace_event */
	ST_IP_RUN_KEYED, /* one plain statement into a keyed map, as sidetrace_keyed */
	ST_IP_NR_RUNS,
};

/*
 * An event the program traces, by its SIDE names: every description of
 * the process with that provider and event name and nr_fields fields is
 * served by probe `probe` of the program.
 *
 * String literals keyed by address, as the kernel keys them (struct
 * st_ro_ref): when the event's description is at ro_desc in the process,
 * its call sites' literals are in [ro_ip + ro_lo, ro_ip + ro_lo + ro_len),
 * and a key names one by its offset from ro_ip, the address of kernel
 * site ro_site of the same object, so that the collector reads it from
 * the file. ro_len 0 (another object's description, an object mapped
 * after the session began): strings are read, as always.
 */
struct st_ip_event {
	char provider[ST_NAME_LEN * 2];
	char name[ST_NAME_LEN * 2];
	uint32_t nr_fields;
	uint32_t variadic;
	uint32_t run; /* enum st_ip_run */
	uint32_t ro_site;
	uint64_t ro_desc;
	uint64_t ro_ip;
	int64_t ro_lo;
	uint64_t ro_len;
};

/*
 * The program, as the kernel runs it: the same st_map_cfg and
 * st_probe_cfg, then the hashes' sizes. Followed by nr_maps struct
 * st_map_cfg, then nr_probes struct st_ip_event, then nr_probes struct
 * st_probe_cfg.
 */
struct st_ip_prog {
	uint32_t version; /* ST_IP_VERSION */
	uint32_t nr_probes;
	uint32_t nr_maps;
	uint32_t key_words; /* st_key_words */
	uint32_t ckey_words; /* st_ckey_words */
	/*
	 * The engine counts only from ST_IP_GO on, when it disarms the
	 * fallbacks of the sites it serves: until then the kernel's probes
	 * there count the process's events. Each event goes one way or the
	 * other at its site's fallback (side/probe.h), so that none is
	 * counted twice or lost when a process switches to its engine.
	 */
	uint32_t deferred;
	uint64_t shm_size; /* the memfd's size: must be st_shm_layout()'s */
	struct st_shm_params {
		uint32_t nr_slots; /* per-CPU values per element */
		uint32_t nr_probes;
		uint32_t nr_flat; /* st_flat slots */
		uint32_t key_size; /* st_aggr and st_values keys, bytes */
		uint32_t aggr_entries; /* keys the aggregation hash holds */
		uint32_t values_entries; /* keys the plain-value hash holds */
		uint32_t ring_size; /* record ring bytes, a power of 2 */
		/* st_aggr_compact: keys whose string parts are 16 bytes (st_map_cfg.str_parts) */
		uint32_t compact_key_size;
		uint32_t compact_entries;
		uint32_t reserved;
	} shm;
};

/* Where each part of the shared memory is, from its start. */
struct st_shm_layout {
	uint64_t counters; /* uint64_t [nr_slots][nr_probes * ST_NR_COUNTERS] */
	uint64_t flat; /* struct st_val [nr_slots][nr_flat] */
	uint64_t aggr; /* struct st_shm_hash, values per slot: struct st_val */
	uint64_t compact; /* the same, of compact keys */
	uint64_t values; /* struct st_shm_hash, one struct st_value */
	uint64_t ring; /* struct st_shm_ring */
	uint64_t size;
};

/* The shared memory's first bytes. */
struct st_shm_hdr {
	uint32_t magic; /* ST_SHM_MAGIC */
	uint32_t version; /* ST_IP_VERSION */
	uint32_t exit_requested; /* exit() in a probe */
	int32_t map_err; /* the last refused insert's error (ST_C_MAP_ERR) */
	/*
	 * Set by the collector when the session ends, before it reads the
	 * last records and the maps (as the kernel's st_stopped).
	 */
	uint32_t stopped;
	uint32_t reserved[11];
};

#define ST_SHM_MAGIC 0x50495453U /* "STIP" */
#define ST_SHM_HDR_SIZE 64
_Static_assert(sizeof(struct st_shm_hdr) == ST_SHM_HDR_SIZE, "header size");

/* The layout of params' shared memory; false if it would not fit 2^40 bytes. */
_Bool st_shm_layout(const struct st_shm_params *params, struct st_shm_layout *out);

#endif /* SIDETRACE_INPROC_ABI_H */
