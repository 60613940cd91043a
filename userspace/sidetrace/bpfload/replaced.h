/* SPDX-License-Identifier: MIT */
/*
 * Traced files replaced on disk, as a deploy does (`cp new app.tmp && mv
 * app.tmp app`): uprobes go by inode, so the old file stays traced for the
 * processes that still run it, and the new one would not be traced at
 * all. A session that traces every process (system-wide, serve) watches
 * each traced path, and once a new file there has stood still for a
 * check, attaches the same probes to it: when its events have the same
 * shape (events/event_same.h) their sites may have moved anywhere.
 * Otherwise it says why on stderr and counts the file as refused.
 */
#ifndef SIDETRACE_BPFLOAD_REPLACED_H
#define SIDETRACE_BPFLOAD_REPLACED_H

#include <stdint.h>
#include <sys/types.h>

#include "compile/compile.h"

struct st_loader;

/* Seconds between two looks at the traced paths. */
#define ST_REPLACED_CHECK_S 1

struct st_replaced_file {
	char *path;
	dev_t dev; /* the file attached last */
	ino_t ino;
	struct { /* a new file seen at path, attached once it stood still */
		dev_t dev;
		ino_t ino;
		off_t size;
		struct timespec mtime;
	} seen;
	unsigned long attached; /* new files attached */
	unsigned long refused; /* new files not attached: other events, no room */
};

struct st_replaced {
	struct st_replaced_file *files;
	size_t nr;
	uint64_t next_check_ns;
};

/* Starts watching the files c's probes are attached in (*out). 0 or -ENOMEM. */
int st_replaced_watch(struct st_replaced **out, const struct st_compiled *c);

/*
 * At most once every ST_REPLACED_CHECK_S seconds: attaches c's probes to
 * the files that replaced theirs, saying so on stderr. Returns the number
 * of files attached again.
 */
int st_replaced_poll(struct st_replaced *r, struct st_loader *l, const struct st_compiled *c);

void st_replaced_free(struct st_replaced *r);

#endif /* SIDETRACE_BPFLOAD_REPLACED_H */
