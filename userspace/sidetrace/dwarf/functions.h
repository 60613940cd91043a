/* SPDX-License-Identifier: MIT */
/*
 * The uprobe: and uretprobe: views of an object's functions: one event
 * per function whose symbol matches, probed at its entry (past its
 * prologue where DWARF says its parameters live in the frame). A uprobe:
 * event's fields are the parameters as DWARF names and types them, then
 * arg0..arg5 raw (the System V ABI's registers); a uretprobe: event's
 * field is retval. Without DWARF, arg0..arg5 and retval are raw 64-bit
 * values, and DWARF's absence is said where args.NAME is asked for.
 * A function's copies that the compiler inlined into others are uprobe:
 * events too, of the same name (inlined.h); a uretprobe: probes only the
 * out-of-line copy, and says which copies it misses (st_event.missed).
 */
#ifndef SIDETRACE_DWARF_FUNCTIONS_H
#define SIDETRACE_DWARF_FUNCTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/events.h"

/* More functions than this for one pattern is a mistake, said as such. */
#define ST_MAX_FUNCTIONS 4096

/*
 * Splits a function pattern "GLOB[+OFFSET]" into its glob (malloc'ed) and
 * offset. no_offset: why the probe kind takes none (a return probe's), or
 * NULL. 0, or a negative errno with the reason in err.
 */
int st_function_pattern(const char *pattern, const char *no_offset, char **glob, uint64_t *offset,
			char *err, size_t errlen);

/*
 * Appends to out the functions of the object at path whose symbol names
 * match pattern (a glob; "NAME+OFFSET" probes that offset into NAME), as
 * kind ST_AP_UPROBE or ST_AP_URETPROBE, and for a uprobe without an
 * offset the inlined copies of those DWARF names so; args_unused: without
 * a separate debug file's DWARF, at_entry: probed at their entries
 * (st_probe_query). 0, or a negative errno with the reason in err.
 */
int st_discover_functions(const char *path, const char *pattern, enum st_ap_kind kind,
			  bool args_unused, bool at_entry, struct st_event_list *out, char *err,
			  size_t errlen);

#endif /* SIDETRACE_DWARF_FUNCTIONS_H */
