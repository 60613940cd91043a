/* SPDX-License-Identifier: MIT */
/* `sidetrace -d`: what a program would attach and fill, nothing attached. */
#ifndef SIDETRACE_CMD_PLAN_H
#define SIDETRACE_CMD_PLAN_H

#include <stdio.h>

#include "compile/compile.h"

/*
 * The plan of a checked and compiled program: each probe with its sites,
 * field loads and instructions against the BPF side's limits, the user
 * space probes (BEGIN, END, interval), the maps, the event buffer.
 */
void st_print_plan(FILE *f, const struct st_program *prog, const struct st_compiled *c);

#endif /* SIDETRACE_CMD_PLAN_H */
