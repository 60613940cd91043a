// SPDX-License-Identifier: MIT
/* The dynamic loader's cache: see ld_cache.h. The file is checked as untrusted. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "targets/ld_cache.h"

/* glibc's layouts (elf/cache.h): the old format's header and entries, then the new one's. */
#define OLD_MAGIC "ld.so-1.7.0"
#define OLD_HEADER 16 /* magic, padded to 12, then nlibs */
#define OLD_ENTRY 12 /* flags, key, value */
#define NEW_MAGIC "glibc-ld.so.cache1.1"
#define NEW_HEADER 48 /* magic and version, nlibs, len_strings, flags, extension, unused */
#define NEW_ENTRY 24 /* flags, key, value, osversion, hwcap */
/* A larger cache is no cache ldconfig wrote. */
#define MAX_CACHE (64u << 20)

/* An entry's flags: a libc6 ELF object, of x86-64 or AArch64. */
#define FLAG_TYPE_MASK 0x00ff
#define FLAG_ELF_LIBC6 0x0003
#define FLAG_REQUIRED_MASK 0xff00
#define FLAG_X8664_LIB64 0x0300
#define FLAG_AARCH64_LIB64 0x0a00

static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The NUL-terminated string at off of the n bytes at base, or NULL when it runs out. */
static const char *string_at(const uint8_t *base, size_t n, uint32_t off)
{
	if (off >= n || !memchr(base + off, '\0', n - off))
		return NULL;
	return (const char *)base + off;
}

static bool readable_abi(uint32_t flags)
{
	uint32_t req = flags & FLAG_REQUIRED_MASK;

	return (flags & FLAG_TYPE_MASK) == FLAG_ELF_LIBC6 &&
	       (req == FLAG_X8664_LIB64 || req == FLAG_AARCH64_LIB64);
}

/* The new format's entries at data (n bytes, its strings' base). */
static int each_new(const uint8_t *data, size_t n,
		    int (*visit)(const char *name, const char *path, void *arg), void *arg)
{
	const uint8_t *e;
	const char *name, *path;
	uint32_t nlibs, i;
	int ret;

	if (n < NEW_HEADER || memcmp(data, NEW_MAGIC, strlen(NEW_MAGIC)))
		return -ENOENT;
	nlibs = u32_at(data + 20);
	if (nlibs > (n - NEW_HEADER) / NEW_ENTRY)
		return -ENOENT;
	for (i = 0; i < nlibs; i++) {
		e = data + NEW_HEADER + (size_t)i * NEW_ENTRY;
		name = string_at(data, n, u32_at(e + 4));
		path = string_at(data, n, u32_at(e + 8));
		if (!name || !path || !readable_abi(u32_at(e)))
			continue;
		ret = visit(name, path, arg);
		if (ret)
			return ret;
	}
	return 0;
}

/* Where the new format starts after the old one's entries: aligned as its uint64_t. */
static size_t after_old(const uint8_t *data, size_t n)
{
	uint64_t end;

	if (n < OLD_HEADER)
		return n;
	end = OLD_HEADER + (uint64_t)u32_at(data + 12) * OLD_ENTRY;
	end = (end + 7) & ~(uint64_t)7;
	return end < n ? end : n;
}

int st_ld_cache_each(const char *file, int (*visit)(const char *name, const char *path, void *arg),
		     void *arg)
{
	uint8_t *data = NULL;
	struct stat st;
	size_t at = 0;
	ssize_t got;
	int fd, ret = -ENOENT;

	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > MAX_CACHE)
		goto cleanup;
	data = malloc(st.st_size);
	if (!data) {
		ret = -ENOMEM;
		goto cleanup;
	}
	while (at < (size_t)st.st_size) {
		got = read(fd, data + at, st.st_size - at);
		if (got <= 0)
			goto cleanup;
		at += got;
	}
	if (at >= strlen(OLD_MAGIC) && !memcmp(data, OLD_MAGIC, strlen(OLD_MAGIC))) {
		size_t off = after_old(data, at);

		ret = each_new(data + off, at - off, visit, arg);
	} else {
		ret = each_new(data, at, visit, arg);
	}
cleanup:
	free(data);
	close(fd);
	return ret;
}
