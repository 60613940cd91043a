/* SPDX-License-Identifier: MIT */
/*
 * The events of watchpoints (ST_SOURCE_WATCH): a hardware breakpoint at
 * an address, one event in the kernel's view; or at the address a
 * function's argument holds, one event per function the glob matches in
 * the -c command or the -p process, whose site is the function's entry
 * (where bpfload/watch.c reads the argument and sets the breakpoint).
 * Named as bpftrace names them: watchpoint:ADDR:LEN:MODE,
 * watchpoint:PROGRAM:FUNCTION:LEN:MODE.
 */
#ifndef SIDETRACE_KERNEL_WATCHPOINTS_H
#define SIDETRACE_KERNEL_WATCHPOINTS_H

#include "events/events.h"
#include "kinds/watch_spec.h"

/* Appends to out the event of w, an address's watchpoint of kind k written len_mode. */
int st_watch_address_event(const struct st_probe_kind *k, const struct st_watch_spec *w,
			   const char *where, const char *len_mode, struct st_event_list *out);

/*
 * Replaces the function events of funcs (from dwarf/functions.h, in
 * program, shown as written) by w's watchpoints at them. 0 or -ENOMEM.
 */
int st_watch_function_events(const struct st_probe_kind *k, const struct st_watch_spec *w,
			     const char *program, struct st_event_list *funcs);

#endif /* SIDETRACE_KERNEL_WATCHPOINTS_H */
