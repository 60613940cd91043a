/* SPDX-License-Identifier: MIT */
/*
 * The collector's end of per-event output: records read from the ring
 * buffer (bpf/sidetrace.h, st_rec_hdr) and printed in the order the
 * kernel accepted them, so that a thread's lines keep its order.
 */
#ifndef SIDETRACE_SESSION_STREAM_H
#define SIDETRACE_SESSION_STREAM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "output/record_text.h"
#include "session/runner.h"

struct ring_buffer;
struct st_inproc;

/* Records of one process found malformed and dropped. */
struct st_malformed {
	pid_t pid;
	uint64_t n, said; /* so far; as last reported */
};

struct st_stream {
	struct ring_buffer *rb; /* NULL: the program prints nothing per event */
	struct st_runner *r;
	struct st_rec_view view; /* how records are shown, the last one's text */
	int write_err; /* the first failed write (-EPIPE: the reader left) */
	uint64_t records, bad; /* printed; malformed in the kernel's buffer (never expected) */
	uint64_t *lost_seen; /* per probe: records lost, as last reported */
	uint64_t *label_errs; /* per probe: values of a type not declared */
	struct st_tracer *t; /* its watchpoints are set and removed at their records */
	/*
	 * In-process engines write their records where their process can
	 * write too: each process's malformed ones, counted.
	 */
	struct st_malformed *malformed;
	size_t nr_malformed, malformed_cap;
	const volatile sig_atomic_t *stop; /* the session's stop: a poll returns */
	/* This poll: records handled; the process at hand, its text and deadline. */
	uint64_t handled;
	const struct st_inproc *ip;
	size_t ip_text;
	uint64_t ip_until;
	bool backlog; /* a process's ring still held records: the next poll waits not */
	uint64_t drain_until; /* st_stream_drain(): its deadline, else 0 */
};

/*
 * Opens the ring buffer if the program streams. A poll returns soon once
 * *stop is set. 0 or a negative errno.
 */
int st_stream_open(struct st_stream *s, struct st_tracer *t, struct st_runner *r,
		   const volatile sig_atomic_t *stop);

/*
 * Waits up to timeout_ms for records (not at all while a process's ring
 * holds records left by the last call), then prints the records waiting:
 * every one of the kernel's, and of each in-process engine's as much as
 * a budget of text and time per process allows, the rest left for the
 * next call; none more once *stop is set. An engine's records that no
 * writer makes are dropped and counted against its process. Returns the
 * number of records handled, or a negative errno: a failed write (see
 * write_err) stops the session.
 */
int st_stream_poll(struct st_stream *s, int timeout_ms);

/*
 * After st_tracer_stop(): prints what the probes sent before, until
 * nothing is left, or for at most a fixed time (a process that goes on
 * writing is cut there). 0 or a failed write's negative errno.
 */
int st_stream_drain(struct st_stream *s);

/*
 * -v: tells stderr which probes lost records, and which processes wrote
 * malformed ones, since the last call.
 */
void st_stream_report_lost(struct st_stream *s);

/*
 * At exit: the decode errors the collector found (types not declared),
 * and each process's malformed records.
 */
void st_stream_report(struct st_stream *s);

void st_stream_close(struct st_stream *s);

#endif /* SIDETRACE_SESSION_STREAM_H */
