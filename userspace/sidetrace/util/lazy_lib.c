// SPDX-License-Identifier: MIT
/* Shared libraries loaded on first use (lazy_lib.h). */
#include <dlfcn.h>
#include <stdio.h>

#include "util/lazy_lib.h"

/* Loads l once; its error kept for every later call. */
static void load(struct st_lazy_lib *l)
{
	void *lib = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	size_t i;

	l->tried = true;
	if (!lib) {
		snprintf(l->err, sizeof(l->err), "cannot load %s (Debian: %s): %s", l->soname,
			 l->package, dlerror());
		return;
	}
	for (i = 0; l->names[i]; i++) {
		l->fns[i] = dlsym(lib, l->names[i]);
		if (!l->fns[i]) {
			snprintf(l->err, sizeof(l->err), "%s has no %s", l->soname, l->names[i]);
			dlclose(lib);
			return;
		}
	}
	l->loaded = true;
}

bool st_lazy_lib_load(struct st_lazy_lib *l, char *err, size_t errlen)
{
	if (!l->tried)
		load(l);
	if (!l->loaded && err)
		snprintf(err, errlen, "%s", l->err);
	return l->loaded;
}
