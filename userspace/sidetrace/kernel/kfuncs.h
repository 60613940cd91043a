/* SPDX-License-Identifier: MIT */
/*
 * The kprobe:, kretprobe:, fentry: and fexit: views of kernel functions:
 * one event per function of the kernel's BTF or a loaded module's (split
 * on it, /sys/kernel/btf) whose name matches and that kallsyms has
 * (an inlined function has no address to probe). A kprobe: event's fields
 * are the parameters as BTF names and types them, read from the System V
 * ABI's registers (the kernel is C: parameter i is argument register i),
 * then arg0..arg5 raw; a kretprobe: event's field is retval. An fentry:
 * event's fields are the parameters as the kernel's trampoline hands them
 * to the program, an fexit: event's those and retval. A pointer to
 * a struct leads to its members (args.file->f_path.dentry), a few
 * pointers deep, read from kernel memory.
 */
#ifndef SIDETRACE_KERNEL_KFUNCS_H
#define SIDETRACE_KERNEL_KFUNCS_H

#include <stdbool.h>
#include <stddef.h>

#include "events/events.h"

/*
 * Whether this kernel has kprobes (its kprobe PMU); false: why, in err.
 * Listing does not need them; attaching does.
 */
bool st_kprobes_supported(char *err, size_t errlen);

/* Whether this kernel loads tracing programs (fentry:, fexit:, iter:), as bpftrace's kfunc test. */
bool st_trampolines_supported(void);

/*
 * Appends to out the kernel functions that pattern (a glob, "NAME+OFFSET"
 * for an offset into NAME, kprobes only; "MODULE:GLOB" for those of the
 * modules that MODULE, a glob, matches, vmlinux the kernel's) matches, as an event of kind
 * ST_AP_KPROBE, ST_AP_KRETPROBE, ST_AP_FENTRY or ST_AP_FEXIT; for a
 * listing (ST_QUERY_NAMES, ST_QUERY_DECLS), with less and as many as
 * match; args_unused: the clauses read no args.NAME, so pointers' members
 * are left out (their type trees are most of the work). 0, or a negative
 * errno with the reason in err.
 */
int st_discover_kfuncs(const char *pattern, enum st_ap_kind kind, enum st_query_for query_for,
		       bool args_unused, struct st_event_list *out, char *err, size_t errlen);

#endif /* SIDETRACE_KERNEL_KFUNCS_H */
