/* SPDX-License-Identifier: MIT */
/*
 * fentry: and fexit: probes. The verifier checks a tracing program for
 * the one kernel function it is loaded for, so each probe and function
 * gets an instance of the embedded object of its own: sidetrace_fentry or
 * sidetrace_fexit alone, on the session's maps (every map reused from the
 * loaded object), loaded with the function as its target and attached
 * with the site's cookie. Only the link is kept.
 */
#ifndef SIDETRACE_BPFLOAD_TRAMPOLINES_H
#define SIDETRACE_BPFLOAD_TRAMPOLINES_H

#include <stddef.h>
#include <stdint.h>

#include "bpfload/loader.h"

struct bpf_program;

/*
 * Loads prog (the loaded object's sidetrace_fentry or sidetrace_fexit,
 * itself never loaded) for kernel function func and attaches it with
 * cookie, naming the path dpath says (ST_DPATH_*, 0: none) for path();
 * the link goes to l->links. 0, or a negative errno with the reason in
 * err, naming what this kernel lacks when it refuses the kind or path().
 */
int st_tramp_attach(struct st_loader *l, const struct bpf_program *prog, const char *func,
		    uint64_t cookie, uint32_t dpath, char *err, size_t errlen);

#endif /* SIDETRACE_BPFLOAD_TRAMPOLINES_H */
