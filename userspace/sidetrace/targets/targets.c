// SPDX-License-Identifier: MIT
/*
 * Finding a probe's TARGET (a path, a library name or a program name): the
 * file it names, as the dynamic loader and the shell would find it, and
 * the events of it that a session traces (all, or those of one process).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "side/discover.h"
#include "dwarf/functions.h"
#include "kernel/iters.h"
#include "kernel/kfuncs.h"
#include "kernel/perf_sample.h"
#include "targets/ld_cache.h"
#include "targets/targets.h"
#include "kernel/tracepoints.h"
#include "kernel/watchpoints.h"
#include "side/usdt_view.h"

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

struct cache_search {
	const char *target;
	char *out;
	size_t len;
};

static int cache_entry(const char *name, const char *path, void *arg)
{
	struct cache_search *s = arg;

	if (!lib_name_matches(name, s->target) || !is_regular(path))
		return 0;
	return put_path(path, s->out, s->len) ?: 1;
}

/* The library in the dynamic loader's cache, as ldconfig -p lists it. */
static int search_ld_cache(const char *target, char *out, size_t len)
{
	struct cache_search s = {target, out, len};
	int ret = st_ld_cache_each("/etc/ld.so.cache", cache_entry, &s);

	return ret == 1 ? 0 : ret ?: -ENOENT;
}

/*
 * st_resolve_target(), and where a name without '/' was found (NULL for
 * a path), for errors about the file: "python3" may be a shim in PATH.
 */
static int resolve(const char *target, char *path_out, size_t len, const char **where)
{
	static const char std_dirs[] = "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:"
				       "/lib/aarch64-linux-gnu:/usr/lib/aarch64-linux-gnu:"
				       "/lib64:/usr/lib64:/lib:/usr/lib:/usr/local/lib";
	bool lib;
	int ret;

	*where = NULL;
	if (!*target)
		return -ENOENT;
	if (strchr(target, '/'))
		return is_regular(target) ? put_path(target, path_out, len) : -ENOENT;
	*where = "the current directory";
	if (is_regular(target))
		return put_path(target, path_out, len);
	lib = !strncmp(target, "lib", 3) || strstr(target, ".so");
	if (lib) {
		*where = "LD_LIBRARY_PATH";
		ret = search_dirs(getenv("LD_LIBRARY_PATH"), target, path_out, len);
		if (ret != -ENOENT)
			return ret;
		*where = "the ld.so cache";
		ret = search_ld_cache(target, path_out, len);
		if (ret != -ENOENT)
			return ret;
		*where = "the standard library directories";
		ret = search_dirs(std_dirs, target, path_out, len);
		if (ret != -ENOENT)
			return ret;
	}
	*where = "PATH";
	return search_dirs(getenv("PATH"), target, path_out, len);
}

int st_resolve_target(const char *target, char *path_out, size_t len)
{
	const char *where;

	return resolve(target, path_out, len, &where);
}

/* True when the object at path is what target names (-p lookups). */
static bool object_matches(const char *path, const char *target)
{
	const char *base = strrchr(path, '/');
	size_t n = strlen(target);
	char real[PATH_MAX];

	base = base ? base + 1 : path;
	/* "*" and "" (-p's implied target) are every object; "*kv*" those whose path or file name
	 * match. */
	if (!*target)
		return true;
	if (strchr(target, '*'))
		return !fnmatch(target, path, 0) || !fnmatch(target, base, 0);
	if (!strcmp(path, target))
		return true;
	if (realpath(target, real) && !strcmp(path, real))
		return true;
	if (strchr(target, '/'))
		return false;
	/* "libkv" matches libkv.so and libkv.so.1; "app" matches app. */
	return !strncmp(base, target, n) && (base[n] == '\0' || base[n] == '.' || base[n] == '-');
}

/* -p: the events of the process's objects that target name names (st_pid_path()). */
static int select_pid_events(struct st_target_set *s, struct st_target *t, const char *name)
{
	size_t i, n = 0;

	if (!s->pid_loaded) {
		char err[256] = "";

		if (st_discover_pid(s->pid, &s->pid_events, err, sizeof(err)))
			return -ESRCH;
		s->pid_loaded = true;
	}
	t->selected = calloc(s->pid_events.nr ? s->pid_events.nr : 1, sizeof(*t->selected));
	if (!t->selected)
		return -ENOMEM;
	for (i = 0; i < s->pid_events.nr; i++)
		if (object_matches(s->pid_events.events[i].path, name))
			t->selected[n++] = s->pid_events.events[i];
	t->list.events = t->selected;
	t->list.nr = n;
	t->list.cap = n;
	return 0;
}

/*
 * -c: a library the command loads through an $ORIGIN run path sits next to
 * it, where the standard lookup does not go.
 */
static int find_next_to(const char *cmd_path, const char *name, char *path, size_t len)
{
	char dir[PATH_MAX], *slash;
	struct dirent *de;
	int ret = -ENOENT;
	DIR *d;

	if (!cmd_path || strchr(name, '/'))
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%s", cmd_path);
	slash = strrchr(dir, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	d = opendir(dir);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		char full[PATH_MAX];

		if (snprintf(full, sizeof(full), "%s/%s", dir, de->d_name) >= (int)sizeof(full))
			continue;
		if (strstr(de->d_name, ".so") && object_matches(full, name)) {
			snprintf(path, len, "%s", full);
			ret = 0;
			break;
		}
	}
	closedir(d);
	return ret;
}

/*
 * A path (with '/') with '*', without -p: the events of every file it
 * matches, each under its own path, as bpftrace reads usdt:./app*:...
 * (a file that is no program or library, or has none, is passed over).
 * 0 or a negative errno, the reason in err.
 */
static int read_matching(const char *pattern, struct st_event_list *out, char *err, size_t errlen)
{
	char ferr[256];
	glob_t files;
	size_t i;
	int ret;

	ret = glob(pattern, 0, NULL, &files);
	for (i = 0; !ret && i < files.gl_pathc; i++)
		if (is_regular(files.gl_pathv[i]) &&
		    st_discover_file(files.gl_pathv[i], out, ferr, sizeof(ferr)) == -ENOMEM)
			ret = -ENOMEM;
	globfree(&files);
	if (ret == -ENOMEM || ret == GLOB_NOSPACE) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (!out->nr) {
		snprintf(err, errlen, "%s",
			 ret ? "no file matches ('*' without -p matches files)"
			     : "no file it matches has SIDE events or USDT probes");
		return -ENOENT;
	}
	return 0;
}

const struct st_event_list *st_target_events(struct st_target_set *s, const char *name, char *err,
					     size_t errlen)
{
	char path[PATH_MAX], in_pid[PATH_MAX];
	struct st_target *t;
	size_t i;
	int ret;

	for (i = 0; i < s->nr_targets; i++)
		if (!strcmp(s->targets[i].name, name))
			return &s->targets[i].list;
	t = realloc(s->targets, (s->nr_targets + 1) * sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->targets = t;
	t = &t[s->nr_targets];
	memset(t, 0, sizeof(*t));
	t->name = strdup(name);
	if (!t->name) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->nr_targets++;
	if (s->pid && st_pid_path(s->pid, name, in_pid, sizeof(in_pid))) {
		snprintf(err, errlen, "%s", strerror(ENAMETOOLONG));
		return NULL;
	}
	if (s->pid) {
		name = in_pid;
		ret = select_pid_events(s, t, name);
		if (ret == -ESRCH) {
			snprintf(err, errlen, "cannot read process %d", s->pid);
			return NULL;
		}
		if (ret) {
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		if (t->list.nr)
			return &t->list;
		if (strchr(name, '*')) {
			snprintf(err, errlen, "process %d maps no object with events that matches",
				 s->pid);
			return NULL;
		}
		/* Not loaded yet: attach to the file, filtered on the pid. */
		free(t->selected);
		t->selected = NULL;
		memset(&t->list, 0, sizeof(t->list));
	}
	/* An empty target is the program run by -c. */
	if (!*name && s->cmd_path)
		name = s->cmd_path;
	if (!*name) {
		snprintf(err, errlen, "empty target: write the program or library to trace");
		return NULL;
	}
	if (strchr(name, '*') && strchr(name, '/'))
		return read_matching(name, &t->list, err, errlen) ? NULL : &t->list;
	if (strchr(name, '*')) {
		snprintf(err, errlen,
			 "'*' in a target means every object of a process: give -p PID");
		return NULL;
	}
	if (st_read_target(name, s->cmd_path, &t->list, path, sizeof(path), err, errlen))
		return NULL;
	t->unmapped = s->pid > 0;
	if (!t->list.nr) {
		snprintf(err, errlen, "no SIDE events (no USDT probes)");
		return NULL;
	}
	return &t->list;
}

/*
 * The file target name names (a path as is: the ELF reader says why it
 * cannot be read); *where: where a name was found, or NULL.
 */
static int target_path(const char *name, const char *cmd_path, char *path, size_t len,
		       const char **where, char *err, size_t errlen)
{
	int ret;

	ret = resolve(name, path, len, where);
	if (ret == -ENOENT && !strchr(name, '/')) {
		*where = "the command's directory";
		ret = find_next_to(cmd_path, name, path, len);
	}
	if (ret == -ENOENT && strchr(name, '/'))
		ret = put_path(name, path, len);
	if (ret)
		snprintf(err, errlen, "%s",
			 ret == -ENOENT ? "no such program or library" : strerror(-ret));
	return ret;
}

/*
 * Names in err the file a name (no '/') was found as, when it cannot be
 * read: the user wrote "python3", the file that failed is a shim in PATH.
 */
static void say_found(const char *name, const char *path, const char *where, char *err,
		      size_t errlen)
{
	char why[256];

	if (!where || !strcmp(name, path))
		return;
	snprintf(why, sizeof(why), "%s", err);
	snprintf(err, errlen, "%s (%s found in %s): %s", path, name, where, why);
}

int st_read_target(const char *name, const char *cmd_path, struct st_event_list *out, char *path,
		   size_t len, char *err, size_t errlen)
{
	const char *where;
	int ret = target_path(name, cmd_path, path, len, &where, err, errlen);

	if (ret)
		return ret;
	ret = st_discover_file(path, out, err, errlen);
	if (ret)
		say_found(name, path, where, err, errlen);
	return ret;
}

/*
 * The kept answer to a query by kind, key (a function's target, a
 * tracepoint's category) and function (or tracepoint name): the one
 * found, or a new one with an empty list (*fresh). NULL: out of memory.
 */
static struct st_function_query *kept_query(struct st_target_set *s, enum st_ap_kind kind,
					    const char *key, const char *function, bool args_unused,
					    bool at_entry, bool *fresh)
{
	struct st_function_query *fq;
	size_t i;

	*fresh = false;
	for (i = 0; i < s->nr_functions; i++) {
		fq = &s->functions[i];
		if (fq->kind == kind && !strcmp(fq->target, key) &&
		    !strcmp(fq->function, function) && fq->args_unused == args_unused &&
		    fq->at_entry == at_entry)
			return fq;
	}
	fq = realloc(s->functions, (s->nr_functions + 1) * sizeof(*fq));
	if (!fq)
		return NULL;
	s->functions = fq;
	fq = &fq[s->nr_functions];
	memset(fq, 0, sizeof(*fq));
	fq->kind = kind;
	fq->args_unused = args_unused;
	fq->at_entry = at_entry;
	fq->target = strdup(key);
	fq->function = strdup(function);
	s->nr_functions++;
	*fresh = true;
	return fq->target && fq->function ? fq : NULL;
}

/*
 * uprobe:, uretprobe: a function is probed in its file; an empty target is
 * the -c command, or the -p process's executable; with -p, a path is the
 * process's (in its mount namespace).
 */
static const struct st_event_list *
query_functions(struct st_target_set *s, const struct st_probe_query *q, char *err, size_t errlen)
{
	struct st_function_query *fq;
	char path[PATH_MAX], in_pid[PATH_MAX];
	const char *name = q->target, *where;
	bool fresh;

	if (!*name && s->cmd_path)
		name = s->cmd_path;
	if (!*name && s->pid) {
		st_pid_exe(s->pid, in_pid, sizeof(in_pid));
		name = in_pid;
	} else if (s->pid && !st_pid_path(s->pid, name, in_pid, sizeof(in_pid))) {
		name = in_pid;
	}
	if (!*name) {
		snprintf(err, errlen, "empty target: write the program or library to trace");
		return NULL;
	}
	fq = kept_query(s, q->kind, q->target, q->function, q->args_unused, q->at_entry, &fresh);
	if (!fq) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!fresh)
		return &fq->list;
	if (target_path(name, s->cmd_path, path, sizeof(path), &where, err, errlen))
		return NULL;
	if (st_discover_functions(path, q->function, q->kind, q->args_unused, q->at_entry,
				  &fq->list, err, errlen)) {
		say_found(name, path, where, err, errlen);
		return NULL;
	}
	return &fq->list;
}

/* The tracepoints q names (its provider: the category). */
static const struct st_event_list *
query_tracepoints(struct st_target_set *s, const struct st_probe_query *q, char *err, size_t errlen)
{
	struct st_function_query *fq;
	bool fresh;

	fq = kept_query(s, q->kind, q->provider, q->function, false, false, &fresh);
	if (!fq) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (fresh && st_discover_tracepoints(q->provider, q->function, &fq->list, err, errlen))
		return NULL;
	return &fq->list;
}

/* The kernel functions q names. */
static const struct st_event_list *
query_kfuncs(struct st_target_set *s, const struct st_probe_query *q, char *err, size_t errlen)
{
	struct st_function_query *fq;
	bool fresh;

	/* A listing's answer, with less, is kept apart from a probe's. */
	fq = kept_query(s, q->kind,
			q->query_for == ST_QUERY_NAMES	 ? "names"
			: q->query_for == ST_QUERY_DECLS ? "decls"
							 : "",
			q->function, q->args_unused, false, &fresh);
	if (!fq) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (fresh && st_discover_kfuncs(q->function, q->kind, q->query_for, q->args_unused,
					&fq->list, err, errlen))
		return NULL;
	return &fq->list;
}

/* The kernel's iterators q names. */
static const struct st_event_list *
query_iters(struct st_target_set *s, const struct st_probe_query *q, char *err, size_t errlen)
{
	struct st_function_query *fq;
	bool fresh;

	fq = kept_query(s, q->kind, "", q->function, false, false, &fresh);
	if (!fq) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (fresh && st_discover_iters(q->function, &fq->list, err, errlen))
		return NULL;
	return &fq->list;
}

/* The events of a probe that samples a perf event: profile:, software:, hardware:. */
static const struct st_event_list *
query_perf(struct st_target_set *s, const struct st_probe_query *q, char *err, size_t errlen)
{
	struct st_function_query *fq;
	bool fresh;

	fq = kept_query(s, q->kind, q->provider, q->function, false, false, &fresh);
	if (!fq || (fresh && st_perf_sample_events(st_probe_kind(q->kind), q->provider, q->function,
						   &fq->list))) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return &fq->list;
}

/*
 * A function's watchpoint: the functions w's glob matches in the -c
 * command or the -p process (as bpftrace, no other file). 0, or a
 * negative errno with the reason in err.
 */
static int watch_functions(struct st_target_set *s, const struct st_probe_kind *k,
			   const struct st_watch_spec *w, struct st_event_list *out, char *err,
			   size_t errlen)
{
	const char *name = s->cmd_path, *where;
	char path[PATH_MAX], exe[64];
	int ret;

	if (!name && s->pid) {
		snprintf(exe, sizeof(exe), "/proc/%d/exe", s->pid);
		name = exe;
	}
	if (!name) {
		snprintf(err, errlen,
			 "-p PID or -c CMD required for watchpoint: %s+arg%d watches an argument "
			 "of a function of that process",
			 w->func, w->arg);
		return -EINVAL;
	}
	ret = target_path(name, s->cmd_path, path, sizeof(path), &where, err, errlen);
	if (!ret)
		ret = st_discover_functions(path, w->func, k->kind, true, false, out, err, errlen);
	/* Named as bpftrace names it: the command as written, or the process's file. */
	return ret ?: st_watch_function_events(k, w, s->pid ? path : name, out);
}

/* A watchpoint's events, its words checked by the lexer already. */
static const struct st_event_list *
query_watch(struct st_target_set *s, const struct st_probe_query *q, char *err, size_t errlen)
{
	const struct st_probe_kind *k = st_probe_kind(q->kind);
	struct st_function_query *fq;
	struct st_watch_spec w;
	bool fresh;
	int ret = 0;

	if (st_watch_spec_parse(k, q->provider, q->function, &w, err, errlen))
		return NULL;
	fq = kept_query(s, q->kind, q->provider, q->function, false, false, &fresh);
	if (fq && fresh)
		ret = w.func ? watch_functions(s, k, &w, &fq->list, err, errlen)
			     : st_watch_address_event(k, &w, q->provider, q->function, &fq->list);
	st_watch_spec_free(&w);
	if (!fq || ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return fq && !ret ? &fq->list : NULL;
}

const struct st_event_list *st_target_query(struct st_target_set *s, const struct st_probe_query *q,
					    char *err, size_t errlen)
{
	switch (st_probe_kind(q->kind)->source) {
	case ST_SOURCE_WATCH:
		return query_watch(s, q, err, errlen);
	case ST_SOURCE_PERF:
		return query_perf(s, q, err, errlen);
	case ST_SOURCE_KFUNCS:
		return query_kfuncs(s, q, err, errlen);
	case ST_SOURCE_ITERS:
		return query_iters(s, q, err, errlen);
	case ST_SOURCE_TRACEPOINTS:
		return query_tracepoints(s, q, err, errlen);
	case ST_SOURCE_SDT:
		return st_target_usdt_events(s, q->target, err, errlen);
	case ST_SOURCE_FUNCTIONS:
		return query_functions(s, q, err, errlen);
	case ST_SOURCE_SIDE:
		return st_target_events(s, q->target, err, errlen);
	case ST_SOURCE_NONE:
		break;
	}
	snprintf(err, errlen, "%s has no events", st_probe_kind(q->kind)->name);
	return NULL;
}

const struct st_event_list *st_target_usdt_events(struct st_target_set *s, const char *name,
						  char *err, size_t errlen)
{
	const struct st_event_list *l = st_target_events(s, name, err, errlen);
	struct st_target *t;
	size_t i;

	if (!l)
		return NULL;
	for (i = 0; i < s->nr_targets && s->targets[i].list.events != l->events; i++)
		;
	if (i == s->nr_targets) {
		snprintf(err, errlen, "internal error: target %s not kept", name);
		return NULL;
	}
	t = &s->targets[i];
	if (!t->usdt_made && st_usdt_view(l, &t->usdt)) {
		st_event_list_free(&t->usdt);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->usdt_made = true;
	return &t->usdt;
}

void st_target_set_free(struct st_target_set *s)
{
	size_t i;

	for (i = 0; i < s->nr_targets; i++) {
		st_event_list_free(&s->targets[i].usdt);
		if (s->targets[i].selected)
			free(s->targets[i].selected);
		else
			st_event_list_free(&s->targets[i].list);
		free(s->targets[i].name);
	}
	free(s->targets);
	st_event_list_free(&s->pid_events);
	for (i = 0; i < s->nr_functions; i++) {
		free(s->functions[i].target);
		free(s->functions[i].function);
		st_event_list_free(&s->functions[i].list);
	}
	free(s->functions);
}
