// SPDX-License-Identifier: MIT
/* The functions' table: see functions.h. */
#include <stdio.h>
#include <string.h>

#include "parse/format.h"
#include "parse/functions.h"

/* Aggregations count events: sidetrace's own clauses have none, and skip them. */
#define AGG(k, a, lo, hi) \
	.form = ST_FORM_AGG, .agg = (k), .args = (a), .min_args = (lo), .max_args = (hi), \
	.bpf = ST_FC_AGG, .no_host = NO_AGG
#define NO_AGG "an aggregation is of probes' events: BEGIN, END and interval have none"
/* Runs where it is written: in the kernel, a process's engine, or sidetrace. */
#define BOTH(c) .bpf = (c), .host = (c)
/* time() is a printf of strftime() once checked. */
#define REWRITTEN "the checker makes it printf(\"%s\", strftime(\"fmt\", nsecs))"
/* kaddr() is a constant by the time either engine sees it. */
#define A_CONSTANT "the checker makes it the address, a constant"
/* pton() is a constant by the time either engine sees it. */
#define A_BUFFER "the checker makes it the address's bytes, a constant"
/* The checker makes cgroupid("path") the id of the path's cgroup. */
#define A_CGROUP_ID "the checker makes it the cgroup's id, a constant"
/* sizeof() is a constant by the time either engine sees it. */
#define A_SIZE "the checker makes it the size, a constant"
/* strncmp() is a comparison of two cut strings by the time either engine sees it. */
#define A_COMPARISON "the checker makes it str(a, n) != str(b, n)"
/* Registers are a probe's event's. */
#define NO_REGS "reads the registers of a probe's event: BEGIN, END and interval have none"
/* The kernel or the event's process has the address, not sidetrace. */
#define AN_EVENTS "an address of a probe's event: BEGIN, END and interval have none"

static const struct st_func_row funcs[ST_NR_FUNCS] = {
	[ST_FN_COUNT] = {"count", AGG(ST_K_COUNT, ST_FA_NONE, 0, 0)},
	[ST_FN_SUM] = {"sum", AGG(ST_K_SUM, ST_FA_VALUE, 1, 1)},
	[ST_FN_AVG] = {"avg", AGG(ST_K_AVG, ST_FA_VALUE, 1, 1)},
	[ST_FN_MIN] = {"min", AGG(ST_K_MIN, ST_FA_VALUE, 1, 1)},
	[ST_FN_MAX] = {"max", AGG(ST_K_MAX, ST_FA_VALUE, 1, 1)},
	[ST_FN_STATS] = {"stats", AGG(ST_K_STATS, ST_FA_VALUE, 1, 1)},
	[ST_FN_HIST] = {"hist", AGG(ST_K_HIST, ST_FA_VALUE, 1, 1)},
	[ST_FN_LHIST] = {"lhist", AGG(ST_K_LHIST, ST_FA_LHIST, 4, 4)},
	[ST_FN_PRINT] = {"print", ST_FORM_ACTION, .args = ST_FA_PRINT, 1, 3, BOTH(ST_FC_PRINT),
			 .record = "value"},
	[ST_FN_CLEAR] = {"clear", ST_FORM_ACTION, .args = ST_FA_MAP, 1, 1, BOTH(ST_FC_CLEAR)},
	[ST_FN_ZERO] = {"zero", ST_FORM_ACTION, .args = ST_FA_MAP, 1, 1, BOTH(ST_FC_ZERO)},
	[ST_FN_EXIT] = {"exit", ST_FORM_ACTION, .args = ST_FA_NONE, 0, 0, BOTH(ST_FC_EXIT)},
	[ST_FN_PRINTF] = {"printf", ST_FORM_ACTION, .args = ST_FA_FORMAT, 1, 1 + ST_MAX_PRINTF_ARGS,
			  BOTH(ST_FC_PRINTF), .record = "printf"},
	[ST_FN_DELETE] = {"delete", ST_FORM_ACTION, .args = ST_FA_ELEM, 1, 1, BOTH(ST_FC_DELETE)},
	[ST_FN_STR] = {"str", ST_FORM_VALUE, .args = ST_FA_STR, 1, 2, ST_VT_STR, BOTH(ST_FC_STR)},
	[ST_FN_TIME] = {"time", ST_FORM_ACTION, .args = ST_FA_TIME, 0, 1, .no_bpf = REWRITTEN,
			.no_host = REWRITTEN, .record = "time"},
	/* A CLOCK_MONOTONIC time (nsecs) kept with its format, printed as wall-clock text. */
	[ST_FN_STRFTIME] = {"strftime", ST_FORM_VALUE, .args = ST_FA_STRFTIME, 2, 2, ST_VT_UINT,
			    BOTH(ST_FC_KEPT_ARG), .kept = ST_KEPT_TIME},
	/* A map key of it prints its function's name. */
	[ST_FN_KSYM] = {"ksym", ST_FORM_VALUE, .args = ST_FA_ADDR, 1, 1, ST_VT_UINT,
			BOTH(ST_FC_ADDR), .kept = ST_KEPT_KSYM},
	/* Named from the process's mappings, read while it lives. */
	[ST_FN_USYM] = {"usym", ST_FORM_VALUE, .args = ST_FA_ADDR, 1, 1, ST_VT_UINT,
			BOTH(ST_FC_ADDR), .stacks = ST_STACK_MAPS, .kept = ST_KEPT_USYM},
	/* A kernel symbol's address, from /proc/kallsyms when the program is checked. */
	[ST_FN_KADDR] = {"kaddr", ST_FORM_VALUE, .args = ST_FA_SYMBOL, 1, 1, ST_VT_UINT,
			 .no_bpf = A_CONSTANT, .no_host = A_CONSTANT},
	/* The strings of an array of pointers in the event's process (argv), printed joined. */
	[ST_FN_JOIN] = {"join", ST_FORM_ACTION, .args = ST_FA_JOIN, 1, 2, .bpf = ST_FC_JOIN,
			.record = "join",
			.no_host = "reads an array in a probe's event's process: BEGIN, END and "
				   "interval have none"},
	/*
	 * An IPv4 address as an integer, printed as text by the collector; of
	 * a byte array, its bytes as an ST_BUF_INET buffer (the checker makes
	 * the call a buf(), ST_EXPR_CALL of ST_FN_BUF, or its constant).
	 */
	[ST_FN_NTOP] = {"ntop", ST_FORM_VALUE, .args = ST_FA_NTOP, 1, 2, ST_VT_UINT,
			BOTH(ST_FC_ADDR), .kept = ST_KEPT_INET},
	/* A uint8[4] or uint8[16] array, an ST_BUF_ARRAY buffer: the checker's constant. */
	[ST_FN_PTON] = {"pton", ST_FORM_VALUE, .args = ST_FA_PTON, 1, 1, ST_VT_BUF,
			.no_bpf = A_BUFFER, .no_host = A_BUFFER},
	/* An errno, printed as its text by the collector. */
	[ST_FN_STRERROR] = {"strerror", ST_FORM_VALUE, .args = ST_FA_VALUE, 1, 1, ST_VT_UINT,
			    BOTH(ST_FC_ADDR), .kept = ST_KEPT_ERRNO},
	/* Address spaces: a pointer is an integer, and a field's kind says where it points. */
	[ST_FN_KPTR] = {"kptr", ST_FORM_VALUE, .args = ST_FA_VALUE, 1, 1, ST_VT_UINT,
			BOTH(ST_FC_ADDR), .mem = ST_MEM_KERNEL},
	[ST_FN_UPTR] = {"uptr", ST_FORM_VALUE, .args = ST_FA_VALUE, 1, 1, ST_VT_UINT,
			BOTH(ST_FC_ADDR), .mem = ST_MEM_USER},
	[ST_FN_CGROUPID] = {"cgroupid", ST_FORM_VALUE, .args = ST_FA_PATH, 1, 1, ST_VT_UINT,
			    .no_bpf = A_CGROUP_ID, .no_host = A_CGROUP_ID},
	/* A printf whose text the collector runs with sh -c, printing what it prints. */
	[ST_FN_SYSTEM] = {"system", ST_FORM_ACTION, .args = ST_FA_FORMAT, 1, 1 + ST_MAX_PRINTF_ARGS,
			  BOTH(ST_FC_SYSTEM), .unsafe = true, .record = "syscall"},
	/* A printf whose text names a file the collector prints. */
	[ST_FN_CAT] = {"cat", ST_FORM_ACTION, .args = ST_FA_FORMAT, 1, 1 + ST_MAX_PRINTF_ARGS,
		       BOTH(ST_FC_CAT), .record = "cat"},
	/* bpf_send_signal(): to the process of the event, from the kernel. */
	[ST_FN_SIGNAL] = {"signal", ST_FORM_ACTION, .args = ST_FA_SIGNAL, 1, 1, .bpf = ST_FC_SIGNAL,
			  .no_host = "sends a signal to a probe's event's process: BEGIN, END and "
				     "interval have none",
			  .unsafe = true},
	/* The bytes of a C type or of a value's type, a constant. */
	[ST_FN_SIZEOF] = {"sizeof", ST_FORM_VALUE, .args = ST_FA_SIZEOF, 1, 1, ST_VT_UINT,
			  .no_bpf = A_SIZE, .no_host = A_SIZE},
	/* 0 when the first n bytes of two strings are equal, else 1. */
	[ST_FN_STRNCMP] = {"strncmp", ST_FORM_VALUE, .args = ST_FA_STRNCMP, 3, 3, ST_VT_UINT,
			   .no_bpf = A_COMPARISON, .no_host = A_COMPARISON},
	[ST_FN_BSWAP] = {"bswap", ST_FORM_VALUE, .args = ST_FA_BSWAP, 1, 1, ST_VT_UINT,
			 BOTH(ST_FC_BSWAP)},
	/*
	 * Bytes at an address, printed with %r; of a literal, a constant. The
	 * kind of buffer (its header) is the call's uval: ntop() and macaddr()
	 * of arrays are buf() calls of their kind once checked.
	 */
	[ST_FN_BUF] = {"buf", ST_FORM_VALUE, .args = ST_FA_BUF, 1, 2, ST_VT_BUF, .bpf = ST_FC_BUF,
		       .no_host = AN_EVENTS},
	/* 6 bytes at an address, AA:BB:CC:DD:EE:FF: a buf() of kind ST_BUF_MAC once checked. */
	[ST_FN_MACADDR] = {"macaddr", ST_FORM_VALUE, .args = ST_FA_MACADDR, 1, 1, ST_VT_BUF,
			   .bpf = ST_FC_BUF, .no_host = AN_EVENTS},
	/*
	 * The watchpoints at an address removed, as bpftrace's: from a probe
	 * once the collector reads its record, in sidetrace's clauses at once.
	 */
	[ST_FN_UNWATCH] = {"unwatch", ST_FORM_ACTION, .args = ST_FA_UNWATCH, 1, 1,
			   BOTH(ST_FC_UNWATCH)},
	/* A register of the event (bpftrace's names: "sp", "ip", "r8"); sargN reads at sp. */
	[ST_FN_REG] = {"reg", ST_FORM_VALUE, .args = ST_FA_REG, 1, 1, ST_VT_UINT, .bpf = ST_FC_REG,
		       .no_host = NO_REGS, .at_entry = true},
	/* A symbol's address in the probed file, where the event's process loaded it. */
	[ST_FN_UADDR] = {"uaddr", ST_FORM_VALUE, .args = ST_FA_USYMBOL, 1, 1, ST_VT_UINT,
			 .bpf = ST_FC_UADDR, .no_host = NO_REGS},
	/* A cgroup's id, printed by the collector as its path in each hierarchy that has it. */
	[ST_FN_CGROUP_PATH] = {"cgroup_path", ST_FORM_VALUE, .args = ST_FA_CGROUP, 1, 2, ST_VT_UINT,
			       BOTH(ST_FC_KEPT_ARG), .kept = ST_KEPT_CGROUP},
	[ST_FN_STRCONTAINS] = {"strcontains", ST_FORM_VALUE, .args = ST_FA_STRINGS, 2, 2,
			       ST_VT_UINT, BOTH(ST_FC_STRCONTAINS)},
	/* bpf_trace_printk(): a line of the kernel's trace buffer, not of sidetrace's output. */
	[ST_FN_DEBUGF] = {"debugf", ST_FORM_ACTION, .args = ST_FA_FORMAT, 1, 1 + ST_DEBUGF_ARGS,
			  BOTH(ST_FC_DEBUGF)},
	/* bpftrace's, refused with why: the error names them, not "unknown function". */
	[ST_FN_OVERRIDE] = {"override", ST_FORM_ACTION, .args = ST_FA_REFUSED, 0, 1,
			    .no_bpf = "sets a kprobe'd function's return value (the kernel's "
				      "bpf_override_return()), which sidetrace's programs do not "
				      "call: it is not in sidetrace's language"},
	[ST_FN_SKBOUTPUT] = {"skboutput", ST_FORM_ACTION, .args = ST_FA_REFUSED, 0, 4,
			     .no_bpf = "writes packets to a pcap file from an fentry program "
				       "(the kernel's bpf_skb_output()), which sidetrace's "
				       "programs do not call: it is not in sidetrace's language"},
	/* In an iterator's program, which the kernel lets name a path (bpf/kernel.bpf.h). */
	[ST_FN_PATH] = {"path", ST_FORM_VALUE, .args = ST_FA_DPATH, 1, 1, ST_VT_STR,
			.bpf = ST_FC_DPATH,
			.no_host = "names a path in the kernel: an iter: probe's only"},
};

const struct st_func_row *st_func(enum st_func fn)
{
	return &funcs[fn];
}

int st_func_find(const char *name)
{
	int fn;

	for (fn = 0; fn < ST_NR_FUNCS; fn++)
		if (!strcmp(name, funcs[fn].name))
			return fn;
	return -1;
}

const char *st_func_name(enum st_func fn)
{
	return funcs[fn].name;
}

const char *st_func_names(void)
{
	static char names[512];
	size_t off = 0;
	int fn, last;

	if (names[0])
		return names;
	/* Those sidetrace refuses are not valid: the last one valid is after " and ". */
	for (last = ST_NR_FUNCS - 1; last > 0 && funcs[last].args == ST_FA_REFUSED; last--)
		;
	for (fn = 0; fn <= last; fn++)
		if (funcs[fn].args != ST_FA_REFUSED)
			off += snprintf(names + off, sizeof(names) - off, "%s%s",
					!fn	     ? ""
					: fn == last ? " and "
						     : ", ",
					funcs[fn].name);
	return names;
}

enum st_agg_kind st_func_agg(enum st_func fn)
{
	return funcs[fn].agg;
}

const char *st_agg_name(enum st_agg_kind agg)
{
	int fn;

	if (agg == ST_K_VALUE)
		return "value";
	for (fn = 0; fn < ST_NR_FUNCS; fn++)
		if (funcs[fn].form == ST_FORM_AGG && funcs[fn].agg == agg)
			return funcs[fn].name;
	return "?";
}

enum st_kept st_expr_kept(const struct st_expr *e)
{
	if (e->kind == ST_EXPR_BUILTIN)
		return st_builtin(e->builtin)->kept;
	if (e->kind == ST_EXPR_CALL)
		return funcs[e->func].kept;
	if (e->kind == ST_EXPR_VAR || e->kind == ST_EXPR_MAP)
		return e->kept;
	return ST_KEPT_VALUE;
}

const struct st_expr *st_kept_arg_value(const struct st_expr *call)
{
	/* strftime("fmt", ns), cgroup_path(id, "filter"): the literal is the format or filter. */
	return call->kids[0]->kind == ST_EXPR_STR && call->nr_kids > 1 ? call->kids[1]
								       : call->kids[0];
}
