/* SPDX-License-Identifier: MIT */
/*
 * Discovery: find the SIDE events (and plain USDT probes) of an object file
 * or of a running process, without running or stopping anything.
 *
 * Each stapsdt note is a probe site; sites are grouped per (provider, name)
 * and matched to the SIDE event description found through the
 * "side_event_description_ptr" section, by sanitized provider and event
 * names. The type tree follows events.h, with these conventions:
 *  - ENUM, ENUM_BITMAP: elem is the underlying type; enum_labels,
 *    enum_begin, enum_end hold the mappings (bitmap ranges are bit indices);
 *  - VARIANT: elem is the selector type; fields are the options, each named
 *    by its selector range ("3" or "1..5");
 *  - GATHER_STRUCT: fields are the members; GATHER_ARRAY and GATHER_VLA use
 *    elem (and length_type) like ARRAY and VLA;
 *  - an unknown label is kept as is, with no children; a node that could
 *    not be read at all has label ST_TYPE_UNREADABLE.
 */
#ifndef SIDETRACE_DISCOVERY_DISCOVERY_H
#define SIDETRACE_DISCOVERY_DISCOVERY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "discovery/events.h"

/* Label of a type node that could not be read (see st_event.error). */
#define ST_TYPE_UNREADABLE 0xffff

/* Limits that keep a hostile description from costing unbounded work. */
#define ST_MAX_TYPE_DEPTH 8 /* nested struct/array/... levels */
#define ST_MAX_FIELDS 1024 /* members of one struct or event */
#define ST_MAX_TYPE_NODES 4096 /* type nodes in one event */
#define ST_MAX_FILE_TYPE_NODES 262144 /* type nodes in one object file */
#define ST_MAX_ENUM 4096 /* mappings of one enum */
#define ST_MAX_ATTRS 64 /* attributes of one event or type */
#define ST_MAX_NAME 1024 /* code units of a name or label */
#define ST_MAX_EVENTS 65536 /* events of one object */

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
 * Appends to out an event that fires in the kernel, not at a site in a
 * file (tracepoints, kernel functions, profiles): no path, provider and
 * name as given, one site for the caller to fill. NULL: out of memory.
 */
struct st_event *st_kernel_event_add(struct st_event_list *out, enum st_event_view view,
				     const char *provider, const char *name);

/* Free everything in l and leave it empty. */
void st_event_list_free(struct st_event_list *l);

/*
 * fnmatch(3)-style match of an event against provider and name globs
 * (NULL matches anything). Each glob may match either the SIDE name or the
 * sanitized USDT name.
 */
bool st_event_match(const struct st_event *ev, const char *provider_glob, const char *name_glob);

/*
 * Indices of the events of l that match, in list order: fills idx with up
 * to max of them (idx may be NULL when max is 0) and returns how many match
 * in total.
 */
size_t st_events_match(const struct st_event_list *l, const char *provider_glob,
		       const char *name_glob, size_t *idx, size_t max);

/* Replace every character outside [A-Za-z0-9_] by '_', as SDT names do. */
void st_sanitize_name(char *s);

/* "u32", "struct", "gather_integer"...; "unreadable", "unknown". */
const char *st_type_name(const struct st_type *t);

/* The index of an enum type's first mapping that holds v, or -1. */
int st_type_enum_mapping(const struct st_type *t, int64_t v);
/* The label of an enum type's mapping that holds v; NULL if none does. */
const char *st_type_enum_label(const struct st_type *t, int64_t v);

/*
 * A function's value (DWARF, BTF) typed as an integer of size bytes: 8
 * when no SIDE integer type has that size.
 */
void st_type_set_int(struct st_type *t, uint32_t size, bool is_signed);

/*
 * A function's array typed: of chars, a string in place, readable as a
 * member (depth > 0) but not passed by value; of anything else, a raw
 * word. The reason it cannot be read, or NULL.
 */
const char *st_type_set_array(struct st_type *t, bool of_chars, int depth);

/* "INFO" for SIDE_LOGLEVEL_INFO...; NULL when out of range. */
const char *st_loglevel_name(uint32_t loglevel);

#endif /* SIDETRACE_DISCOVERY_DISCOVERY_H */
