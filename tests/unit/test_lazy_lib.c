// SPDX-License-Identifier: MIT
/*
 * Libraries loaded on first use (util/lazy_lib.c): a library and its
 * functions found, a missing library and a missing function named in the
 * error, with the package to install, and the answer kept.
 */
#include <string.h>
#include "unit.h"
#include "util/lazy_lib.h"

static void test_found(void)
{
	static const char *const names[] = {"deflate", "inflate", NULL};
	void *fns[2] = {0};
	struct st_lazy_lib l = {
		.soname = "libz.so.1", .package = "zlib1g", .names = names, .fns = fns};
	char err[256] = "";

	CHECK(st_lazy_lib_load(&l, err, sizeof(err)) && fns[0] && fns[1] && !err[0]);
	/* Kept: the second call loads nothing. */
	fns[0] = NULL;
	CHECK(st_lazy_lib_load(&l, err, sizeof(err)) && !fns[0]);
}

static void test_missing(void)
{
	static const char *const names[] = {"f", NULL}, *const zlib[] = {"deflate", "no_such",
									 NULL};
	void *fns[2];
	struct st_lazy_lib l = {.soname = "libno-such.so.9",
				.package = "libnosuch9",
				.names = names,
				.fns = fns},
			   z = {.soname = "libz.so.1",
				.package = "zlib1g",
				.names = zlib,
				.fns = fns};
	char err[256];

	CHECK(!st_lazy_lib_load(&l, err, sizeof(err)));
	CHECK(strstr(err, "cannot load libno-such.so.9 (Debian: libnosuch9)") == err);
	err[0] = '\0';
	CHECK(!st_lazy_lib_load(&l, err, sizeof(err)) && strstr(err, "libno-such.so.9"));
	CHECK(!st_lazy_lib_load(&z, err, sizeof(err)) && !strcmp(err, "libz.so.1 has no no_such"));
}

int main(void)
{
	test_found();
	test_missing();
	return unit_summary();
}
