/* SPDX-License-Identifier: MIT */
/*
 * The words of the probe kinds that sample a perf event: the periods of
 * profile: and interval: (hz, s, ms, us), and the events software: and
 * hardware: name, bpftrace's lists with their aliases and the count
 * between samples when a probe gives none.
 */
#ifndef SIDETRACE_KINDS_PERF_EVENTS_H
#define SIDETRACE_KINDS_PERF_EVENTS_H

#include <stddef.h>
#include <stdint.h>

/* A period's unit as written: profile:UNIT:N, interval:UNIT:N. */
struct st_period_unit {
	const char *name;
	uint64_t ns; /* nanoseconds in one; 0 for hz: N a second */
	const char *counts; /* what N counts, in messages: "milliseconds" */
};

/* The unit named name (len bytes), or NULL. */
const struct st_period_unit *st_period_unit(const char *name, size_t len);

/* Every unit's name, for messages: "hz, s, ms or us". */
#define ST_PERIOD_UNITS "hz, s, ms or us"

/* Samples a second at most: the kernel refuses rates past its perf_event_max_sample_rate anyway. */
#define ST_MAX_SAMPLE_HZ 100000

/* A perf event a software: or hardware: probe names. */
struct st_perf_event {
	const char *name;
	const char *alias; /* bpftrace's other name, or NULL */
	uint32_t type; /* PERF_TYPE_SOFTWARE, PERF_TYPE_HARDWARE */
	uint64_t config; /* PERF_COUNT_SW_*, PERF_COUNT_HW_* */
	uint64_t default_count; /* events between samples when the probe gives no count */
};

/* The events of a kind (a NULL name ends each list). */
extern const struct st_perf_event st_software_events[];
extern const struct st_perf_event st_hardware_events[];

/* The event of list named name (len bytes), or by its alias; NULL when none is. */
const struct st_perf_event *st_perf_event_named(const struct st_perf_event *list, const char *name,
						size_t len);

#endif /* SIDETRACE_KINDS_PERF_EVENTS_H */
