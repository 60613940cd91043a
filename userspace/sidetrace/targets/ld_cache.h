/* SPDX-License-Identifier: MIT */
/*
 * The dynamic loader's cache (/etc/ld.so.cache, as ldconfig writes it),
 * read directly: a library's name to its path, without running
 * ldconfig -p, which costs a shell and a process per lookup.
 */
#ifndef SIDETRACE_TARGETS_LD_CACHE_H
#define SIDETRACE_TARGETS_LD_CACHE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Calls visit(name, path, arg) for each entry of the cache file at file
 * that this collector's ABI reads (x86-64's or AArch64's libc6 objects),
 * in the cache's order, until visit returns non-zero: that value; 0 when
 * none did; -ENOENT when the file is missing, or in a format not read
 * here (glibc's since 2.7, alone or after the old one); -ENOMEM.
 */
int st_ld_cache_each(const char *file, int (*visit)(const char *name, const char *path, void *arg),
		     void *arg);

#endif /* SIDETRACE_TARGETS_LD_CACHE_H */
