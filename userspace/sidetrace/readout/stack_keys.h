/* SPDX-License-Identifier: MIT */
/*
 * Keys whose stack part prints its innermost N frames only (ustack(N),
 * kstack(N)): the kernel keeps every frame, so two calls from different
 * callers have two ids that print alike. They are made one, as bpftrace's
 * stack map, which keeps N frames, counts them under one key.
 */
#ifndef SIDETRACE_READOUT_STACK_KEYS_H
#define SIDETRACE_READOUT_STACK_KEYS_H

#include "compile/compile.h"
#include "readout/dump.h"
#include "tracer/tracer.h"

/*
 * Gives every stack part cut to N frames, of every key of d, the value of
 * the first stack (the least id) whose N innermost frames are its own (of
 * its process, for a user stack), so that sorting d then merging equal
 * keys adds them up. 0 or -ENOMEM.
 */
int st_stack_keys_merge(const struct st_tracer *t, const struct st_compiled *c, struct dump *d);

#endif /* SIDETRACE_READOUT_STACK_KEYS_H */
