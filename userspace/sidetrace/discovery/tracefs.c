// SPDX-License-Identifier: MIT
/*
 * Tracepoint formats from tracefs (tracefs.h). A format file lists one
 * field a line:
 *
 *	field:pid_t child_pid;	offset:20;	size:4;	signed:1;
 *
 * the field's name is the last word of its declaration, before any array
 * bounds.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "discovery/tracefs.h"

#define TRACEFS_MAGIC 0x74726163
static const char *const tracefs_dirs[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};

/* Where tracefs is mounted, mounting it at its usual place when it is nowhere. */
static const char *tracefs_dir(void)
{
	struct statfs sfs;
	size_t i;

	for (i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++)
		if (!statfs(tracefs_dirs[i], &sfs) && sfs.f_type == TRACEFS_MAGIC)
			return tracefs_dirs[i];
	if (!mount("tracefs", tracefs_dirs[0], "tracefs", 0, NULL))
		return tracefs_dirs[0];
	return NULL;
}

/* The declared name in "TYPE NAME[N]" (decl is cut at the ';'), or NULL. */
static const char *decl_name(char *decl)
{
	char *end = decl + strlen(decl), *bracket = strchr(decl, '[');

	if (bracket)
		end = bracket;
	*end = '\0';
	while (end > decl && end[-1] == ' ')
		*--end = '\0';
	while (end > decl && end[-1] != ' ' && end[-1] != '*')
		end--;
	return *end ? end : NULL;
}

/* Reads one "field:" line into out when it declares field: 1, else 0. */
static int match_line(char *line, const char *field, struct st_tp_field *out)
{
	char *decl = strstr(line, "field:"), *semi, *p;
	const char *name;
	unsigned int off, size;

	if (!decl)
		return 0;
	decl += strlen("field:");
	semi = strchr(decl, ';');
	if (!semi)
		return 0;
	*semi = '\0';
	name = decl_name(decl);
	if (!name || strcmp(name, field))
		return 0;
	p = strstr(semi + 1, "offset:");
	if (!p || sscanf(p, "offset:%u;\tsize:%u;", &off, &size) != 2)
		return 0;
	out->offset = off;
	out->size = size;
	return 1;
}

int st_tp_field(const char *category, const char *event, const char *field, struct st_tp_field *out,
		char *err, size_t errlen)
{
	const char *dir = tracefs_dir();
	char path[512], line[512];
	int ret = -ENOENT;
	FILE *f;

	if (!dir) {
		snprintf(err, errlen, "tracefs is not mounted (mount -t tracefs tracefs %s)",
			 tracefs_dirs[0]);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, category, event);
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return ret;
	}
	while (ret && fgets(line, sizeof(line), f))
		if (match_line(line, field, out))
			ret = 0;
	fclose(f);
	if (ret)
		snprintf(err, errlen, "tracepoint %s:%s has no field %s on this kernel", category,
			 event, field);
	return ret;
}
