// SPDX-License-Identifier: MIT
/* The events of profile:, software: and hardware: probes (perf_sample.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "events/events.h"
#include "kernel/perf_sample.h"
#include "kinds/perf_events.h"

static int add(struct st_event_list *out, enum st_ap_kind kind, const char *provider,
	       const char *count, struct st_perf_sample perf)
{
	struct st_event *ev = st_kernel_event_add(out, kind, provider, count);

	if (!ev)
		return -ENOMEM;
	ev->perf = perf;
	return 0;
}

/* profile:UNIT:N: the CPU clock, N a second or every N units. */
static int profile_event(const struct st_probe_kind *k, const char *unit, const char *count,
			 struct st_event_list *out)
{
	const struct st_period_unit *u = st_period_unit(unit, strlen(unit));
	uint64_t n = strtoull(count, NULL, 10);
	struct st_perf_sample perf = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		/* The lexer checked the unit and that the period fits. */
		.period = u && u->ns ? n * u->ns : n,
		.freq = !u || !u->ns,
	};

	return add(out, k->kind, unit, count, perf);
}

int st_perf_sample_events(const struct st_probe_kind *k, const char *provider, const char *count,
			  struct st_event_list *out)
{
	const struct st_perf_event *e;
	struct st_perf_sample perf;
	bool glob = strpbrk(provider, "*?[") != NULL;
	int ret = 0;

	if (!k->perf_events)
		return profile_event(k, provider, count, out);
	for (e = k->perf_events; e->name && !ret; e++) {
		if (fnmatch(provider, e->name, 0) && (!e->alias || fnmatch(provider, e->alias, 0)))
			continue;
		perf = (struct st_perf_sample){
			.type = e->type,
			.config = e->config,
			.period = *count ? strtoull(count, NULL, 10) : e->default_count,
		};
		/* A name as written is kept, an alias included: the probe builtin says it. */
		ret = add(out, k->kind, glob ? e->name : provider, count, perf);
	}
	return ret;
}
