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

#include "objfile/tracefs.h"

#define TRACEFS_MAGIC 0x74726163
static const char *const tracefs_dirs[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};

const char *st_tracefs_dir(void)
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

/*
 * Splits "TYPE NAME[N]" (decl is cut at the ';') into out's type, name
 * and array; bounds before the name belong to the type ("__data_loc
 * char[] name").
 */
static bool split_decl(char *decl, struct st_tp_format_line *out)
{
	char *end = decl + strlen(decl), *name;

	while (end > decl && end[-1] == ' ')
		*--end = '\0';
	out->array = end > decl && end[-1] == ']';
	if (out->array) {
		while (end > decl && end[-1] != '[')
			end--;
		*--end = '\0';
	}
	name = end;
	while (name > decl && name[-1] != ' ' && name[-1] != '*')
		name--;
	if (!*name || name == decl)
		return false;
	/* "char *name": the type keeps its '*', moved one byte on to end it. */
	if (name[-1] == '*') {
		memmove(name + 1, name, strlen(name) + 1);
		*name++ = '\0';
	} else {
		name[-1] = '\0';
	}
	out->name = name;
	out->type = decl;
	return true;
}

int st_tp_format_line(char *line, struct st_tp_format_line *out)
{
	char *decl = strstr(line, "field:"), *semi, *p;
	unsigned int off, size;
	int sign = 0;

	if (!decl)
		return 0;
	decl += strlen("field:");
	semi = strchr(decl, ';');
	if (!semi)
		return 0;
	*semi = '\0';
	p = strstr(semi + 1, "offset:");
	if (!p || sscanf(p, "offset:%u;\tsize:%u;\tsigned:%d;", &off, &size, &sign) < 2)
		return 0;
	if (!split_decl(decl, out))
		return 0;
	out->where.offset = off;
	out->where.size = size;
	out->is_signed = sign == 1;
	return 1;
}

int st_tp_field(const char *category, const char *event, const char *field, struct st_tp_field *out,
		char *err, size_t errlen)
{
	const char *dir = st_tracefs_dir();
	struct st_tp_format_line fl;
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
	while (ret && fgets(line, sizeof(line), f)) {
		if (st_tp_format_line(line, &fl) && !strcmp(fl.name, field)) {
			*out = fl.where;
			ret = 0;
		}
	}
	fclose(f);
	if (ret)
		snprintf(err, errlen, "tracepoint %s:%s has no field %s on this kernel", category,
			 event, field);
	return ret;
}
