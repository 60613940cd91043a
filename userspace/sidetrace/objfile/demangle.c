// SPDX-License-Identifier: MIT
/* C++ names demangled (demangle.h). */
#include <stddef.h>
#include <string.h>

#include "objfile/demangle.h"
#include "util/lazy_lib.h"

static const char *const st_cxx_names[] = {"__cxa_demangle", NULL};
static void *st_cxx_fns[1];

static struct st_lazy_lib st_cxx_lib = {
	.soname = "libstdc++.so.6",
	.package = "libstdc++6",
	.names = st_cxx_names,
	.fns = st_cxx_fns,
};

char *st_demangle(const char *name)
{
	char *(*demangle)(const char *mangled, char *buf, size_t *len, int *status);
	int status;

	if (strncmp(name, "_Z", 2) || !st_lazy_lib_load(&st_cxx_lib, NULL, 0))
		return NULL;
	demangle = (char *(*)(const char *, char *, size_t *, int *))st_cxx_fns[0];
	return demangle(name, NULL, NULL, &status);
}
