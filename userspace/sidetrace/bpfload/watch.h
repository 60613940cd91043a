/* SPDX-License-Identifier: MIT */
/*
 * Watchpoints' hardware breakpoints (kinds/ ST_FAMILY_WATCHPOINT), each a
 * perf event running the probe's program (sidetrace_profile's context):
 * an address's, set when the probes are attached; a function argument's,
 * set each time sidetrace_watch_arm (bpf/watch.bpf.h), a uprobe at the
 * function's entry, reports the address the argument holds, after which
 * the process it stopped is continued. unwatch() removes the breakpoints
 * of an address. bpftrace 0.17's semantics: one breakpoint per probe and
 * address in a row (a call with the address of the previous call adds
 * none), and a breakpoint that finds no debug register free is a message
 * in the output, not an error.
 */
#ifndef SIDETRACE_BPFLOAD_WATCH_H
#define SIDETRACE_BPFLOAD_WATCH_H

#include <stdint.h>
#include <sys/types.h>

#include "bpfload/loader.h"

struct bpf_program;

/* What bpftrace prints when a breakpoint finds no debug register free. */
#define ST_WATCH_NO_REGISTER \
	"Failed to attach watchpoint probe. You are out of watchpoint registers."

/* Loads sidetrace_watch_arm when some probe of c watches a function's argument. */
int st_watch_configure(struct st_loader *l, const struct st_compiled *c);

/*
 * Attaches watchpoint probe i of event ev (attach.c's attach_kernel_fn),
 * prog its program: an address's breakpoint, or the uprobe at its
 * function. 0, or a negative errno with the reason in err.
 */
int st_watch_attach(struct st_loader *l, struct bpf_program *prog, const struct st_compiled *c,
		    uint32_t i, const struct st_event *ev, uint32_t site, char *err, size_t errlen);

/*
 * An ST_REC_WATCH record: probe i's breakpoint at addr in process pid,
 * then pid continued where the probe's kind stopped it. NULL, or what to
 * print in the output (ST_WATCH_NO_REGISTER); other failures are told on
 * stderr.
 */
const char *st_watch_set(struct st_loader *l, const struct st_compiled *c, uint32_t i,
			 uint64_t addr, pid_t pid);

/* unwatch(addr): every breakpoint at addr removed; none is no error. */
void st_watch_unset(struct st_loader *l, uint64_t addr);

/* Every breakpoint removed (st_loader_close()). */
void st_watch_close(struct st_loader *l);

#endif /* SIDETRACE_BPFLOAD_WATCH_H */
