/* SPDX-License-Identifier: MIT */
/*
 * The events of the kinds that sample a perf event on every CPU
 * (ST_SOURCE_PERF): profile:UNIT:N, a CPU clock; software:EVENT[:COUNT]
 * and hardware:EVENT[:COUNT], the kernel's counters. No fields: one
 * "site", and what it samples in st_event.perf.
 */
#ifndef SIDETRACE_KERNEL_PERF_SAMPLE_H
#define SIDETRACE_KERNEL_PERF_SAMPLE_H

#include "events/events.h"
#include "kinds/probe_kinds.h"

/*
 * Appends to out the events of a probe of kind k: provider and count as
 * the lexer left them (a unit and digits; an event glob and digits or "").
 * 0 or -ENOMEM.
 */
int st_perf_sample_events(const struct st_probe_kind *k, const char *provider, const char *count,
			  struct st_event_list *out);

#endif /* SIDETRACE_KERNEL_PERF_SAMPLE_H */
