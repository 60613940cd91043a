// SPDX-License-Identifier: MIT
/* The event of a profile:hz:N probe (profile.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "discovery/profile.h"

int st_profile_event(const char *rate, struct st_event_list *out)
{
	struct st_event *evs, *ev;

	evs = realloc(out->events, (out->nr + 1) * sizeof(*evs));
	if (!evs)
		return -ENOMEM;
	out->events = evs;
	ev = &evs[out->nr++];
	memset(ev, 0, sizeof(*ev));
	ev->view = ST_VIEW_PROFILE;
	ev->path = strdup("");
	ev->provider = strdup("hz");
	ev->name = strdup(rate);
	ev->usdt_provider = strdup("hz");
	ev->usdt_name = strdup(rate);
	ev->sites = calloc(1, sizeof(*ev->sites));
	if (!ev->path || !ev->provider || !ev->name || !ev->usdt_provider || !ev->usdt_name ||
	    !ev->sites)
		return -ENOMEM;
	ev->nr_sites = 1;
	ev->sites[0].file_offset = strtoull(rate, NULL, 10);
	return 0;
}
