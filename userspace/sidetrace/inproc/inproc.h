/* SPDX-License-Identifier: MIT */
/*
 * --in-process: the session's compiled program run by the engine inside
 * a traced process (libside's agent, common/inproc_abi.h) for its side:
 * probes, the results in memory shared with the collector. The readers
 * of the kernel's maps (aggregations.c, problems.c, stream.c) add what
 * the process counted, as more CPUs of the same per-CPU maps.
 */
#ifndef SIDETRACE_INPROC_INPROC_H
#define SIDETRACE_INPROC_INPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "compile/compile.h"
#include "common/shm_layout.h"

/*
 * How long a -c command's runtime waits for the program (its agent reads
 * SIDE_INPROC_WAIT), and the collector for its agent.
 */
#define ST_INPROC_WAIT_MS 5000
/* Processes given the program at once, each by a thread (st_inproc_poll()). */
#define ST_INPROC_ATTACHING 8

/*
 * What reading a process's memory left out, counted as it goes
 * (atomically: serve reads from its HTTP thread too).
 */
struct st_inproc_tally {
	/* Keys that named what the process may not (inproc_read.c) */
	uint64_t refused;
	/* Its hashes' waits per read (their geometries' budget), and what they skipped */
	struct st_shm_budget budget;
};

/* One process's session; a session may hold several (next). */
struct st_inproc {
	struct st_inproc *next;
	/*
	 * What its engine's pid builtin gives too: its agent's socket is named
	 * by that and owned by this (inproc_client.c), so no other pid
	 * namespace's process is served.
	 */
	pid_t pid;
	int fd; /* the agent's connection: the session lasts as long */
	char *shm;
	struct st_shm_params params;
	struct st_shm_layout lay;
	struct st_shm_hash_geom aggr_geom, compact_geom, values_geom;
	bool *served; /* per probe: run in the process */
	/*
	 * A served probe runs exit(): only then does the word the process
	 * sets in the shared header (exit_requested) end the session.
	 */
	bool may_exit;
	/*
	 * Per probe: the site its engine keys string literals from (st_ip_event
	 * ro_site, in an object the process maps), or UINT32_MAX: none.
	 */
	uint32_t *lit_site;
	uint32_t nr_events; /* descriptions the process hooked */
	struct st_inproc_tally tally;
};

struct st_inproc_seen;

/* The processes that run probes themselves (--in-process), of one session. */
struct st_inprocs {
	struct st_inproc *list; /* newest first; added to while serve's HTTP thread reads */
	struct st_inproc_seen *seen; /* -c, every process: the processes tried */
	/*
	 * Set once BEGIN has run (st_inprocs_begin()): an engine started
	 * before counts nothing until then, as the kernel's probes.
	 */
	uint32_t begun;
};

/* s's processes, as one list for a whole read. */
static inline const struct st_inproc *st_inprocs_list(const struct st_inprocs *s)
{
	return __atomic_load_n(&s->list, __ATOMIC_ACQUIRE);
}

/*
 * Ends s's sessions: first st_inproc_poll()'s attach threads, which give
 * up at once (st_ip_end()) and add to the list, then every session.
 */
void st_inprocs_close(struct st_inprocs *s);

struct st_loader;

/*
 * Hands c to pid's engine, with the plain values stored so far in l's
 * maps, trying to reach its agent for wait_ms (a -c command starting up).
 * deferred: it counts only from st_inproc_go() on. 0 with the process
 * added to s (and *started, unless NULL), or a negative errno with
 * a message in err; safe from several threads at once:
 * -ECONNREFUSED means the process has no agent (no SIDE runtime), -ECHILD
 * that it forked while it was waited for without one (a wrapper).
 */
int st_inproc_start(struct st_inprocs *s, const struct st_loader *l, const struct st_compiled *c,
		    pid_t pid, int wait_ms, bool deferred, struct st_inproc **started, char *err,
		    size_t errlen);

/*
 * Fills the ro_* fields of the served probes' events (served[i]) of a
 * program for pid, where the process maps their objects (inproc_literals.c).
 * 0, or a negative errno: -ENOMEM; -ENOENT when pid is gone.
 */
int st_inproc_literals(const struct st_loader *l, const struct st_compiled *c, pid_t pid,
		       const bool *served, struct st_ip_event *events);

/* A deferred session counts from now on. 0 or a negative errno. */
int st_inproc_go(const struct st_inproc *ip);

/*
 * --in-process of every process, or of a -c command's descendants
 * (c->inproc_all): every 250 ms, gives the program to the processes
 * whose agent showed up since (inproc_all.c), saying so unless quiet.
 * Each pid is tried once, by a thread of its own (up to
 * ST_INPROC_ATTACHING at once): a process that never answers holds
 * neither the session nor the others.
 */
void st_inproc_poll(struct st_inprocs *s, const struct st_loader *l, const struct st_compiled *c,
		    bool quiet);

/*
 * The same for pid now (a -c command: waiting wait_ms for its agent, or
 * until it forks without one: a wrapper, whose descendants the next polls
 * look for, and it again should its agent show up). The kernel counts its
 * events until its engine takes the program and disarms the fallbacks.
 */
void st_inproc_take(struct st_inprocs *s, const struct st_loader *l, const struct st_compiled *c,
		    pid_t pid, int wait_ms, bool quiet);

/* BEGIN has run: s's engines, those started since too, count from now on. */
void st_inprocs_begin(struct st_inprocs *s);

/* Later events are neither counted nor sent in any of the list's processes (st_tracer_stop()). */
void st_inproc_stop(const struct st_inproc *ip);

/* Ends the sessions of the list (each engine unregisters) and frees them; NULL is fine. */
void st_inproc_close(struct st_inproc *ip);

/* True once a probe in one of the list's processes ran exit(). */
bool st_inproc_exit_requested(const struct st_inproc *ip);

/* Value i (of nr per slot) of the per-CPU array at off, of slot s. */
static inline void *st_inproc_percpu(const struct st_inproc *ip, uint64_t off, size_t size,
				     uint32_t nr, uint32_t s, uint32_t i)
{
	return ip->shm + off + ((uint64_t)s * nr + i) * size;
}

#endif /* SIDETRACE_INPROC_INPROC_H */
