/* SPDX-License-Identifier: MIT */
/*
 * `sidetrace list`: show the SIDE events and USDT probes of object files or
 * of a process, as text or JSON; and the type renderers behind it, which
 * other parts (error messages) may reuse.
 */
#ifndef SIDETRACE_LIST_H
#define SIDETRACE_LIST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "discovery/events.h"

/*
 * sidetrace list [-v] [-f text|json] TARGET... | -p PID
 * argv[0] is the subcommand name ("list"); options start at argv[1].
 * Returns the exit status: 0, 1 when some target failed or had no event,
 * 2 on a usage error.
 */
int st_cmd_list(int argc, char **argv);

/*
 * A type as one line, e.g. "array<string, 3>" or "struct { a: u32 }";
 * verbose adds attributes and enum mappings. Malloc'ed; NULL when out of
 * memory.
 */
char *st_type_to_string(const struct st_type *t, bool verbose);

/* The listing as text, events grouped by object path. */
void st_list_print_text(FILE *f, const struct st_event_list *l, bool verbose);

/* One JSON document per line and per event, with the full type trees. */
void st_list_print_json(FILE *f, const struct st_event_list *l);

#endif /* SIDETRACE_LIST_H */
