/* SPDX-License-Identifier: MIT */
/* The tracing command's options, bpftrace's where they overlap. */
#ifndef SIDETRACE_CMD_OPTIONS_H
#define SIDETRACE_CMD_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "check/checker.h"
#include "cmd/common.h"
#include "output/maps_print.h"
#include "preproc/preproc.h"

/* Most -I and most --include options. */
#define ST_MAX_INCLUDES 64

struct st_trace_opts {
	bool verbose;
	bool quiet; /* -q: no "Attaching N probes..." and no hints */
	bool dry_run; /* -d: check and compile, print the plan, attach nothing */
	bool list; /* -l: list the probes that match list_pattern */
	const char *list_pattern; /* -l's argument, or NULL */
	pid_t pid; /* -p, or 0 */
	const char *cmd; /* -c, or NULL */
	enum st_output_format fmt;
	const char *out_path;
	const char *program; /* -e, or NULL */
	const char *file; /* the program's file ("-": stdin), or NULL */
	uint32_t events_size; /* --buffer-size, or 0 */
	bool in_process; /* --in-process: side: probes run in the traced process */
	enum st_missing_probes missing; /* --missing-probes */
	int buffering; /* -B: _IONBF, _IOLBF or _IOFBF for the output; -1: stdio's choice */
	/*
	 * -k, -kk (1, 2: parse/helpers.h ST_CHECK_*): what fails in a
	 * probe said as it happens, not only at exit; failed helpers where
	 * they fail, as bpftrace reports them
	 */
	uint8_t helper_checks;
	bool unsafe; /* --unsafe: bpftrace's permission for functions that act on the system */
	/* -I DIR and --include FILE, in order, as the preprocessor takes them. */
	char *include_dirs[ST_MAX_INCLUDES];
	char *include_files[ST_MAX_INCLUDES];
	struct st_pp_opts pp;
	/* The arguments after the program: its positional parameters $1..$N. */
	char *const *args;
	uint32_t nr_args;
};

/*
 * Parses argv as main() has it. -h and -V print and exit(0). Returns 0,
 * or -EINVAL after a message on stderr (exit with ST_EXIT_USAGE).
 */
int st_trace_parse_options(int argc, char **argv, struct st_trace_opts *o);

#endif /* SIDETRACE_CMD_OPTIONS_H */
