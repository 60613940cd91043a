/* SPDX-License-Identifier: MIT */
/*
 * The iter: view of the kernel's iterators (bpf_iter): one event per
 * iterator target the kernel's BTF declares (a bpf_iter_TARGET function
 * whose first parameter is the iteration's struct bpf_iter_meta), typed
 * by its context, struct bpf_iter__TARGET, which ctx points to. No
 * fields: the clauses read ctx->task, ctx->file, ... from kernel memory.
 */
#ifndef SIDETRACE_KERNEL_ITERS_H
#define SIDETRACE_KERNEL_ITERS_H

#include <stddef.h>

#include "events/events.h"

/* The prefix of an iterator's function in BTF, before its target's name. */
#define ST_ITER_FUNC_PREFIX "bpf_iter_"

/*
 * Appends to out the iterators whose target glob matches, as events of
 * kind ST_AP_ITER named by their target ("task"), their context's
 * members in ctx_decl. 0, or a negative errno with the reason in err.
 */
int st_discover_iters(const char *glob, struct st_event_list *out, char *err, size_t errlen);

#endif /* SIDETRACE_KERNEL_ITERS_H */
