// SPDX-License-Identifier: MIT
/* A cgroup's paths by its id: see cgroup_path.h. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/cgroup_path.h"

/* The hierarchies and the depth searched: the kernel's tree, but bounded. */
#define MAX_HIERARCHIES 32
#define MAX_DEPTH 32

struct hierarchy {
	char name[128];
	char root[PATH_MAX];
};

/* Whether word is a controller the kernel has (/proc/cgroups' first column). */
static bool is_controller(const char *word)
{
	char line[256], name[64];
	bool found = false;
	FILE *f = fopen("/proc/cgroups", "re");

	while (f && !found && fgets(line, sizeof(line), f))
		found = line[0] != '#' && sscanf(line, "%63s", name) == 1 && !strcmp(name, word);
	if (f)
		fclose(f);
	return found;
}

/* A v1 hierarchy's name from its super options: its controllers, and name=X as X. */
static void v1_name(char *opts, char *name, size_t size)
{
	size_t off = 0;
	char *save, *w;

	name[0] = '\0';
	for (w = strtok_r(opts, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!strncmp(w, "name=", 5))
			w += 5;
		else if (!is_controller(w))
			continue;
		if (off < size)
			off += snprintf(name + off, size - off, "%s%s", off ? "," : "", w);
	}
}

/* "unified" before any other, then by name. */
static int cmp_hierarchy(const void *a, const void *b)
{
	const struct hierarchy *x = a, *y = b;
	bool ux = !strcmp(x->name, "unified"), uy = !strcmp(y->name, "unified");

	return ux != uy ? uy - ux : strcmp(x->name, y->name);
}

/* The cgroup hierarchies this process sees mounted, from its mountinfo; how many. */
static size_t hierarchies(struct hierarchy *h)
{
	char line[4096], mnt[PATH_MAX], fstype[32], opts[1024];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	size_t n = 0;
	char *dash;

	while (f && n < MAX_HIERARCHIES && fgets(line, sizeof(line), f)) {
		dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(dash + 3, "%31s %*s %1023s", fstype, opts) != 2)
			continue;
		if (!strcmp(fstype, "cgroup2"))
			snprintf(h[n].name, sizeof(h[n].name), "unified");
		else if (!strcmp(fstype, "cgroup"))
			v1_name(opts, h[n].name, sizeof(h[n].name));
		else
			continue;
		/* mountinfo escapes a space as \040: such a mount point is not searched. */
		if (h[n].name[0] && !strchr(mnt, '\\'))
			snprintf(h[n++].root, sizeof(h[n].root), "%s", mnt);
	}
	if (f)
		fclose(f);
	qsort(h, n, sizeof(*h), cmp_hierarchy);
	return n;
}

/* Searches dir (path, of rel's length past the root) for the directory of inode id. */
static bool find(char *path, size_t len, size_t root_len, uint64_t id, dev_t dev, int depth)
{
	struct dirent *d;
	struct stat st;
	bool found = false;
	DIR *dir;

	if (stat(path, &st) || st.st_dev != dev)
		return false;
	if (st.st_ino == id)
		return true;
	if (depth >= MAX_DEPTH || !(dir = opendir(path)))
		return false;
	while (!found && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (len + 1 + strlen(d->d_name) >= PATH_MAX)
			continue;
		sprintf(path + len, "/%s", d->d_name);
		found = find(path, len + 1 + strlen(d->d_name), root_len, id, dev, depth + 1);
		if (!found)
			path[len] = '\0';
	}
	closedir(dir);
	return found;
}

void st_cgroup_path(uint64_t id, const char *filter, char *buf, size_t size)
{
	struct hierarchy *h = calloc(MAX_HIERARCHIES, sizeof(*h));
	size_t n = h ? hierarchies(h) : 0, i, off = 0, len;
	char path[PATH_MAX];
	struct stat st;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < n && off < size; i++) {
		if (filter && fnmatch(filter, h[i].name, 0))
			continue;
		len = strlen(h[i].root);
		snprintf(path, sizeof(path), "%s", h[i].root);
		if (stat(path, &st) || !find(path, len, len, id, st.st_dev, 0))
			continue;
		off += snprintf(buf + off, size - off, "%s%s:%s", off ? "," : "", h[i].name,
				path[len] ? path + len : "/");
	}
	free(h);
}
