/* SPDX-License-Identifier: MIT */
/*
 * The functions of the language (count(), printf(), str(), ...): one row
 * each, which says all that the parser, the checker and both engines ask
 * of one. A new function is a row, and a code of the engines' or a rule of
 * the checker's where it needs a new one.
 */
#ifndef SIDETRACE_PARSE_FUNCTIONS_H
#define SIDETRACE_PARSE_FUNCTIONS_H

#include <stdint.h>

#include "parse/builtins.h"

/* Where a call is written. */
enum st_fn_form {
	ST_FORM_AGG, /* an aggregation: @m[keys] = count() */
	ST_FORM_ACTION, /* a statement */
	ST_FORM_VALUE, /* an expression */
};

/* What a function's arguments are: the checker's rule for them (check/checker.c). */
enum st_fn_args {
	ST_FA_NONE, /* none */
	ST_FA_VALUE, /* one integer */
	ST_FA_LHIST, /* an integer, then min, max and step: constants */
	ST_FA_PRINT, /* a map and constants top and div, the event, or one value */
	ST_FA_MAP, /* a whole map */
	ST_FA_ELEM, /* one element of a map */
	ST_FA_FORMAT, /* a literal format, then its values */
	ST_FA_TIME, /* an optional literal format */
	ST_FA_STR, /* a string, then an optional constant length */
	ST_FA_ADDR, /* one integer, an address */
	ST_FA_STRFTIME, /* a literal format, then an integer time */
	ST_FA_SYMBOL, /* a literal kernel symbol's name */
	ST_FA_JOIN, /* an integer, the address of an array, then an optional literal string */
	/* an optional constant address family, then an integer address or a byte array */
	ST_FA_NTOP,
	ST_FA_PTON, /* a literal address */
	ST_FA_PATH, /* a literal path */
	ST_FA_SIGNAL, /* a signal: its number, or a literal name ("SIGKILL") */
	ST_FA_SIZEOF, /* a C type (st_expr.cast) or a value */
	ST_FA_STRNCMP, /* two strings and a constant length */
	ST_FA_BSWAP, /* an integer of 2, 4 or 8 bytes */
	ST_FA_BUF, /* an address and a length, a literal and a constant length, or an array */
	ST_FA_MACADDR, /* an address or an array of 6 bytes */
	ST_FA_UNWATCH, /* an address, an integer */
	ST_FA_REG, /* a literal register's name */
	ST_FA_USYMBOL, /* a literal symbol's name of the probed file */
	ST_FA_CGROUP, /* a cgroup's id */
	ST_FA_STRINGS, /* two strings */
	ST_FA_DPATH, /* a struct path the kernel names: an iterator's file's, ctx->file->f_path */
	ST_FA_REFUSED, /* bpftrace's, which sidetrace refuses with its row's no_bpf */
	ST_NR_FN_ARGS,
};

/*
 * How an engine runs a function: the BPF engine in compile/codegen.c,
 * sidetrace's own clauses in session/runner.c and eval.c.
 */
enum st_fn_code {
	ST_FC_NONE, /* not in this engine: the row's reason says why */
	ST_FC_AGG, /* the map's aggregation of the value */
	ST_FC_PRINT,
	ST_FC_CLEAR,
	ST_FC_ZERO,
	ST_FC_DELETE,
	ST_FC_PRINTF,
	ST_FC_EXIT,
	ST_FC_STR, /* the string, cut to its length */
	/*
	 * The value itself, the last argument: what the kernel keeps says
	 * how to name it (an address, an IP address, an errno)
	 */
	ST_FC_ADDR,
	/*
	 * The value (st_kept_arg_value()) with the id of its call's literal,
	 * the checker's st_expr.uval, in its top byte (parse/builtins.h
	 * st_kept_with_arg()): strftime()'s time, cgroup_path()'s id
	 */
	ST_FC_KEPT_ARG,
	ST_FC_JOIN, /* an array's strings read into a record, printed joined */
	ST_FC_SYSTEM, /* a printf's text run as a shell command, its output printed */
	ST_FC_CAT, /* a printf's text the path of a file, printed */
	ST_FC_SIGNAL, /* a signal sent to the event's process */
	ST_FC_BSWAP, /* the value's bytes reversed: the unary operator of its size (uval) */
	/* Bytes at an address into a buffer (ST_I_READ_BUF), or the checker's constant */
	ST_FC_BUF,
	/* A record of the address, whose watchpoints the collector removes (bpfload/watch.h) */
	ST_FC_UNWATCH,
	/*
	 * A value of the event's registers, read with its SDT arguments
	 * (compile/regs.c): register uval, or the address of a symbol of the
	 * probed file where the process loaded it
	 */
	ST_FC_REG,
	ST_FC_UADDR,
	ST_FC_STRCONTAINS, /* 1 if the first string holds the second (ST_I_STRSTR) */
	/* A format and values into the kernel's trace buffer, bpf_trace_printk() (ST_I_DEBUGF) */
	ST_FC_DEBUGF,
	ST_FC_DPATH, /* the path the iterator's program had the kernel name (ST_STR_REF_DPATH) */
};

struct st_func_row {
	const char *name;
	enum st_fn_form form;
	enum st_agg_kind agg; /* ST_FORM_AGG: what it computes */
	enum st_fn_args args;
	uint8_t min_args, max_args;
	enum st_vtype vtype; /* ST_FORM_VALUE: its value's type */
	enum st_fn_code bpf, host;
	/* Why not in that engine: ST_FC_NONE, or a form of it (print(@m) per event) */
	const char *no_bpf, *no_host;
	uint8_t stacks; /* ST_STACK_*: what the probe takes for it */
	enum st_kept kept;
	bool unsafe; /* acts on the system: only with --unsafe, as in bpftrace */
	/* A pointer's memory it marks: kptr(), uptr() (ST_MEM_PROBE: none) */
	enum st_mem mem;
	/* The type of the -f json record of what it prints, bpftrace's name for it */
	const char *record;
	/*
	 * It reads registers that bpftrace reads at a function's symbol (the
	 * stack pointer): a function of its clause is probed there, not past
	 * its prologue
	 */
	bool at_entry;
};

const struct st_func_row *st_func(enum st_func fn);
/* The function called name, or -1. */
int st_func_find(const char *name);
const char *st_func_name(enum st_func fn);
/* Every function's name, for "valid are ..." messages: "count, sum, ... and usym". */
const char *st_func_names(void);
/* The aggregation an aggregating function computes. */
enum st_agg_kind st_func_agg(enum st_func fn);
/* The function that computes an aggregation ("count"), or "value". */
const char *st_agg_name(enum st_agg_kind agg);
/* What the kernel keeps of e's value. */
enum st_kept st_expr_kept(const struct st_expr *e);
/* The argument an ST_FC_KEPT_ARG call keeps: the one that is not its literal. */
const struct st_expr *st_kept_arg_value(const struct st_expr *call);

#endif /* SIDETRACE_PARSE_FUNCTIONS_H */
