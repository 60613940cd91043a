// SPDX-License-Identifier: MIT
/* /proc/PID/maps parsed by hand: sscanf() and stdio are not async-signal-safe. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/proc_maps.h"

/* The longest line kept whole: a path of PATH_MAX and the fields before it. */
#define ST_MAPS_LINE 4352

static const char *hex_field(const char *s, uint64_t *v, char end)
{
	char *stop;

	*v = strtoull(s, &stop, 16);
	return stop != s && *stop == end ? stop + 1 : NULL;
}

/* "lo-hi perms offset major:minor inode   path"; false for a line of another shape. */
static bool parse_line(const char *line, struct st_mapping *m)
{
	uint64_t lo, hi, major, minor;
	const char *s = line;

	if (!(s = hex_field(s, &lo, '-')) || !(s = hex_field(s, &hi, ' ')) || strlen(s) < 5 ||
	    s[4] != ' ')
		return false;
	memcpy(m->perms, s, sizeof(m->perms));
	if (!(s = hex_field(s + 5, &m->offset, ' ')) || !(s = hex_field(s, &major, ':')) ||
	    !(s = hex_field(s, &minor, ' ')))
		return false;
	m->inode = strtoull(s, (char **)&s, 10);
	while (*s == ' ')
		s++;
	m->lo = lo;
	m->hi = hi;
	m->dev_major = major;
	m->dev_minor = minor;
	m->path = s;
	return hi > lo;
}

/* "/proc/PID/maps" or "/proc/self/maps" into path, without stdio. */
static void maps_path(char path[32], int pid)
{
	char digits[16], *d = digits + sizeof(digits);
	unsigned int v = pid;

	strcpy(path, "/proc/");
	if (!pid) {
		strcat(path, "self/maps");
		return;
	}
	*--d = '\0';
	do
		*--d = '0' + v % 10;
	while (v /= 10);
	strcat(path, d);
	strcat(path, "/maps");
}

int st_maps_walk(int pid, int (*fn)(const struct st_mapping *m, void *arg), void *arg)
{
	char buf[ST_MAPS_LINE + 1], path[32], *line, *nl;
	struct st_mapping m;
	size_t have = 0;
	bool skip = false; /* the rest of a line too long for the buffer */
	ssize_t got;
	int fd, ret = 0;

	maps_path(path, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (!ret && (got = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
		have += got;
		buf[have] = '\0';
		line = buf;
		while (!ret && (nl = strchr(line, '\n'))) {
			*nl = '\0';
			if (!skip && parse_line(line, &m))
				ret = fn(&m, arg);
			skip = false;
			line = nl + 1;
		}
		have -= line - buf;
		memmove(buf, line, have);
		if (!ret && have == sizeof(buf) - 1) {
			buf[have] = '\0';
			if (parse_line(buf, &m))
				ret = fn(&m, arg);
			skip = true;
			have = 0;
		}
	}
	if (!ret && got < 0)
		ret = -EIO;
	close(fd);
	return ret;
}
