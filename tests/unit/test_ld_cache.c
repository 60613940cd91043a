// SPDX-License-Identifier: MIT
/*
 * targets/ld_cache.c: the dynamic loader's cache read as ldconfig -p
 * lists it, in glibc's format and in its older compat layout, and
 * hostile files (offsets and counts past the end) read as no cache.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "targets/ld_cache.h"
#include "unit.h"

struct seen {
	char text[512];
	int stop_at; /* visits before the visitor stops (returns 7); 0: never */
	int n;
};

static int visit(const char *name, const char *path, void *arg)
{
	struct seen *s = arg;
	size_t l = strlen(s->text);

	snprintf(s->text + l, sizeof(s->text) - l, "%s=%s;", name, path);
	return ++s->n == s->stop_at ? 7 : 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

/*
 * A new-format cache at buf + base (its strings' base), of entries
 * {flags, name, path}; the strings after the entries. Its size from base.
 */
static size_t new_cache(uint8_t *buf, size_t base, const uint32_t *flags, const char *const *names,
			const char *const *paths, uint32_t n)
{
	uint8_t *c = buf + base;
	size_t str = 48 + 24 * n;
	uint32_t i;

	memcpy(c, "glibc-ld.so.cache1.1", 20);
	put32(c + 20, n);
	for (i = 0; i < n; i++) {
		uint8_t *e = c + 48 + 24 * i;

		put32(e, flags[i]);
		put32(e + 4, str);
		strcpy((char *)c + str, names[i]);
		str += strlen(names[i]) + 1;
		put32(e + 8, str);
		strcpy((char *)c + str, paths[i]);
		str += strlen(paths[i]) + 1;
	}
	return str;
}

static const char *write_file(const uint8_t *data, size_t n)
{
	static char path[] = "/tmp/test_ld_cache.XXXXXX";
	int fd;

	strcpy(path, "/tmp/test_ld_cache.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, data, n) != (ssize_t)n)
		abort();
	close(fd);
	return path;
}

static int read_cache(const uint8_t *data, size_t n, struct seen *s)
{
	const char *f = write_file(data, n);
	int ret = st_ld_cache_each(f, visit, s);

	unlink(f);
	return ret;
}

static const uint32_t flags[] = {0x0303, 0x0003, 0x0a03, 0x0303};
static const char *const names[] = {"libssl.so.3", "libold.so.1", "libarm.so.2", "libc.so.6"};
static const char *const paths[] = {"/lib/x86_64-linux-gnu/libssl.so.3", "/lib32/libold.so.1",
				    "/lib/aarch64-linux-gnu/libarm.so.2",
				    "/lib/x86_64-linux-gnu/libc.so.6"};

static void test_formats(void)
{
	uint8_t buf[2048] = {0};
	struct seen s = {0};
	size_t n;

	n = new_cache(buf, 0, flags, names, paths, 4);
	CHECK(read_cache(buf, n, &s) == 0);
	CHECK_STR(s.text, "libssl.so.3=/lib/x86_64-linux-gnu/libssl.so.3;"
			  "libarm.so.2=/lib/aarch64-linux-gnu/libarm.so.2;"
			  "libc.so.6=/lib/x86_64-linux-gnu/libc.so.6;");

	/* The old format's 2 entries (16 + 2 * 12 bytes), then the new one aligned to 8. */
	memset(buf, 0, sizeof(buf));
	memcpy(buf, "ld.so-1.7.0", 11);
	put32(buf + 12, 2);
	n = new_cache(buf, 40, flags, names, paths, 4);
	memset(&s, 0, sizeof(s));
	CHECK(read_cache(buf, 40 + n, &s) == 0);
	CHECK(s.n == 3);

	memset(&s, 0, sizeof(s));
	s.stop_at = 2;
	n = new_cache(buf, 0, flags, names, paths, 4);
	CHECK(read_cache(buf, n, &s) == 7);
	CHECK(s.n == 2);
	CHECK(st_ld_cache_each("/nonexistent/ld.so.cache", visit, &s) == -ENOENT);
}

static void test_hostile(void)
{
	uint8_t buf[2048] = {0};
	struct seen s = {0};
	size_t n;

	n = new_cache(buf, 0, flags, names, paths, 4);
	/* A count past the file's end: no cache, nothing visited. */
	put32(buf + 20, 1000000);
	CHECK(read_cache(buf, n, &s) == -ENOENT && s.n == 0);
	/* A string offset past the end, a string that runs out: that entry skipped. */
	n = new_cache(buf, 0, flags, names, paths, 4);
	put32(buf + 48 + 4, 0xfffffff0);
	buf[n - 1] = 'x';
	CHECK(read_cache(buf, n, &s) == 0);
	CHECK_STR(s.text, "libarm.so.2=/lib/aarch64-linux-gnu/libarm.so.2;");
	/* Truncated headers, an unknown magic, an old count past the end. */
	memset(&s, 0, sizeof(s));
	CHECK(read_cache(buf, 30, &s) == -ENOENT);
	CHECK(read_cache((const uint8_t *)"not a cache at all", 18, &s) == -ENOENT);
	memset(buf, 0, sizeof(buf));
	memcpy(buf, "ld.so-1.7.0", 11);
	put32(buf + 12, 0xffffffff);
	CHECK(read_cache(buf, 64, &s) == -ENOENT && s.n == 0);
}

int main(void)
{
	test_formats();
	test_hostile();
	return unit_summary();
}
