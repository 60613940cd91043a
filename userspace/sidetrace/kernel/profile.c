// SPDX-License-Identifier: MIT
/* The event of a profile:hz:N probe (profile.h). */
#include <errno.h>
#include <stdlib.h>

#include "events/events.h"
#include "kernel/profile.h"

int st_profile_event(const char *rate, struct st_event_list *out)
{
	struct st_event *ev = st_kernel_event_add(out, ST_AP_PROFILE, "hz", rate);

	if (!ev)
		return -ENOMEM;
	ev->sample_hz = strtoull(rate, NULL, 10);
	return 0;
}
