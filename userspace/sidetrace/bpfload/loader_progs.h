/* SPDX-License-Identifier: MIT */
/*
 * What loader.c, attach.c and watch.c share: the programs that serve
 * probes. Not for other files.
 */
#ifndef SIDETRACE_BPFLOAD_LOADER_PROGS_H
#define SIDETRACE_BPFLOAD_LOADER_PROGS_H

#include <bpf/libbpf.h>

#include "bpfload/loader.h"

/* In enum st_prog's order (compile.h). */
#define ST_NR_MAIN_PROGS ST_NR_PROGS

/* The programs that serve probes, from the most specialized. */
void st_loader_main_progs(const struct st_loader *l, struct bpf_program *progs[ST_NR_MAIN_PROGS]);

/* The program that serves probe p: the most specialized one that can (sidetrace.h). */
struct bpf_program *st_loader_serving_prog(const struct st_loader *l,
					   const struct st_compiled_probe *p);

#endif /* SIDETRACE_BPFLOAD_LOADER_PROGS_H */
