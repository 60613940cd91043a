// SPDX-License-Identifier: MIT
/*
 * Discovery in a running process: the ELF objects it maps, each read from
 * a path that reaches the very file the process mapped.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "discovery/discovery.h"

/* One mapped object of a process. */
struct mapped {
	char *path;
	unsigned long start, end;
	unsigned long inode;
};

/* True when path names the file with this inode (same mount namespace). */
static bool same_inode(const char *path, unsigned long inode)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && st.st_ino == inode;
}

/* Pick a path to the object that is readable from here. */
static int reachable_path(pid_t pid, const struct mapped *m, char *buf, size_t len)
{
	static const char deleted[] = " (deleted)";
	size_t n = strlen(m->path);

	if (n < sizeof(deleted) - 1 || strcmp(m->path + n - (sizeof(deleted) - 1), deleted)) {
		if (same_inode(m->path, m->inode)) {
			snprintf(buf, len, "%s", m->path);
			return 0;
		}
		/* Another mount namespace (a container): go through its root. */
		snprintf(buf, len, "/proc/%d/root%s", (int)pid, m->path);
		if (same_inode(buf, m->inode))
			return 0;
	}
	snprintf(buf, len, "/proc/%d/map_files/%lx-%lx", (int)pid, m->start, m->end);
	return same_inode(buf, m->inode) ? 0 : -ENOENT;
}

/* Distinct file-backed mappings of pid, in address order. */
static int proc_maps_read(pid_t pid, struct mapped **out, size_t *nr)
{
	struct mapped *v = NULL;
	size_t n = 0, cap = 0, linecap = 0, i;
	char fname[64], *line = NULL;
	FILE *f;
	int ret = 0;

	snprintf(fname, sizeof(fname), "/proc/%d/maps", (int)pid);
	f = fopen(fname, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (getline(&line, &linecap, f) > 0) {
		unsigned long start, end, off, inode;
		unsigned int maj, min;
		char perms[8], *p;
		int pos = 0;

		if (sscanf(line, "%lx-%lx %7s %lx %x:%x %lu %n", &start, &end, perms, &off, &maj,
			   &min, &inode, &pos) < 7 ||
		    !pos)
			continue;
		p = line + pos;
		p[strcspn(p, "\n")] = '\0';
		if (*p != '/' || !inode)
			continue;
		for (i = 0; i < n; i++)
			if (v[i].inode == inode && !strcmp(v[i].path, p))
				break;
		if (i < n)
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			void *q = realloc(v, ncap * sizeof(*v));

			if (!q) {
				ret = -ENOMEM;
				goto cleanup;
			}
			v = q;
			cap = ncap;
		}
		v[n].path = strdup(p);
		if (!v[n].path) {
			ret = -ENOMEM;
			goto cleanup;
		}
		v[n].start = start;
		v[n].end = end;
		v[n].inode = inode;
		n++;
	}
cleanup:
	free(line);
	fclose(f);
	if (ret) {
		for (i = 0; i < n; i++)
			free(v[i].path);
		free(v);
		return ret;
	}
	*out = v;
	*nr = n;
	return 0;
}

int st_discover_pid(pid_t pid, struct st_event_list *out, char *err, size_t errlen)
{
	struct mapped *maps = NULL;
	size_t nr = 0, i, read_ok = 0;
	char path[PATH_MAX + 64], ferr[256];
	int ret, first_err = 0;

	ret = proc_maps_read(pid, &maps, &nr);
	if (ret) {
		snprintf(err, errlen, "process %d: %s", (int)pid,
			 ret == -ESRCH ? "no such process" : strerror(-ret));
		return ret;
	}
	for (i = 0; i < nr; i++) {
		if (reachable_path(pid, &maps[i], path, sizeof(path))) {
			if (!first_err) {
				first_err = -ENOENT;
				snprintf(err, errlen, "%s: not reachable from here", maps[i].path);
			}
			continue;
		}
		ret = st_discover_file(path, out, ferr, sizeof(ferr));
		if (ret == -ENOMEM)
			goto cleanup;
		/* Data files (locale archive, caches) are mapped too. */
		if (ret == -ENOEXEC || !ret) {
			read_ok++;
			continue;
		}
		if (!first_err) {
			first_err = ret;
			snprintf(err, errlen, "%s: %s", path, ferr);
		}
	}
	ret = read_ok ? 0 : first_err;
cleanup:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	for (i = 0; i < nr; i++)
		free(maps[i].path);
	free(maps);
	return ret;
}
