/* SPDX-License-Identifier: MIT */
/*
 * Rendering of discovered events and their types, for `sidetrace list`
 * and for any message that shows a type.
 */
#ifndef SIDETRACE_OUTPUT_EVENTS_PRINT_H
#define SIDETRACE_OUTPUT_EVENTS_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "events/events.h"

/*
 * A type as one line, e.g. "array<string, 3>" or "struct { a: u32 }";
 * verbose adds attributes and enum mappings. Malloc'ed; NULL when out of
 * memory.
 */
char *st_type_to_string(const struct st_type *t, bool verbose);

/* The listing as text, events grouped by object path. */
void st_list_print_text(FILE *f, const struct st_event_list *l, bool verbose);

/*
 * One event as the probe that traces it, "side:PATH:PROVIDER:EVENT" (the
 * SIDE names), for `sidetrace -l`; fields adds its fields as `list` shows
 * them.
 */
void st_probe_print_text(FILE *f, const struct st_event *ev, bool fields);

/* One JSON document per line and per event, with the full type trees. */
void st_list_print_json(FILE *f, const struct st_event_list *l);

#endif /* SIDETRACE_OUTPUT_EVENTS_PRINT_H */
