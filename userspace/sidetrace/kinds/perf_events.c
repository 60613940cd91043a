// SPDX-License-Identifier: MIT
/* Periods and perf events as probes name them (perf_events.h). */
#include <stdbool.h>
#include <string.h>
#include <linux/perf_event.h>

#include "kinds/perf_events.h"
#include "kinds/probe_kinds.h"

static const struct st_period_unit units[] = {
	{"hz", 0, "times a second"},
	{"s", 1000000000ULL, "seconds"},
	{"ms", 1000000ULL, "milliseconds"},
	{"us", 1000ULL, "microseconds"},
};

const struct st_period_unit *st_period_unit(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (st_kind_word_is(units[i].name, name, len))
			return &units[i];
	return NULL;
}

/* bpftrace's counts between samples, so that one program samples alike under both. */
const struct st_perf_event st_software_events[] = {
	{"alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, 1},
	{"bpf-output", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT, 1},
	{"context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 1000},
	{"cpu-clock", "cpu", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 1000000},
	{"cpu-migrations", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 1},
	{"dummy", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, 1},
	{"emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, 1},
	{"major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 1},
	{"minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, 100},
	{"page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 100},
	{"task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1},
	{NULL},
};

const struct st_perf_event st_hardware_events[] = {
	{"backend-stalls", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 1000000},
	{"branch-instructions", "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	 100000},
	{"branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 100000},
	{"bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, 100000},
	{"cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 1000000},
	{"cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, 1000000},
	{"cpu-cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1000000},
	{"frontend-stalls", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	 1000000},
	{"instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1000000},
	{"ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, 1000000},
	{NULL},
};

const struct st_perf_event *st_perf_event_named(const struct st_perf_event *list, const char *name,
						size_t len)
{
	for (; list && list->name; list++)
		if (st_kind_word_is(list->name, name, len) ||
		    st_kind_word_is(list->alias, name, len))
			return list;
	return NULL;
}
