// SPDX-License-Identifier: MIT
/* The builtins' table: see builtins.h. */
#include <stdio.h>
#include <string.h>

#include "parse/builtins.h"

#define ANYWHERE (ST_AVAIL_EVENT | ST_AVAIL_SESSION)
/* A value of the machine's helper h in both engines. */
#define HELPER(h) .bpf = ST_BC_HELPER, .host = ST_BC_HELPER, .helper = (h)

static const struct st_builtin_row builtins[ST_NR_BUILTINS] = {
	[ST_BUILTIN_PID] = {"pid", ST_VT_UINT, ANYWHERE, NULL, HELPER(ST_BI_PID),
			    .kept = ST_KEPT_PID},
	[ST_BUILTIN_TID] = {"tid", ST_VT_UINT, ANYWHERE, NULL, HELPER(ST_BI_TID)},
	[ST_BUILTIN_COMM] = {"comm", ST_VT_STR, ANYWHERE, NULL, .bpf = ST_BC_COMM,
			     .host = ST_BC_COMM},
	[ST_BUILTIN_NSECS] = {"nsecs", ST_VT_UINT, ANYWHERE, NULL, HELPER(ST_BI_NSECS)},
	/* Nanoseconds since the session started. */
	[ST_BUILTIN_ELAPSED] = {"elapsed", ST_VT_UINT, ANYWHERE, NULL, .bpf = ST_BC_ELAPSED,
				.host = ST_BC_ELAPSED},
	[ST_BUILTIN_CPU] = {"cpu", ST_VT_UINT, ANYWHERE, NULL, HELPER(ST_BI_CPU)},
	[ST_BUILTIN_UID] = {"uid", ST_VT_UINT, ANYWHERE, NULL, HELPER(ST_BI_UID)},
	[ST_BUILTIN_GID] = {"gid", ST_VT_UINT, ANYWHERE, NULL, HELPER(ST_BI_GID)},
	/* The task's cgroup v2 id. */
	[ST_BUILTIN_CGROUP] = {"cgroup", ST_VT_UINT, ANYWHERE, NULL, HELPER(ST_BI_CGROUP)},
	/* A map key of a stack prints its frames. */
	[ST_BUILTIN_USTACK] = {"ustack", ST_VT_UINT, ST_AVAIL_EVENT,
			       "ustack is the stack of a probe's event; %s runs in sidetrace",
			       .bpf = ST_BC_HELPER, .helper = ST_BI_USTACK, .stacks = ST_STACK_USER,
			       .frames = true, .kept = ST_KEPT_USTACK},
	[ST_BUILTIN_KSTACK] = {"kstack", ST_VT_UINT, ST_AVAIL_EVENT,
			       "kstack is the stack of a probe's event; %s runs in sidetrace",
			       .bpf = ST_BC_HELPER, .helper = ST_BI_KSTACK,
			       .stacks = ST_STACK_KERNEL, .frames = true, .kept = ST_KEPT_KSTACK},
	[ST_BUILTIN_FUNC] = {"func", ST_VT_STR, ST_AVAIL_EVENT | ST_AVAIL_FUNCTION,
			     "func is the probed function's name: uprobe:, uretprobe:, kprobe: "
			     "and kretprobe: probes have one, %s does not",
			     .bpf = ST_BC_FUNC},
	/* A printf sends its index: a name longer than a kernel string would not fit. */
	[ST_BUILTIN_PROBE] = {"probe", ST_VT_STR, ANYWHERE, NULL, .bpf = ST_BC_PROBE,
			      .host = ST_BC_PROBE, .kept = ST_KEPT_PROBE},
	/* The event's SIDE log level. */
	[ST_BUILTIN_LOGLEVEL] = {"loglevel", ST_VT_UINT, ST_AVAIL_EVENT,
				 "loglevel is the level of a side: event; %s has none",
				 .bpf = ST_BC_LOGLEVEL},
	/* A pseudo-random 32-bit number. */
	[ST_BUILTIN_RAND] = {"rand", ST_VT_UINT, ANYWHERE, NULL, HELPER(ST_BI_RAND)},
	[ST_BUILTIN_NUMAID] = {"numaid", ST_VT_UINT, ANYWHERE, NULL, HELPER(ST_BI_NUMAID)},
	/* The command is started, stopped, before the program is compiled. */
	[ST_BUILTIN_CPID] = {"cpid", ST_VT_UINT, ANYWHERE | ST_AVAIL_COMMAND,
			     "cpid is the pid of the command of -c CMD, and %s runs without one",
			     .bpf = ST_BC_CPID, .host = ST_BC_CPID},
	/* The uid, named by the collector from the passwd database when printed. */
	[ST_BUILTIN_USERNAME] = {"username", ST_VT_UINT, ANYWHERE, NULL, HELPER(ST_BI_UID),
				 .kept = ST_KEPT_USER},
	/* In BEGIN, END and interval, sidetrace's own task, as bpftrace's BEGIN has bpftrace's. */
	[ST_BUILTIN_CURTASK] = {"curtask", ST_VT_UINT, ANYWHERE, NULL, .bpf = ST_BC_HELPER,
				.host = ST_BC_TASK, .helper = ST_BI_CURTASK,
				.ctype = "struct task_struct"},
	/*
	 * The address of the program's context, in the kernel's memory: a
	 * uprobe's and a kprobe's registers, a tracepoint's record, cast to
	 * read it; an iterator's context (struct bpf_iter__task, ...).
	 */
	[ST_BUILTIN_CTX] = {"ctx", ST_VT_UINT, ST_AVAIL_EVENT,
			    "ctx is the context of a probe's program; %s runs in sidetrace",
			    .bpf = ST_BC_HELPER, .helper = ST_BI_CTX, .ctype = "struct pt_regs",
			    .kind_ctype = true},
};

const struct st_builtin_row *st_builtin(enum st_builtin b)
{
	return &builtins[b];
}

int st_builtin_find(const char *name)
{
	int b;

	for (b = 0; b < ST_NR_BUILTINS; b++)
		if (!strcmp(name, builtins[b].name))
			return b;
	return -1;
}

const char *st_builtin_name(enum st_builtin b)
{
	return builtins[b].name;
}

const char *st_builtin_names(void)
{
	static char names[256];
	size_t off = 0;
	int b;

	if (names[0])
		return names;
	for (b = 0; b < ST_NR_BUILTINS; b++)
		off += snprintf(names + off, sizeof(names) - off, "%s%s", b ? ", " : "",
				builtins[b].name);
	return names;
}
