/* SPDX-License-Identifier: MIT */
/*
 * The kinds of attach points, one row each (probe_kinds.c): what a kind is
 * called, how it is written, where its clauses run and what args.* reads
 * there. A new kind of probe is a row here and its load source, not a
 * branch in every pass (docs/ARCHITECTURE.md, "Probe kinds").
 */
#ifndef SIDETRACE_KINDS_PROBE_KINDS_H
#define SIDETRACE_KINDS_PROBE_KINDS_H

#include <stdbool.h>

#include "events/events.h"

/* The kinds, as the parser reads them (ast.h) and every pass asks the table about them. */
enum st_ap_kind {
	ST_AP_SIDE, /* side:TARGET:PROVIDER:EVENT */
	ST_AP_USDT, /* usdt:TARGET:[PROVIDER:]NAME */
	ST_AP_UPROBE, /* uprobe:TARGET:FUNCTION[+OFFSET] */
	ST_AP_URETPROBE, /* uretprobe:TARGET:FUNCTION */
	ST_AP_TRACEPOINT, /* tracepoint:CATEGORY:NAME */
	ST_AP_KPROBE, /* kprobe:FUNCTION[+OFFSET] */
	ST_AP_KRETPROBE, /* kretprobe:FUNCTION */
	ST_AP_PROFILE, /* profile:hz:N */
	ST_AP_FENTRY, /* fentry:FUNCTION (or kfunc:) */
	ST_AP_FEXIT, /* fexit:FUNCTION (or kretfunc:) */
	ST_AP_BEGIN,
	ST_AP_END,
	ST_AP_INTERVAL, /* interval:s:N or interval:ms:N */
};

/* profile:hz:N at most: the kernel refuses rates past its perf_event_max_sample_rate anyway. */
#define ST_MAX_PROFILE_HZ 100000

/* What args.* of a kind's probe reads. */
enum st_args_from {
	ST_ARGS_NONE, /* no args: BEGIN, END, interval */
	ST_ARGS_SIDE, /* the SIDE description's fields */
	ST_ARGS_SDT, /* the SDT operands of the probe's note: arg0..argN */
	ST_ARGS_DWARF, /* a function's parameters (DWARF), arg0..arg5, retval */
	ST_ARGS_RECORD, /* a kernel tracepoint's record fields, by name (tracefs) */
	ST_ARGS_BTF, /* a kernel function's parameters (BTF), arg0..arg5, retval */
};

struct st_probe_kind {
	enum st_ap_kind kind;
	const char *name; /* as written before the first ':' */
	const char *syntax; /* for messages */
	/* Matched to events (of targets, or the kernel's) and attached where they fire. */
	bool on_sites;
	/* Written with a TARGET (a file) before its event: kind:TARGET:... */
	bool has_target;
	enum st_args_from args;
	enum st_event_view view; /* which view of a target's probes it matches (on_sites) */
	const char *alias; /* bpftrace's other name for the kind, or NULL */
};

/* The row of kind. */
const struct st_probe_kind *st_probe_kind(enum st_ap_kind kind);

/* The row named name (len bytes), or by its alias; NULL when none is. */
const struct st_probe_kind *st_probe_kind_named(const char *name, size_t len);

/*
 * Whether a query's answer is filtered by provider and name globs
 * (st_event_match()); a function query's answer holds only the functions
 * that match.
 */
bool st_probe_kind_by_name(const struct st_probe_kind *k);

/*
 * For a kind bpftrace has and sidetrace does not yet (name, len bytes):
 * what works instead; NULL for any other name.
 */
const char *st_probe_kind_missing(const char *name, size_t len);

/* The table's row i, NULL past the last: every kind, in the table's order. */
const struct st_probe_kind *st_probe_kind_nth(size_t i);

/* Every kind's syntax, for "expected ..." messages. */
const char *st_probe_kinds_syntax(void);

#endif /* SIDETRACE_KINDS_PROBE_KINDS_H */
