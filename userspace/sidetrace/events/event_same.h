/* SPDX-License-Identifier: MIT */
/*
 * Whether two events are the same probe with the same shape: what a
 * program compiled against one needs to read the other. A traced file
 * replaced by a new build is attached again only when its events are
 * (bpfload/replaced.h); their sites may have moved.
 */
#ifndef SIDETRACE_EVENTS_EVENT_SAME_H
#define SIDETRACE_EVENTS_EVENT_SAME_H

#include <stdbool.h>

#include "events/events.h"

/* The same kind, provider and name (the probe a program names). */
bool st_event_same_probe(const struct st_event *a, const struct st_event *b);

/* The same fields, of the same types, read the same way. */
bool st_event_same_shape(const struct st_event *a, const struct st_event *b);

#endif /* SIDETRACE_EVENTS_EVENT_SAME_H */
