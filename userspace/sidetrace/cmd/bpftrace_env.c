// SPDX-License-Identifier: MIT
/* bpftrace's environment variables (bpftrace_env.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/bpftrace_env.h"
#include "util/escape.h"

/* Most keys one map holds: the hash of all keyed maps is sized from it. */
#define MAX_MAP_KEYS (1U << 22)

/* A positive number in a variable, at most max; 0 after a message when it is not one. */
static unsigned long long number(const char *name, const char *v, unsigned long long max)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || end == v || *end || !n || n > max) {
		st_errorf("%s=%s: give a number from 1 to %llu", name, v, max);
		return 0;
	}
	return n;
}

/* bpftrace's keys per map: sidetrace's keyed maps share a hash, as many entries for each. */
static int map_keys_max(struct st_compiled *c, const char *name, const char *v)
{
	unsigned long long n = number(name, v, MAX_MAP_KEYS);

	if (!n)
		return -EINVAL;
	c->map_keys = n;
	return 0;
}

/* bpftrace's pages per CPU of its ring: the same bytes in sidetrace's one ring, unless -b. */
static int perf_rb_pages(struct st_compiled *c, const char *name, const char *v)
{
	unsigned long long n = number(name, v, 1U << 18);

	if (!n)
		return -EINVAL;
	if (!c->events_size)
		c->events_size = st_events_cpu_pages_size(n, ST_EVENTS_MIN_SIZE);
	return 0;
}

/* cat()'s bytes printed at most. */
static int cat_bytes_max(struct st_compiled *c, const char *name, const char *v)
{
	unsigned long long n = number(name, v, 1U << 30);

	c->cat_bytes = n;
	return n ? 0 : -EINVAL;
}

/* str()'s bytes: sidetrace's strings are fixed when it is built. */
static int strlen_fixed(struct st_compiled *c, const char *name, const char *v)
{
	(void)c;
	if (!strcmp(v, "64"))
		return 0;
	st_errorf("%s=%s: sidetrace's strings are 64 bytes (63 and the NUL), fixed when it is "
		  "built; longer ones are cut and counted",
		  name, v);
	return -EINVAL;
}

static const struct {
	const char *name;
	/* NULL: a knob of bpftrace's own making (its compiler, its symbol caches, its
	 * program count) that sidetrace has no counterpart of: accepted. */
	int (*apply)(struct st_compiled *c, const char *name, const char *v);
} vars[] = {
	{"BPFTRACE_MAP_KEYS_MAX", map_keys_max},
	{"BPFTRACE_PERF_RB_PAGES", perf_rb_pages},
	{"BPFTRACE_STRLEN", strlen_fixed},
	{"BPFTRACE_NO_CPP_DEMANGLE", NULL},
	{"BPFTRACE_CAT_BYTES_MAX", cat_bytes_max},
	{"BPFTRACE_MAX_PROBES", NULL},
	{"BPFTRACE_MAX_BPF_PROGS", NULL},
	{"BPFTRACE_LOG_SIZE", NULL},
	{"BPFTRACE_NO_USER_SYMBOLS", NULL},
	{"BPFTRACE_CACHE_USER_SYMBOLS", NULL},
	{"BPFTRACE_VMLINUX", NULL},
	{"BPFTRACE_BTF", NULL},
};

int st_bpftrace_env(struct st_compiled *c)
{
	const char *v;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		v = getenv(vars[i].name);
		if (!v || !vars[i].apply)
			continue;
		ret = vars[i].apply(c, vars[i].name, v);
		if (ret)
			return ret;
	}
	return 0;
}
