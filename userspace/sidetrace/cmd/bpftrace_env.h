/* SPDX-License-Identifier: MIT */
/*
 * bpftrace's environment variables, one row each (bpftrace_env.c): what
 * each means for sidetrace, so that a script's environment works as it
 * did under bpftrace or is refused with the reason.
 */
#ifndef SIDETRACE_CMD_BPFTRACE_ENV_H
#define SIDETRACE_CMD_BPFTRACE_ENV_H

#include "compile/compile.h"

/*
 * Applies the BPFTRACE_* variables of the environment to c (its map and
 * buffer sizes; a buffer size -b gave is kept). 0, or -EINVAL after a
 * message naming the variable.
 */
int st_bpftrace_env(struct st_compiled *c);

#endif /* SIDETRACE_CMD_BPFTRACE_ENV_H */
