/* SPDX-License-Identifier: MIT */
/*
 * `sidetrace list`: show the SIDE events and USDT probes of object files or
 * of a process, as text or JSON (rendered by output/events_print.h).
 */
#ifndef SIDETRACE_CMD_LIST_H
#define SIDETRACE_CMD_LIST_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * sidetrace list [-v] [-f text|json] TARGET... | -p PID
 * argv[0] is the subcommand name ("list"); options start at argv[1].
 * Returns the exit status: 0, 1 when some target failed or had no event,
 * 2 on a usage error.
 */
int st_cmd_list(int argc, char **argv);

/*
 * sidetrace -l [-v] [-p PID] [PATTERN] (list_probes.c): one line per
 * probe that PATTERN (KIND:..., wildcards) matches, as a program writes
 * it, with fields when verbose. Without PATTERN, the kernel's probes, or
 * with PID the process's SIDE and USDT probes; a PATTERN whose first word
 * is no kind is a glob over those lines. Returns the exit status, as
 * st_cmd_list().
 */
int st_list_probes(const char *pattern, pid_t pid, bool verbose);

#endif /* SIDETRACE_CMD_LIST_H */
