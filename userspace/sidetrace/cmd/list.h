/* SPDX-License-Identifier: MIT */
/*
 * `sidetrace list`: show the SIDE events and USDT probes of object files or
 * of a process, as text or JSON (rendered by output/events_print.h).
 */
#ifndef SIDETRACE_CMD_LIST_H
#define SIDETRACE_CMD_LIST_H

/*
 * sidetrace list [-v] [-f text|json] TARGET... | -p PID
 * argv[0] is the subcommand name ("list"); options start at argv[1].
 * Returns the exit status: 0, 1 when some target failed or had no event,
 * 2 on a usage error.
 */
int st_cmd_list(int argc, char **argv);

#endif /* SIDETRACE_CMD_LIST_H */
