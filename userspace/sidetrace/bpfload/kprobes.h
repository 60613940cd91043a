/* SPDX-License-Identifier: MIT */
/*
 * kprobe: and kretprobe: probes of many functions in one kprobe_multi
 * link (the kernel's fprobe, 5.18+), as bpftrace attaches a glob: a
 * perf-event kprobe per function registers each apart, which a glob of
 * hundreds of functions waits for in turn. A program loaded for such
 * links takes no other, so they have their own, sidetrace_kprobe_multi;
 * the functions they cannot take, an offset into one (fprobe probes
 * entries only) or a module's (which older kernels' kprobe_multi does
 * not look up), keep a perf-event kprobe each.
 */
#ifndef SIDETRACE_BPFLOAD_KPROBES_H
#define SIDETRACE_BPFLOAD_KPROBES_H

#include <stdbool.h>
#include <stddef.h>

#include "bpfload/loader.h"
#include "compile/compile.h"

/* Whether a kprobe_multi link can take ev (of any kind: false but for a kprobe's). */
bool st_kprobe_multi_takes(const struct st_event *ev);

/* Whether one can take each kprobe and kretprobe of c. */
bool st_kprobe_multi_takes_all(const struct st_compiled *c);

/*
 * Whether the session's kprobes go through kprobe_multi links: the kernel
 * has them (and SIDETRACE_NO_KPROBE_MULTI is unset) and they can take
 * some kprobe or kretprobe of c.
 */
bool st_kprobe_multi_wanted(const struct st_compiled *c);

/*
 * Attaches sidetrace_kprobe_multi at the kernel functions of the probes
 * from first on that want[] selects, done[] does not, and a link takes,
 * with their entries' or their returns' kind as first's: one link, each
 * function's cookie its site's (ST_COOKIE of site_base[]); marks them
 * done. 0, or a negative errno with the reason in err.
 */
int st_kprobe_multi_attach(struct st_loader *l, const struct st_compiled *c, uint32_t first,
			   const bool *want, bool *done, const uint32_t *site_base, char *err,
			   size_t errlen);

#endif /* SIDETRACE_BPFLOAD_KPROBES_H */
