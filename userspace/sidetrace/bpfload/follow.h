/* SPDX-License-Identifier: MIT */
/*
 * A -c session follows the command's descendants (bpf/follow.bpf.h): its
 * probes are attached for every process, and the BPF programs count only
 * the events of the tasks that the command and its descendants made.
 */
#ifndef SIDETRACE_BPFLOAD_FOLLOW_H
#define SIDETRACE_BPFLOAD_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct st_loader;

/*
 * Before load: sizes st_followed, finds the fork and exit records' fields
 * on this kernel and loads the two tracepoint programs when on; keeps
 * them out otherwise. 0, or a negative errno with the reason in err.
 */
int st_follow_configure(struct st_loader *l, bool on, char *err, size_t errlen);

/* After load: follows pid from now on. 0, or a negative errno with the reason in err. */
int st_follow_start(struct st_loader *l, pid_t pid, char *err, size_t errlen);

/* Whether process pid is the command or one of its descendants. */
bool st_follow_has(const struct st_loader *l, pid_t pid);

/* Tasks that could not be followed (st_followed was full). */
unsigned long long st_follow_lost(const struct st_loader *l);

#endif /* SIDETRACE_BPFLOAD_FOLLOW_H */
