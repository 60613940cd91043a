/* SPDX-License-Identifier: MIT */
/*
 * A shared library loaded when first needed, not at start: a library
 * linked in is mapped and relocated at every start of sidetrace, even by
 * a command that never calls it (libcapstone took 7-9 ms of it,
 * libstdc++ about 5; docs/PERFORMANCE.md, Part 9).
 */
#ifndef SIDETRACE_UTIL_LAZY_LIB_H
#define SIDETRACE_UTIL_LAZY_LIB_H

#include <stdbool.h>
#include <stddef.h>

struct st_lazy_lib {
	const char *soname;
	const char *package; /* the Debian package that has it, for the error */
	const char *const *names; /* the functions wanted, NULL-terminated */
	void **fns; /* where their addresses go, one per name */
	bool tried, loaded;
	char err[256];
};

/* Loads l on the first call and looks up its functions; false, with why in err, if it cannot. */
bool st_lazy_lib_load(struct st_lazy_lib *l, char *err, size_t errlen);

#endif /* SIDETRACE_UTIL_LAZY_LIB_H */
