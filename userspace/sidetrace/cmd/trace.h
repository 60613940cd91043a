/* SPDX-License-Identifier: MIT */
/* The tracing command, what `sidetrace` does unless told `list`. */
#ifndef SIDETRACE_CMD_TRACE_H
#define SIDETRACE_CMD_TRACE_H

/*
 * sidetrace [OPTION...] -e PROGRAM | FILE: argv as main() has it. Returns
 * the exit status: 0, 1 when tracing failed, 2 on a usage error.
 */
int st_cmd_trace(int argc, char **argv);

#endif /* SIDETRACE_CMD_TRACE_H */
