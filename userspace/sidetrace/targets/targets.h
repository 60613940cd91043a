/* SPDX-License-Identifier: MIT */
/*
 * Finding what a probe's TARGET names: the file, and the events of it that
 * a session traces. The checker asks through st_target_events() (wired as
 * its st_event_source), once per distinct target.
 */
#ifndef SIDETRACE_TARGETS_TARGETS_H
#define SIDETRACE_TARGETS_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "events/events.h"

/*
 * Resolve a probe TARGET to a file path: an existing path as is; a name
 * without '/' is looked up as a library (libfoo, libfoo.so, libfoo.so.1)
 * in LD_LIBRARY_PATH, the ld.so cache (ldconfig -p) and the standard
 * library directories, then as a program in PATH. Returns 0, -ENOENT, or
 * -ENAMETOOLONG.
 */
int st_resolve_target(const char *target, char *path_out, size_t len);

/*
 * Appends the events of TARGET name to out: a path as is, a name resolved
 * by st_resolve_target or, with -c (cmd_path set), next to the command.
 * The file read goes to path. Returns 0, or a negative errno and the
 * reason in err, which does not repeat the target. `list` and tracing
 * both read targets here, so they fail alike.
 */
int st_read_target(const char *name, const char *cmd_path, struct st_event_list *out, char *path,
		   size_t len, char *err, size_t errlen);

/* The events of one probe target, read once. */
struct st_target {
	char *name; /* as written in the probe */
	struct st_event_list list;
	struct st_event *selected; /* -p: the events of this object only */
	struct st_event_list usdt; /* their usdt: view, made when first asked for */
	bool usdt_made;
	bool unmapped; /* -p: the process does not map it (yet): read from its file */
};

/* The functions one uprobe: or uretprobe: probe named, read once. */
struct st_function_query {
	char *target;
	char *function;
	enum st_ap_kind kind;
	bool args_unused, at_entry; /* st_probe_query's */
	struct st_event_list list;
};

/* The targets of a session; zero-initialize, then set pid and cmd_path. */
struct st_target_set {
	pid_t pid; /* -p: targets are the objects this process maps */
	const char *cmd_path; /* -c: the command's executable ("" targets it) */
	struct st_target *targets;
	size_t nr_targets;
	struct st_event_list pid_events;
	bool pid_loaded;
	struct st_function_query *functions; /* uprobe: and uretprobe: answers, kept */
	size_t nr_functions;
};

/*
 * Every event of target name (read once per name), or NULL with the
 * reason in err. With pid set, the events of the objects the process maps
 * that name matches (a name with '*' is a glob on their paths and file
 * names: "*" is every object); an object it has not loaded yet is read
 * from its file. Without pid, a path with '*' is every file it matches;
 * another glob is refused.
 */
const struct st_event_list *st_target_events(struct st_target_set *s, const char *name, char *err,
					     size_t errlen);

/* The same events' usdt: view (usdt_view.h), made once per target. */
const struct st_event_list *st_target_usdt_events(struct st_target_set *s, const char *name,
						  char *err, size_t errlen);

/* What q names: st_target_events(), its usdt: view, or functions (functions.h), read once. */
const struct st_event_list *st_target_query(struct st_target_set *s, const struct st_probe_query *q,
					    char *err, size_t errlen);

void st_target_set_free(struct st_target_set *s);

#endif /* SIDETRACE_TARGETS_TARGETS_H */
