/* SPDX-License-Identifier: MIT */
/*
 * What the commands share: exit statuses; for those that trace, reading a
 * program file and libbpf's voice.
 */
#ifndef SIDETRACE_CMD_COMMON_H
#define SIDETRACE_CMD_COMMON_H

#include <stdbool.h>

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

#endif /* SIDETRACE_CMD_COMMON_H */
