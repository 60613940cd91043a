/* SPDX-License-Identifier: MIT */
/*
 * What the in-process fuzzers share: the example's events and the
 * functions that emit them, built into the fuzzer (examples/httpd_sim.c,
 * its main() unused), and those events read back from the fuzzer's own
 * file, as the collector's discovery reads a traced program's.
 */
#ifndef SIDETRACE_FUZZ_HTTPD_EVENTS_H
#define SIDETRACE_FUZZ_HTTPD_EVENTS_H

#include <stdio.h>
#include <stdlib.h>

#include "side/discover.h"

#define main httpd_sim_main
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../../examples/httpd_sim.c"
#pragma GCC diagnostic pop
#undef main

static struct st_event_list events;

/* The fuzzer's own events into events; exits naming the fuzzer where it cannot. */
static void own_events_read(const char *fuzzer)
{
	char err[256] = "";

	if (st_discover_file("/proc/self/exe", &events, err, sizeof(err)) || !events.nr) {
		fprintf(stderr, "%s: cannot read its own events: %s\n", fuzzer, err);
		exit(1);
	}
}

/* An st_event_source's probe_events for side: probes: the fuzzer's own events. */
static const struct st_event_list *own_side_events(void *ctx, const struct st_probe_query *q,
						   char *err, size_t errlen)
{
	(void)ctx;
	if (q->kind != ST_AP_SIDE) {
		snprintf(err, errlen, "side: probes only");
		return NULL;
	}
	return &events;
}

#endif /* SIDETRACE_FUZZ_HTTPD_EVENTS_H */
