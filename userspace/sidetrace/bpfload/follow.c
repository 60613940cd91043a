// SPDX-License-Identifier: MIT
/* -c follows the command's descendants (follow.h, bpf/follow.bpf.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "objfile/tracefs.h"
#include "bpfload/follow.h"
#include "bpfload/loader.h"
#include "sidetrace.skel.h"

int st_follow_configure(struct st_loader *l, bool on, char *err, size_t errlen)
{
	struct sidetrace_bpf *skel = l->skel;
	struct st_tp_field child, group_dead, freed;
	int ret;

	ret = bpf_program__set_autoload(skel->progs.sidetrace_fork, on);
	if (!ret)
		ret = bpf_program__set_autoload(skel->progs.sidetrace_exit, on);
	if (!ret)
		ret = bpf_program__set_autoload(skel->progs.sidetrace_free, on);
	if (ret) {
		snprintf(err, errlen, "cannot set up the fork, exit and free programs: %s",
			 strerror(-ret));
		return ret;
	}
	if (!on)
		return 0;
	ret = st_tp_field("sched", "sched_process_fork", "child_pid", &child, err, errlen);
	if (ret)
		return ret;
	ret = st_tp_field("sched", "sched_process_exit", "group_dead", &group_dead, err, errlen);
	if (ret == -ENOENT)
		group_dead.offset = ST_NO_FIELD;
	else if (ret)
		return ret;
	ret = st_tp_field("sched", "sched_process_free", "pid", &freed, err, errlen);
	if (ret)
		return ret;
	skel->rodata->st_follow = 1;
	skel->rodata->st_free_pid_off = freed.offset;
	skel->rodata->st_fork_child_pid_off = child.offset;
	skel->rodata->st_exit_group_dead_off = group_dead.offset;
	ret = bpf_map__set_max_entries(skel->maps.st_followed, ST_MAX_FOLLOWED);
	if (ret)
		snprintf(err, errlen, "cannot size the map of followed tasks: %s", strerror(-ret));
	return ret;
}

/* The command is in the set before the tracepoints see its first fork. */
int st_follow_start(struct st_loader *l, pid_t pid, char *err, size_t errlen)
{
	struct sidetrace_bpf *skel = l->skel;
	const struct {
		struct bpf_program *prog;
		struct bpf_link **link;
		const char *tracepoint;
	} progs[] = {
		{skel->progs.sidetrace_fork, &skel->links.sidetrace_fork, "sched_process_fork"},
		{skel->progs.sidetrace_exit, &skel->links.sidetrace_exit, "sched_process_exit"},
		{skel->progs.sidetrace_free, &skel->links.sidetrace_free, "sched_process_free"},
	};
	__u8 live = ST_FOLLOWED;
	__u32 key = pid;
	size_t i;
	int ret;

	if (bpf_map_update_elem(bpf_map__fd(skel->maps.st_followed), &key, &live, BPF_ANY)) {
		ret = -errno;
		snprintf(err, errlen, "cannot follow process %d: %s", pid, strerror(errno));
		return ret;
	}
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		*progs[i].link = bpf_program__attach(progs[i].prog);
		if (!*progs[i].link) {
			ret = -errno;
			snprintf(err, errlen, "cannot attach to tracepoint sched:%s: %s",
				 progs[i].tracepoint, strerror(errno));
			return ret;
		}
	}
	return 0;
}

unsigned long long st_follow_lost(const struct st_loader *l)
{
	return l->skel && l->skel->bss ? l->skel->bss->st_follow_lost : 0;
}

bool st_follow_has(const struct st_loader *l, pid_t pid)
{
	__u32 key = pid;
	__u8 v;

	return !bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.st_followed), &key, &v);
}
