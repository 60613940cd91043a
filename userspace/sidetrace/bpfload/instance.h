/* SPDX-License-Identifier: MIT */
/*
 * Another instance of the embedded object on a loaded session's maps:
 * for a program loaded apart from the others (fentry and fexit for each
 * kernel function, an iterator, the fault-in in the background). Every
 * map is reused from the loaded object, so both see the same
 * configuration and data, but for the instance's own constants.
 */
#ifndef SIDETRACE_BPFLOAD_INSTANCE_H
#define SIDETRACE_BPFLOAD_INSTANCE_H

#include "bpfload/loader.h"

struct bpf_program;

/*
 * Opens an instance in which only the program named like prog (one of
 * l->skel's) loads, on l's maps, with its own constant dpath (what
 * path() names, ST_DPATH_*): *inst and that program, *mine. Load it
 * with sidetrace_bpf__load(), free it with sidetrace_bpf__destroy(). 0,
 * or a negative errno (*inst is then NULL).
 */
int st_instance_open(const struct st_loader *l, const struct bpf_program *prog, uint32_t dpath,
		     struct sidetrace_bpf **inst, struct bpf_program **mine);

#endif /* SIDETRACE_BPFLOAD_INSTANCE_H */
