// SPDX-License-Identifier: MIT
/*
 * sidetrace: bpftrace-style one-liners over SIDE events, aggregated in the
 * kernel by a precompiled BPF program.
 *
 *   sidetrace [-v] [-q] [-d] [-p PID | -c CMD] [-f text|json] [-o FILE]
 *             -e PROGRAM | FILE | -
 *   sidetrace -l [-v] [-p PID] [PATTERN]
 *   sidetrace list ...
 *   sidetrace serve ...
 */
#include <string.h>

#include "cmd/list.h"
#include "cmd/serve.h"
#include "cmd/trace.h"

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "list"))
		return st_cmd_list(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "serve"))
		return st_cmd_serve(argc - 1, argv + 1);
	return st_cmd_trace(argc, argv);
}
