/* SPDX-License-Identifier: MIT */
/*
 * --info: what this host's kernel and this build support, in bpftrace's
 * layout, each kernel feature probed now (never guessed from a version).
 */
#ifndef SIDETRACE_CMD_INFO_H
#define SIDETRACE_CMD_INFO_H

#include <stdio.h>

/* Writes the report to f; version is the build's. */
void st_print_info(FILE *f, const char *version);

#endif /* SIDETRACE_CMD_INFO_H */
