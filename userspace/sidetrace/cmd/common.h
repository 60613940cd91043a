/* SPDX-License-Identifier: MIT */
/* What the commands that trace share: reading a program file, libbpf's voice. */
#ifndef SIDETRACE_CMD_COMMON_H
#define SIDETRACE_CMD_COMMON_H

#include <stdbool.h>

/* The whole file at path, NUL-terminated (malloc'ed), or NULL with errno set. */
char *st_read_file(const char *path);

/* libbpf's messages on stderr when verbose, else none. */
void st_libbpf_messages(bool verbose);

#endif /* SIDETRACE_CMD_COMMON_H */
