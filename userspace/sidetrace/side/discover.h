/* SPDX-License-Identifier: MIT */
/*
 * Discovery: find the SIDE events (and plain USDT probes) of an object file
 * or of a running process, without running or stopping anything.
 *
 * Each stapsdt note is a probe site; sites are grouped per (provider, name)
 * and matched to the SIDE event description found through the
 * "side_event_description_ptr" section, by sanitized provider and event
 * names.
 */
#ifndef SIDETRACE_SIDE_DISCOVER_H
#define SIDETRACE_SIDE_DISCOVER_H

#include <stddef.h>
#include <sys/types.h>

#include "events/events.h"

/*
 * Append the events of the ELF object at path to out (zero-initialize it
 * before the first call). Returns 0, or a negative errno with a message in
 * err: -ENOENT and other open errors, -ENOEXEC (not an ELF executable or
 * shared object), -EINVAL (corrupt), -ENOMEM. An object without any probe
 * appends nothing and returns 0. A description that cannot be fully read
 * still yields an event, with st_event.error set.
 */
int st_discover_file(const char *path, struct st_event_list *out, char *err, size_t errlen);

/*
 * Append the events of every ELF object mapped by process pid (executable
 * and shared libraries). st_event.path is the object's path as the process
 * maps it, or a /proc/PID/root/... or /proc/PID/map_files/... path when the
 * former is not reachable from here. Returns 0 or a negative errno.
 */
int st_discover_pid(pid_t pid, struct st_event_list *out, char *err, size_t errlen);

/*
 * An absolute path as process pid names it, as read from here: the path
 * itself in our mount namespace, /proc/PID/root/PATH in another (a
 * container's), as bpftrace reads a -p process's targets. Another path is
 * copied as is. Returns 0 or -ENAMETOOLONG.
 */
int st_pid_path(pid_t pid, const char *path, char *buf, size_t len);

/*
 * The executable of process pid, by a path that reaches the very file it
 * runs (st_pid_path() of its link), or /proc/PID/exe when none does.
 */
void st_pid_exe(pid_t pid, char *buf, size_t len);

#endif /* SIDETRACE_SIDE_DISCOVER_H */
