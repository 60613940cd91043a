// SPDX-License-Identifier: MIT
/*
 * Resolving a probe TARGET (a path, a library name or a program name) to
 * the file it names, as the dynamic loader and the shell would find it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discovery/discovery.h"

/* Copy a found path out, refusing to truncate it. */
static int put_path(const char *path, char *out, size_t len)
{
	if (strlen(path) >= len)
		return -ENAMETOOLONG;
	strcpy(out, path);
	return 0;
}

static bool is_regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* A cache or directory entry's name stands for the library target. */
static bool lib_name_matches(const char *entry, const char *target)
{
	size_t n = strlen(target);

	if (strncmp(entry, target, n))
		return false;
	/* "libfoo" matches "libfoo.so*", "libfoo.so" matches "libfoo.so.1". */
	return entry[n] == '\0' ||
	       (entry[n] == '.' && (strstr(target, ".so") || !strncmp(entry + n, ".so", 3)));
}

/* Search a ':'-separated list of directories for the library. */
static int search_dirs(const char *dirs, const char *target, char *out, size_t len)
{
	static const char *const suffixes[] = {"", ".so"};
	char path[PATH_MAX];
	const char *d = dirs;
	size_t i;

	while (d && *d) {
		size_t dl = strcspn(d, ":");

		for (i = 0; dl && i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
			snprintf(path, sizeof(path), "%.*s/%s%s", (int)dl, d, target, suffixes[i]);
			if (is_regular(path))
				return put_path(path, out, len);
		}
		d += dl;
		if (*d == ':')
			d++;
	}
	return -ENOENT;
}

/* ldconfig -p lines: "\tlibfoo.so.1 (libc6,x86-64) => /usr/lib/libfoo.so.1" */
static int search_ld_cache(const char *target, char *out, size_t len)
{
	char *line = NULL, *arrow, *name, *flags;
	size_t linecap = 0;
	int ret = -ENOENT;
	FILE *f;

	f = popen("ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null", "r");
	if (!f)
		return -ENOENT;
	while (ret && getline(&line, &linecap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		arrow = strstr(line, " => ");
		if (!arrow)
			continue;
		*arrow = '\0';
		name = line + strspn(line, " \t");
		flags = strchr(name, ' ');
		if (flags)
			*flags++ = '\0';
		/* Only objects this collector's ABI can read. */
		if (flags && (strstr(flags, "x86-64") || strstr(flags, "AArch64")) &&
		    lib_name_matches(name, target) && is_regular(arrow + 4))
			ret = put_path(arrow + 4, out, len);
	}
	free(line);
	pclose(f);
	return ret;
}

int st_resolve_target(const char *target, char *path_out, size_t len)
{
	static const char std_dirs[] = "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:"
				       "/lib/aarch64-linux-gnu:/usr/lib/aarch64-linux-gnu:"
				       "/lib64:/usr/lib64:/lib:/usr/lib:/usr/local/lib";
	bool lib;
	int ret;

	if (!*target)
		return -ENOENT;
	if (strchr(target, '/') || is_regular(target))
		return is_regular(target) ? put_path(target, path_out, len) : -ENOENT;
	lib = !strncmp(target, "lib", 3) || strstr(target, ".so");
	if (lib) {
		ret = search_dirs(getenv("LD_LIBRARY_PATH"), target, path_out, len);
		if (ret != -ENOENT)
			return ret;
		ret = search_ld_cache(target, path_out, len);
		if (ret != -ENOENT)
			return ret;
		ret = search_dirs(std_dirs, target, path_out, len);
		if (ret != -ENOENT)
			return ret;
	}
	return search_dirs(getenv("PATH"), target, path_out, len);
}
