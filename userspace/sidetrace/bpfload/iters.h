/* SPDX-License-Identifier: MIT */
/*
 * iter: probes. The kernel runs an iterator's program in read() of the
 * iterator, once per object. The program (sidetrace_iter) is loaded for
 * its iterator in an instance of the embedded object of its own, on the
 * session's maps, as a trampoline's is (trampolines.h); a session has at
 * most one. What the clauses print goes through the ring buffer as any
 * probe's; the program writes a byte per object into the iterator's
 * output, so that a read of n bytes returns after n objects and the
 * collector empties the ring between reads.
 */
#ifndef SIDETRACE_BPFLOAD_ITERS_H
#define SIDETRACE_BPFLOAD_ITERS_H

#include <stddef.h>
#include <stdint.h>

#include "bpfload/loader.h"

struct bpf_program;

/*
 * Loads prog (the loaded object's sidetrace_iter, itself never loaded)
 * for the iterator target ("task"), attaches it and opens the iterator:
 * l->iter_fd, read by st_iter_step(); cookie is the probe's, dpath what
 * its path() names (ST_DPATH_*, 0: none). 0, or a negative errno with
 * the reason in err, naming what this kernel lacks when it refuses the
 * kind.
 */
int st_iter_attach(struct st_loader *l, const struct bpf_program *prog, const char *target,
		   uint64_t cookie, uint32_t dpath, char *err, size_t errlen);

/*
 * Runs the clauses on the iterator's next few objects. 1: more to read,
 * 0: the iteration ended (the iterator closed), or a negative errno with
 * the reason in err.
 */
int st_iter_step(struct st_loader *l, char *err, size_t errlen);

#endif /* SIDETRACE_BPFLOAD_ITERS_H */
