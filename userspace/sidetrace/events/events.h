/* SPDX-License-Identifier: MIT */
/*
 * The event model: what a probe can attach to, with its sites and typed
 * fields. Filled by the sources (side/, dwarf/, kernel/, through
 * targets/), read by the checker, the compiler and the attach code.
 */
#ifndef SIDETRACE_EVENTS_EVENTS_H
#define SIDETRACE_EVENTS_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "kinds/probe_kinds.h"
#include "objfile/sdt_args.h"

/* One node of a field's type tree; labels are enum side_type_label values. */
struct st_type {
	uint16_t label; /* SIDE_TYPE_* */
	uint16_t size; /* bytes: integers, floats, bool; string unit size */
	bool is_signed; /* integers */
	uint32_t array_len; /* SIDE_TYPE_ARRAY */
	struct st_type *elem; /* ARRAY, VLA, ENUM, ENUM_BITMAP, OPTIONAL */
	struct st_field *fields; /* STRUCT members */
	uint32_t nr_fields;
	char **enum_labels; /* ENUM: label per mapping, for display */
	int64_t *enum_begin, *enum_end;
	uint32_t nr_enum;
	char *attrs; /* attributes rendered as text, or NULL */
	/* A function's parameter: its type as the C (or Go) source spells it ("char**"), or NULL */
	char *c_name;
	/* Added by discovery; zero when not applicable. */
	uint8_t byte_order; /* enum side_type_label_byte_order */
	uint16_t len_bits; /* integers, bool: 0 means size * 8 */
	struct st_type *length_type; /* VLA, VLA_VISITOR, GATHER_VLA */
	uint64_t gather_offset; /* GATHER_*: offset in the gathered object */
	uint16_t gather_offset_bits; /* GATHER_BOOL, GATHER_INTEGER */
	uint8_t gather_access; /* enum side_type_gather_access_mode */
	uint32_t gather_size; /* GATHER_STRUCT: bytes */
	/* A function's value (DWARF): why it cannot be read where it is probed, or NULL. */
	char *unreadable;
	uint32_t member_offset; /* DWARF: a struct member's byte offset */
	bool in_place; /* DWARF string: a char array, its bytes where it is */
	/* DWARF: a Go string (its length beside its pointer), or a Go slice (read as its length) */
	bool counted;
	/* A counted string field: 1 + the site spec that holds its length (sdt.spec[]), or 0. */
	uint8_t len_arg1;
	/* A string in kernel memory (a tracepoint's record), not the application's */
	bool kernel;
};

struct st_field {
	char *name;
	struct st_type type;
};

/* One stapsdt note of the event (a probe site). */
struct st_site {
	uint64_t pc; /* virtual address as in the ELF file */
	uint64_t file_offset; /* offset of pc in the file, for uprobe attach */
	uint64_t sema_addr; /* semaphore virtual address, 0 if none */
	uint64_t sema_offset; /* semaphore file offset (ref_ctr_offset) */
	char *args; /* SDT argument string as in the note */
	struct st_sdt_args sdt; /* args parsed: where each argument is */
	/* A SIDE site's in-process fallback probe, from pc (side_probe_fallback_delta()); 0: none.
	 */
	uint32_t fallback_delta;
};

/* A perf event sampled on every CPU. */
struct st_perf_sample {
	uint32_t type; /* PERF_TYPE_SOFTWARE, PERF_TYPE_HARDWARE */
	uint64_t config; /* PERF_COUNT_SW_*, PERF_COUNT_HW_* */
	uint64_t period; /* events between samples; with freq, samples a second */
	bool freq;
};

/* A watchpoint's hardware breakpoint (ST_SOURCE_WATCH). */
struct st_watch {
	uint64_t addr; /* the address watched; the function form: 0, argN's at each call */
	int arg; /* the function form: N of argN, read at its entry; -1: an address */
	uint8_t len; /* bp_len: 1, 2, 4 or 8 bytes */
	uint8_t bp_type; /* HW_BREAKPOINT_R, _W, _X: the accesses it fires on */
};

struct st_event {
	char *path; /* object file holding the event */
	char *provider; /* SIDE provider name (unsanitized), or USDT provider */
	char *name; /* SIDE event name (unsanitized), or USDT name */
	char *usdt_provider; /* provider as in the stapsdt note (sanitized) */
	char *usdt_name; /* name as in the stapsdt note (sanitized) */
	bool has_side; /* false: plain USDT probe with no SIDE description */
	/*
	 * The kind of probe it is an event of. Outside ST_AP_SIDE, field i
	 * is read where the site's sdt.spec[i] says (an SDT operand, or a
	 * location found in DWARF or BTF), never from a SIDE argument vector.
	 */
	enum st_ap_kind kind;
	/* ST_AP_URETPROBE: its sites are the function's RET instructions, plain uprobes (Go) */
	bool at_returns;
	bool variadic;
	uint32_t loglevel;
	uint64_t desc_addr; /* virtual address of struct side_event_description */
	struct st_field *fields;
	uint32_t nr_fields;
	char *attrs; /* event attributes rendered as text, or NULL */
	struct st_site *sites;
	uint32_t nr_sites;
	char *error; /* why the description is partial, or NULL */
	/* ST_AP_UPROBE: a copy inlined into another function, "CALLER" ("CALLER #2": its 2nd) */
	char *inlined;
	/* ST_AP_URETPROBE: which calls it misses (the inlined copies: no return), or NULL */
	char *missed;
	uint64_t kfunc_offset; /* ST_AP_KPROBE: its site's offset into the kernel function */
	bool kfunc_module; /* a kernel function of a module's BTF, not vmlinux's */
	struct st_perf_sample perf; /* a perf kind's (ST_SOURCE_PERF): what it samples */
	struct st_watch watch; /* a watchpoint's (ST_SOURCE_WATCH) */
	/* An iterator's (ST_SOURCE_ITERS): what ctx points to past its meta, as C declares it */
	char *ctx_decl;
};

/* The row of the kind of probe ev is an event of. */
static inline const struct st_probe_kind *st_event_kind(const struct st_event *ev)
{
	return st_probe_kind(ev->kind);
}

struct st_event_list {
	struct st_event *events;
	size_t nr;
	/*
	 * Room st_kernel_event_add() made (it doubles: tens of thousands of
	 * kernel functions, few copies); every other appender sets it to
	 * what it allocated
	 */
	size_t cap;
	/* Why a query's answer holds no event, where the source knows more than "none matches" */
	char *why_none;
};

/*
 * What a query's events hold: what a probe needs, or for a listing, as
 * many events as match with less (kernel functions: no limit on them).
 */
enum st_query_for {
	ST_QUERY_PROBE, /* fields with their type trees */
	ST_QUERY_NAMES, /* -l: names only */
	ST_QUERY_DECLS, /* -lv: fields with their C declarations, no members below */
};

/* What a probe asks of its target: its events of one kind, and for functions which ones. */
struct st_probe_query {
	const char *target; /* a path or a library name, as written */
	enum st_ap_kind kind;
	const char *function; /* function views: a glob, [+OFFSET] */
	const char *provider; /* ST_AP_TRACEPOINT: the category's glob (function: the name's) */
	enum st_query_for query_for;
	/*
	 * Function views: the program reads no args.NAME of them, so a
	 * separate debug file's DWARF, whose compressed sections cost a
	 * whole inflation (libc's: a quarter of a second), is not read;
	 * the object's own DWARF still is.
	 */
	bool args_unused;
	/* Function views: probed at their symbols, where reg() and sargN read (not past a prologue)
	 */
	bool at_entry;
};

/*
 * The type tree of an event (struct st_type) follows these conventions:
 *  - ENUM, ENUM_BITMAP: elem is the underlying type; enum_labels,
 *    enum_begin, enum_end hold the mappings (bitmap ranges are bit indices);
 *  - VARIANT: elem is the selector type; fields are the options, each named
 *    by its selector range ("3" or "1..5");
 *  - GATHER_STRUCT: fields are the members; GATHER_ARRAY and GATHER_VLA use
 *    elem (and length_type) like ARRAY and VLA;
 *  - an unknown label is kept as is, with no children; a node that could
 *    not be read at all has label ST_TYPE_UNREADABLE.
 */
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
 * Appends to out an event that fires in the kernel, not at a site in a
 * file (tracepoints, kernel functions, profiles): no path, provider and
 * name as given, one site for the caller to fill. NULL: out of memory.
 */
struct st_event *st_kernel_event_add(struct st_event_list *out, enum st_ap_kind kind,
				     const char *provider, const char *name);

/* Free what a st_type / st_event owns, not the object itself. */
void st_type_fini(struct st_type *t);
void st_event_fini(struct st_event *ev);

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

#endif /* SIDETRACE_EVENTS_EVENTS_H */
