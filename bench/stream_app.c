// SPDX-License-Identifier: MIT
/*
 * Part 3 workload: one thread emits N events of four fields (string, u32,
 * u64, s32) as fast as it can, then prints the loop's time on stderr as
 * "elapsed_ns T" and its thread's CPU time as "cpu_ns C".
 * bench/stream_lttng.c is the same loop with an LTTng-UST tracepoint
 * instead. With "callback" as second argument, an empty in-process
 * tracer callback is registered first (bench/inproc.sh); with "heap", the
 * string field comes from copies on the heap instead of literals; with
 * "bursts", the events come BURST at a time with a pause of PAUSE_MS
 * after each, and only the bursts are timed: a rate its tracer's reader
 * keeps up with, the ring it writes reused as in a steady state.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <side/trace.h>

side_static_event(ev_op, "bench", "op", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_string("name"), side_field_u32("seq"),
				  side_field_u64("value"), side_field_s32("delta"), ));

static const char *const names[] = {"GET /index.html", "POST /api/orders", "PUT /api/users/42",
				    "DELETE /static/app.js"};

#define BURST 50000
#define PAUSE_MS 100

static uint64_t now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void empty_callback(const struct side_event_description *desc,
			   const struct side_arg_vec *vec, void *priv, void *caller)
{
	(void)desc, (void)vec, (void)priv, (void)caller;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	const char *const *name = names;
	const char *copies[4];
	uint64_t t0, c0, paused = 0, p0;
	unsigned long burst = n, left;

	/* "heap": the names are copies on the heap, not literals. */
	if (argc > 2 && !strcmp(argv[2], "heap")) {
		for (int i = 0; i < 4; i++)
			if (!(copies[i] = strdup(names[i])))
				return 1;
		name = copies;
	}

	if (argc > 2 && !strcmp(argv[2], "bursts"))
		burst = BURST;
	if (argc > 2 && !strcmp(argv[2], "callback") &&
	    side_tracer_callback_register(&ev_op, empty_callback, NULL, 0))
		return 1;
	t0 = now_ns(CLOCK_MONOTONIC);
	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);

	left = burst;
	for (unsigned long i = 0; i < n; i++) {
		side_event(ev_op,
			   side_arg_list(side_arg_string(name[i & 3]), side_arg_u32((uint32_t)i),
					 side_arg_u64(i * 1000003u),
					 side_arg_s32(-(int32_t)(i & 0xffff))));
		/* A count down, not a division per event. */
		if (!--left && i + 1 < n) {
			left = burst;
			p0 = now_ns(CLOCK_MONOTONIC);
			usleep(PAUSE_MS * 1000);
			paused += now_ns(CLOCK_MONOTONIC) - p0;
		}
	}
	fprintf(stderr, "elapsed_ns %llu\n",
		(unsigned long long)(now_ns(CLOCK_MONOTONIC) - t0 - paused));
	/* The thread's CPU time, uprobes included: not the time other tenants took. */
	fprintf(stderr, "cpu_ns %llu\n",
		(unsigned long long)(now_ns(CLOCK_THREAD_CPUTIME_ID) - c0));
	for (int i = 0; name == copies && i < 4; i++)
		free((void *)copies[i]);
	return 0;
}
