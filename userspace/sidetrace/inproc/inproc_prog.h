/* SPDX-License-Identifier: MIT */
/* The program and memory a process's engine is handed (inproc_prog.c). */
#ifndef SIDETRACE_INPROC_INPROC_PROG_H
#define SIDETRACE_INPROC_INPROC_PROG_H

#include <stdbool.h>
#include <stddef.h>

#include "inproc/inproc.h"

/* The shared memory's parameters for c: a slot per CPU, its maps' sizes. */
void st_inproc_shm_params(const struct st_compiled *c, struct st_shm_params *sp);

/*
 * A memfd laid out and initialized from ip->params, mapped at ip->shm
 * (ip->lay and the geometries set). 0 or a negative errno.
 */
int st_inproc_memory(struct st_inproc *ip, int *memfd);

/*
 * The program for ip's process (the probes ip->served names their
 * events), len bytes of malloc()ed memory, or NULL.
 */
void *st_inproc_program(const struct st_inproc *ip, const struct st_compiled *c, bool deferred,
			size_t *len);

/* The probes' events in a program that st_inproc_program() made (inproc_abi.h's layout). */
struct st_ip_event *st_inproc_program_events(void *prog);

#endif /* SIDETRACE_INPROC_INPROC_PROG_H */
