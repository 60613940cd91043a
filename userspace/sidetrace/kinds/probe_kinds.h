/* SPDX-License-Identifier: MIT */
/*
 * The kinds of attach points, one row each (probe_kinds.c): how a kind is
 * written, where its events come from, what args.* reads there, where its
 * clauses run, which program serves it and how that attaches. Every pass
 * asks the row; none compares kind values. A new kind of probe is a row
 * here, its event source and, if it attaches in a new way, an attach
 * function (docs/ARCHITECTURE.md, "Probe kinds").
 */
#ifndef SIDETRACE_KINDS_PROBE_KINDS_H
#define SIDETRACE_KINDS_PROBE_KINDS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct st_perf_event;

/* The kinds: an attach point's (parse/ast.h) and an event's (events/events.h). */
enum st_ap_kind {
	ST_AP_SIDE, /* side:TARGET:PROVIDER:EVENT */
	ST_AP_USDT, /* usdt:TARGET:[PROVIDER:]NAME */
	ST_AP_UPROBE, /* uprobe:TARGET:FUNCTION[+OFFSET] */
	ST_AP_URETPROBE, /* uretprobe:TARGET:FUNCTION */
	ST_AP_TRACEPOINT, /* tracepoint:CATEGORY:NAME */
	ST_AP_KPROBE, /* kprobe:FUNCTION[+OFFSET] */
	ST_AP_KRETPROBE, /* kretprobe:FUNCTION */
	ST_AP_PROFILE, /* profile:UNIT:N */
	ST_AP_FENTRY, /* fentry:FUNCTION (or kfunc:) */
	ST_AP_FEXIT, /* fexit:FUNCTION (or kretfunc:) */
	ST_AP_BEGIN,
	ST_AP_END,
	ST_AP_INTERVAL, /* interval:UNIT:N */
	ST_AP_SOFTWARE, /* software:EVENT[:COUNT] */
	ST_AP_HARDWARE, /* hardware:EVENT[:COUNT] */
	ST_AP_WATCHPOINT, /* watchpoint:ADDR:LEN:MODE, watchpoint:FUNCTION+argN:LEN:MODE */
	ST_AP_ASYNCWATCHPOINT, /* asyncwatchpoint:FUNCTION+argN:LEN:MODE */
	ST_AP_ITER, /* iter:TARGET */
};

/* How a kind's probe is written after "kind:". */
enum st_ap_form {
	ST_FORM_BARE, /* nothing: BEGIN, END */
	ST_FORM_PERIOD, /* UNIT:N (kinds/perf_events.h) */
	ST_FORM_FUNCTION, /* [TARGET:]FUNCTION[+OFFSET], a glob; [MODULE:]FUNCTION where the row
			     says */
	ST_FORM_EVENT, /* [TARGET:]PROVIDER:EVENT, globs */
	ST_FORM_PERF, /* EVENT[:COUNT], an event of the row's perf_events */
	ST_FORM_WATCH, /* ADDR:LEN:MODE or FUNCTION+argN:LEN:MODE (kinds/watch_spec.h) */
	ST_FORM_ITER, /* TARGET, one of the kernel's iterators, a glob for -l */
};

/* When a kind's clauses run. */
enum st_ap_runs {
	ST_RUNS_AT_EVENTS, /* where its events fire: attached to them */
	ST_RUNS_AT_BEGIN, /* once, in sidetrace, before the events */
	ST_RUNS_AT_END, /* once, in sidetrace, after them */
	ST_RUNS_EVERY, /* in sidetrace, once a period */
};

/* What args.* of a kind's probe reads. */
enum st_args_from {
	ST_ARGS_NONE, /* no args: BEGIN, END, interval, profile */
	ST_ARGS_SIDE, /* the SIDE description's fields */
	ST_ARGS_SDT, /* the SDT operands of the probe's note: arg0..argN */
	ST_ARGS_DWARF, /* a function's parameters (DWARF), arg0..arg5, retval */
	ST_ARGS_RECORD, /* a kernel tracepoint's record fields, by name (tracefs) */
	ST_ARGS_BTF, /* a kernel function's parameters (BTF), arg0..arg5, retval */
};

/* Where a kind's events come from (targets/targets.c asks the source). */
enum st_kind_source {
	ST_SOURCE_NONE, /* no events: run by sidetrace */
	ST_SOURCE_SIDE, /* a target's SIDE descriptions and SDT notes (side/) */
	ST_SOURCE_SDT, /* a target's SDT notes, SIDE or not (side/usdt_view.h) */
	ST_SOURCE_FUNCTIONS, /* a target's functions and their DWARF (dwarf/) */
	ST_SOURCE_TRACEPOINTS, /* the kernel's tracepoints (kernel/tracepoints.h) */
	ST_SOURCE_KFUNCS, /* the kernel's functions and their BTF (kernel/kfuncs.h) */
	ST_SOURCE_PERF, /* a perf event sampled on every CPU (kernel/perf_sample.h) */
	/* a hardware breakpoint at an address, or at a function's argument (kernel/watchpoints.h)
	 */
	ST_SOURCE_WATCH,
	ST_SOURCE_ITERS, /* the kernel's iterators (kernel/iters.h) */
};

/*
 * The BPF programs that serve a kind, which also says how they attach
 * (bpfload/attach.c): a family's programs share a context and an attach
 * function.
 */
enum st_prog_family {
	ST_FAMILY_NONE, /* run by sidetrace: no program */
	ST_FAMILY_UPROBE, /* uprobes at a file's sites, uretprobes */
	ST_FAMILY_TRACEPOINT, /* a kernel tracepoint's record */
	ST_FAMILY_KPROBE, /* kprobes, kretprobes */
	ST_FAMILY_PERF_EVENT, /* a perf event on every CPU */
	ST_FAMILY_FENTRY, /* a BPF trampoline at a kernel function's entry */
	ST_FAMILY_FEXIT, /* a BPF trampoline at its return */
	/*
	 * A hardware breakpoint's perf event, the profile program's context;
	 * at a function's argument, set when a uprobe at the function reports
	 * the address (bpfload/watch.c)
	 */
	ST_FAMILY_WATCHPOINT,
	/* An iterator's program, run by the collector's read() of it (bpfload/iters.h) */
	ST_FAMILY_ITER,
};

/* Whether family f's programs run at a file's sites: uprobes, and a watchpoint's, which a uprobe
 * sets. */
static inline bool st_family_at_files(enum st_prog_family f)
{
	return f == ST_FAMILY_UPROBE || f == ST_FAMILY_WATCHPOINT;
}

/*
 * Which kinds a '*' in a probe's kind expands over (t*point:sched:sched_switch,
 * *:/bin/bash:readline), as bpftrace's: the kernel's kinds, or where the
 * probe's second part is a path, or -p names a process, the user-space
 * ones; return probes and the kinds sidetrace runs itself are in neither.
 */
enum st_kind_glob {
	ST_GLOB_NONE,
	ST_GLOB_KERNEL,
	ST_GLOB_USER,
};

/*
 * Where path() finds the struct path, or the struct file, whose path it
 * has the kernel name (bpf_d_path(), which the kernel allows in the
 * kind's programs or some of them).
 */
enum st_dpath_in {
	ST_DPATH_IN_NONE,
	ST_DPATH_IN_CTX, /* a member of what ctx points to: an iterator's file */
	ST_DPATH_IN_ARGS, /* an argument: a trampoline's function's */
};

#define ST_MAX_KIND_ALIASES 2

struct st_probe_kind {
	enum st_ap_kind kind;
	const char *name; /* as written before the first ':' */
	const char *aliases[ST_MAX_KIND_ALIASES]; /* bpftrace's other names for the kind */
	const char *syntax; /* for messages */
	const char *noun; /* one of its events, in messages: "SIDE event" */
	enum st_ap_form form;
	/* ST_FORM_EVENT: what the two words are, in messages: "a provider" */
	const char *provider_word, *event_word;
	/* ST_FORM_EVENT: PROVIDER may be left out (kind:TARGET:EVENT): any provider's */
	bool provider_optional;
	/*
	 * ST_FORM_EVENT: PROVIDER may be left out before an EVENT with a '*'
	 * (tracepoint:*sched_switch*), as bpftrace's: any provider's
	 */
	bool provider_optional_glob;
	/* Written with a TARGET (a file) before its event: kind:TARGET:... */
	bool has_target;
	enum st_ap_runs runs;
	enum st_kind_source source;
	enum st_args_from args;
	bool in_kernel; /* fires in the kernel, not at a site in a file: no path */
	bool params; /* its fields are a function's parameters */
	bool raw_args; /* arg0..arg5, the ABI's registers, beside the named parameters */
	bool retval; /* fires at a function's return, its value in retval */
	const char *no_offset; /* ST_FORM_FUNCTION: why it takes no +OFFSET; NULL: it takes one */
	/*
	 * ST_FORM_FUNCTION in the kernel: written kind:[MODULE:]FUNCTION too,
	 * the function of that module's BTF (vmlinux: the kernel's), as
	 * bpftrace's kfunc:
	 */
	bool module_optional;
	enum st_prog_family family;
	bool in_process; /* its clauses can run in the traced process instead */
	const struct st_perf_event *perf_events; /* ST_FORM_PERF: the events it names */
	/*
	 * ST_FORM_WATCH: a function's watchpoint is set while the process
	 * runs on (asyncwatchpoint:), not stopped until it is; such a kind
	 * takes only the function form
	 */
	bool watch_async;
	/*
	 * Functions it refuses, NULL-terminated, as bpftrace does: a return
	 * probe of a spin lock's function may lock up the system (its
	 * trampoline takes a lock of its own).
	 */
	const char *const *banned;
	enum st_kind_glob glob;
	/*
	 * The C type ctx points to, a format of the event's name
	 * ("struct bpf_iter__%s"); NULL: the ctx builtin's row says
	 */
	const char *ctx_ctype;
	enum st_dpath_in dpath_in;
	/*
	 * The kind's word in a probe's full name, where bpftrace 0.17 prints
	 * another than name (-l, the probe builtin: kfunc:vfs_read); NULL: name
	 */
	const char *probe_word;
};

/* The kind's word in a probe's full name (-l, the probe builtin). */
static inline const char *st_kind_probe_word(const struct st_probe_kind *k)
{
	return k->probe_word ? k->probe_word : k->name;
}

/* Whether kind refuses to probe function name (its row's banned). */
bool st_kind_bans(enum st_ap_kind kind, const char *name);

/* Whether word (NULL: none) is name's len bytes. */
static inline bool st_kind_word_is(const char *word, const char *name, size_t len)
{
	return word && strlen(word) == len && !strncmp(word, name, len);
}

/* The row of kind. */
const struct st_probe_kind *st_probe_kind(enum st_ap_kind kind);

/* The row named name (len bytes), or by an alias; NULL when none is. */
const struct st_probe_kind *st_probe_kind_named(const char *name, size_t len);

/*
 * The rows of set whose name or an alias matches the glob (a kind written
 * with a '*'), in the table's order, from row *i on: NULL past the last.
 */
const struct st_probe_kind *st_probe_kind_glob_next(const char *glob, enum st_kind_glob set,
						    size_t *i);

/* The set a kind's glob expands over, rest being what follows its ':'. */
enum st_kind_glob st_kind_glob_set(const char *rest);

/* A function kind: its fields are parameters, or the return value. */
static inline bool st_probe_kind_function(const struct st_probe_kind *k)
{
	return k->form == ST_FORM_FUNCTION;
}

/*
 * Whether a query's answer is filtered by provider and name globs
 * (st_event_match()); a function query's answer holds only the functions
 * that match, a watchpoint's only its own.
 */
static inline bool st_probe_kind_by_name(const struct st_probe_kind *k)
{
	return !st_probe_kind_function(k) && k->form != ST_FORM_WATCH;
}

/* Fields are read from the sites' locations (sdt.spec), not from a SIDE argument vector. */
static inline bool st_probe_kind_located(const struct st_probe_kind *k)
{
	return k->args != ST_ARGS_SIDE;
}

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
