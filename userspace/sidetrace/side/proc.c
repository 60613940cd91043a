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
#include <unistd.h>

#include "common/proc_maps.h"
#include "side/discover.h"

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

/* What proc_maps_read() gathers. */
struct mapped_list {
	struct mapped *v;
	size_t n, cap;
};

/* Adds m when it is file-backed and not already there; a negative errno stops the walk. */
static int add_mapped(const struct st_mapping *m, void *arg)
{
	struct mapped_list *l = arg;
	size_t i;

	if (m->path[0] != '/' || !m->inode)
		return 0;
	for (i = 0; i < l->n; i++)
		if (l->v[i].inode == m->inode && !strcmp(l->v[i].path, m->path))
			return 0;
	if (l->n == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 32;
		void *q = realloc(l->v, ncap * sizeof(*l->v));

		if (!q)
			return -ENOMEM;
		l->v = q;
		l->cap = ncap;
	}
	l->v[l->n].path = strdup(m->path);
	if (!l->v[l->n].path)
		return -ENOMEM;
	l->v[l->n].start = m->lo;
	l->v[l->n].end = m->hi;
	l->v[l->n].inode = m->inode;
	l->n++;
	return 0;
}

/* Distinct file-backed mappings of pid, in address order. */
static int proc_maps_read(pid_t pid, struct mapped **out, size_t *nr)
{
	struct mapped_list l = {0};
	size_t i;
	int ret;

	ret = st_maps_walk(pid, add_mapped, &l);
	if (ret < 0) {
		for (i = 0; i < l.n; i++)
			free(l.v[i].path);
		free(l.v);
		return ret == -ENOENT ? -ESRCH : ret;
	}
	*out = l.v;
	*nr = l.n;
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

/* Whether pid sees our files: the same mount namespace (or we cannot tell). */
static bool same_mounts(pid_t pid)
{
	struct stat self, other;
	char ns[64];

	snprintf(ns, sizeof(ns), "/proc/%d/ns/mnt", (int)pid);
	if (stat("/proc/self/ns/mnt", &self) || stat(ns, &other))
		return true;
	return self.st_ino == other.st_ino && self.st_dev == other.st_dev;
}

int st_pid_path(pid_t pid, const char *path, char *buf, size_t len)
{
	char root[64];
	int n;

	snprintf(root, sizeof(root), "/proc/%d/root/", (int)pid);
	if (path[0] != '/' || !strncmp(path, root, strlen(root) - 1) || same_mounts(pid))
		n = snprintf(buf, len, "%s", path);
	else
		n = snprintf(buf, len, "/proc/%d/root%s", (int)pid, path);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void st_pid_exe(pid_t pid, char *buf, size_t len)
{
	char exe[64], link[PATH_MAX];
	struct stat st;
	ssize_t n;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	n = readlink(exe, link, sizeof(link) - 1);
	if (n > 0 && !stat(exe, &st)) {
		link[n] = '\0';
		if (!st_pid_path(pid, link, buf, len) && same_inode(buf, st.st_ino))
			return;
	}
	snprintf(buf, len, "%s", exe);
}
