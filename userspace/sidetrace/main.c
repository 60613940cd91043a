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
#include <stdio.h>
#include <string.h>

#include "cmd/common.h"
#include "cmd/list.h"
#include "cmd/serve.h"
#include "cmd/trace.h"

int main(int argc, char **argv)
{
	int status;

	/* Before any file is opened: a BPF link must never become fd 1. */
	st_stdout_closed = st_guard_std_fds();
	if (argc >= 2 && !strcmp(argv[1], "list"))
		status = st_cmd_list(argc - 1, argv + 1);
	else if (argc >= 2 && !strcmp(argv[1], "serve"))
		status = st_cmd_serve(argc - 1, argv + 1);
	else
		status = st_cmd_trace(argc, argv);
	/* Output lost on a full disk or /dev/full is a failure, said once. */
	if (st_output_check(stdout, "standard output") && !status)
		status = 1;
	return status;
}
