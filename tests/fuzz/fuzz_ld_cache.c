// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the dynamic loader's cache reader (targets/ld_cache.c),
 * given the bytes of a cache file: every name and path it hands out is a
 * string within the file.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "targets/ld_cache.h"

static size_t file_size;

static int visit(const char *name, const char *path, void *arg)
{
	size_t *seen = arg;

	if (strlen(name) >= file_size || strlen(path) >= file_size)
		abort();
	return ++*seen > 100000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char file[64];
	size_t seen = 0;
	int fd = memfd_create("ld.so.cache", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		file_size = size;
		snprintf(file, sizeof(file), "/proc/self/fd/%d", fd);
		st_ld_cache_each(file, visit, &seen);
	}
	close(fd);
	return 0;
}
