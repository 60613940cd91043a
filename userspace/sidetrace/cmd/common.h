/* SPDX-License-Identifier: MIT */
/*
 * What the commands share: exit statuses; for those that trace, reading a
 * program file and libbpf's voice.
 */
#ifndef SIDETRACE_CMD_COMMON_H
#define SIDETRACE_CMD_COMMON_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "check/checker.h"
#include "parse/ast.h"
#include "preproc/preproc.h"

/*
 * Exit statuses of every command (docs/sidetrace.1, EXIT STATUS); with
 * -c, the command's own status too.
 */
enum st_exit {
	ST_EXIT_OK = 0,
	ST_EXIT_FAIL = 1, /* the program, a target, the kernel, the output */
	ST_EXIT_USAGE = 2, /* the command line: an option, a missing argument */
};

/*
 * Reads a program file into *out (malloc'ed, NUL-terminated); "-" reads
 * stdin. Stops one byte past the parser's size limit, which then says
 * so; a NUL byte or a directory is an error. A first line starting with
 * "#!" is blanked (its newline kept). Says itself what is wrong: 0 or
 * -errno.
 */
int st_read_program(const char *path, char **out);

/*
 * A program's text through the preprocessor: *text becomes what the
 * parser reads. name names it in messages, path is its file ("-":
 * stdin; NULL: -e). Says itself what is wrong, as the parser says it:
 * 0 or -errno.
 */
int st_preprocess_program(char **text, const char *name, const char *path,
			  const struct st_pp_opts *opts);

/*
 * Each function probe of prog the checker skipped, and why, as a warning
 * on stderr under ST_MISSING_WARN. 0, or -ENOENT after a message when it
 * skipped every probe on events: nothing would ever run.
 */
int st_report_missing(const struct st_program *prog, enum st_missing_probes mode);

/* The name a program file goes by in messages: "stdin" for "-". */
const char *st_program_name(const char *path);

/* libbpf's messages on stderr when verbose, else none. */
void st_libbpf_messages(bool verbose);

/*
 * -p PID names a process that runs user code: 0; else -ESRCH (no such
 * process) or -EINVAL (a kernel thread, which a user probe never sees:
 * waiting for it would never end) after a message.
 */
int st_check_traced_pid(pid_t pid);

/*
 * Opens /dev/null on whichever of fds 0, 1 and 2 is closed, so that no
 * file this process opens takes their place; true when stdout was closed.
 */
bool st_guard_std_fds(void);

/* st_guard_std_fds() found stdout closed: a command that prints there refuses to run. */
extern bool st_stdout_closed;

/*
 * Whether everything written to f reached it: 0; else one message naming
 * the output (name) and the error, and -EIO. A reader that left (EPIPE)
 * is a normal end: 0, and no message.
 */
int st_output_check(FILE *f, const char *name);

#endif /* SIDETRACE_CMD_COMMON_H */
