/* SPDX-License-Identifier: MIT */
/*
 * The builtins of the language (pid, comm, ustack, ...): one row each, which
 * says all that the parser, the checker and both engines ask of one. A new
 * builtin is a row, and a code of the engines' where it needs a new one.
 */
#ifndef SIDETRACE_PARSE_BUILTINS_H
#define SIDETRACE_PARSE_BUILTINS_H

#include <stdbool.h>
#include <stdint.h>

#include "parse/ast.h"

/* Where a builtin has a value (st_builtin_row.avail). */
#define ST_AVAIL_EVENT 0x1 /* in a probe's event: the kernel, a process's engine */
#define ST_AVAIL_SESSION 0x2 /* in BEGIN, END and interval: sidetrace itself */
/* Only in events of a function kind (st_probe_kind_function()). */
#define ST_AVAIL_FUNCTION 0x4
/* Only in a program run with -c CMD (st_program.has_command). */
#define ST_AVAIL_COMMAND 0x8

/*
 * How an engine computes a builtin: the BPF engine in compile/codegen.c,
 * sidetrace's own clauses in session/eval.c.
 */
enum st_bi_code {
	ST_BC_NONE, /* not in this engine: the row's why_not says why */
	ST_BC_HELPER, /* the machine's builtin row.helper (ST_I_BUILTIN), or its host call */
	ST_BC_COMM, /* the task's name */
	ST_BC_PROBE, /* the probe's name */
	ST_BC_LOGLEVEL, /* the event's level, known when it is compiled */
	ST_BC_ELAPSED, /* nsecs less the session's start */
	ST_BC_FUNC, /* the probed function's name, an offset cut off */
	ST_BC_CPID, /* the -c command's pid, known when the program is compiled */
	ST_BC_TASK, /* the collector's own task_struct, asked of the kernel (bpf/user.bpf.h) */
};

/*
 * What the kernel keeps of a value that the collector prints as text (a map
 * key that is always that value, a printf argument): the probe's index for
 * its name, a stack for its frames, an address for its function, a time for
 * its date. ST_KEPT_PID: a process id, which a process's engine writes only
 * as its own.
 */
enum st_kept {
	ST_KEPT_VALUE, /* the value itself */
	ST_KEPT_PROBE,
	ST_KEPT_USTACK,
	ST_KEPT_KSTACK,
	ST_KEPT_KSYM,
	ST_KEPT_USYM,
	ST_KEPT_PID,
	/* Integers printed as text (st_kept_is_text): */
	ST_KEPT_TIME, /* strftime(): a time in nanoseconds, printed with its call's format */
	ST_KEPT_INET, /* ntop(): an IPv4 address, its low 32 bits */
	ST_KEPT_USER, /* username: a uid, printed as its user's name */
	ST_KEPT_ERRNO, /* strerror(): an errno, printed as its text */
	ST_KEPT_POINTER, /* a C pointer as a map key: printed in hex, as bpftrace prints it */
	ST_KEPT_CGROUP, /* cgroup_path(): a cgroup's id, printed as its paths */
	ST_NR_KEPT,
};

/*
 * Whether a value kept as k is an integer that the collector prints as
 * text (output/kept_text.h): with printf's %s only, and as such in keys.
 */
static inline bool st_kept_is_text(enum st_kept k)
{
	return k == ST_KEPT_INET || k == ST_KEPT_USER || k == ST_KEPT_ERRNO ||
	       k == ST_KEPT_CGROUP || k == ST_KEPT_TIME;
}

/*
 * A value kept with a literal argument of its call that printing needs
 * (strftime()'s format, cgroup_path()'s filter), as bpftrace keeps the
 * call's id beside the value: the argument's id (util/interned.h) in the
 * top byte, the value in the 56 bits below (a time since boot: 2.2 years).
 */
#define ST_KEPT_ARG_SHIFT 56
#define ST_KEPT_VALUE_MASK ((1ULL << ST_KEPT_ARG_SHIFT) - 1)

static inline uint64_t st_kept_with_arg(uint64_t v, unsigned int arg)
{
	return (v & ST_KEPT_VALUE_MASK) | (uint64_t)arg << ST_KEPT_ARG_SHIFT;
}

/* The argument's id a value was kept with (0: none), and the value itself. */
static inline unsigned int st_kept_arg(uint64_t v)
{
	return (unsigned int)(v >> ST_KEPT_ARG_SHIFT);
}

static inline uint64_t st_kept_bare(uint64_t v)
{
	return v & ST_KEPT_VALUE_MASK;
}

/* Whether a value kept as k is a stack or an address that %s prints by its symbols. */
static inline bool st_kept_is_named(enum st_kept k)
{
	return k == ST_KEPT_USTACK || k == ST_KEPT_KSTACK || k == ST_KEPT_KSYM || k == ST_KEPT_USYM;
}

/*
 * Whether a variable or a map that holds a value kept as k holds it so:
 * an integer printed the same wherever it is read (strerror(), ksym(),
 * ...), which printf's %s and print() show as text from there too.
 */
static inline bool st_kept_carried(enum st_kept k)
{
	return st_kept_is_text(k) || k == ST_KEPT_KSYM || k == ST_KEPT_USYM;
}

struct st_builtin_row {
	const char *name;
	enum st_vtype vtype; /* ST_VT_UINT (64 bits) or ST_VT_STR */
	unsigned int avail; /* ST_AVAIL_* */
	/* Where it has no value, the checker's message: its %s names the probe. */
	const char *why_not;
	enum st_bi_code bpf, host;
	uint8_t helper; /* ST_BC_HELPER: ST_BI_* */
	uint8_t stacks; /* ST_STACK_*: what the probe takes for it */
	bool frames; /* may be written NAME(N): its innermost N frames printed */
	enum st_kept kept;
	/* A pointer into the kernel's memory: the C type it points to ("struct task_struct"), or
	 * NULL */
	const char *ctype;
	/* ctype is the probe kind's where its row names one (st_probe_kind.ctx_ctype) */
	bool kind_ctype;
};

const struct st_builtin_row *st_builtin(enum st_builtin b);
/* The builtin called name, or -1. */
int st_builtin_find(const char *name);
const char *st_builtin_name(enum st_builtin b);
/* Every builtin's name, for messages: "pid, tid, ..., rand". */
const char *st_builtin_names(void);

#endif /* SIDETRACE_PARSE_BUILTINS_H */
