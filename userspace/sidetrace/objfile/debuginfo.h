/* SPDX-License-Identifier: MIT */
/*
 * An object's separate debug info, found where gdb and perf find it:
 * /usr/lib/debug/.build-id/xx/yyyy.debug by its GNU build id, then its
 * .gnu_debuglink's name in its own directory, its .debug/ subdirectory
 * and /usr/lib/debug/<its directory>/, a candidate taken only when its
 * build id (or, without one, the link's CRC32) matches.
 */
#ifndef SIDETRACE_OBJFILE_DEBUGINFO_H
#define SIDETRACE_OBJFILE_DEBUGINFO_H

#include "objfile/elf.h"

/* The environment variable that replaces the search path (elfutils' syntax). */
#define ST_DEBUGINFO_PATH_ENV "SIDETRACE_DEBUGINFO_PATH"

/* The debug file of e (opened from path), a descriptor the caller closes, or -1. */
int st_debuginfo_open(const struct st_elf *e, const char *path);

#endif /* SIDETRACE_OBJFILE_DEBUGINFO_H */
