// SPDX-License-Identifier: MIT
/* The table of attach-point kinds (probe_kinds.h). */
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kinds/perf_events.h"
#include "kinds/probe_kinds.h"

/* Why a return probe takes no +OFFSET. */
#define RET_NO_OFFSET "a return probe takes no +OFFSET: it is placed at the function's entry"

/* bpftrace's list: a kretprobe's trampoline there may deadlock the kernel. */
static const char *const banned_kretprobes[] = {
	"_raw_spin_lock",
	"_raw_spin_lock_irqsave",
	"_raw_spin_unlock_irqrestore",
	"queued_spin_lock_slowpath",
	NULL,
};
#define TRAMP_NO_OFFSET \
	"fentry: and fexit: take no +OFFSET: the kernel calls them at the function's entry " \
	"and return (kprobe:FUNCTION+OFFSET probes inside it)"

static const struct st_probe_kind kinds[] = {
	{
		.kind = ST_AP_SIDE,
		.name = "side",
		.syntax = "side:TARGET:PROVIDER:EVENT",
		.noun = "SIDE event",
		.form = ST_FORM_EVENT,
		.provider_word = "a provider",
		.event_word = "an event",
		.has_target = true,
		.source = ST_SOURCE_SIDE,
		.args = ST_ARGS_SIDE,
		.family = ST_FAMILY_UPROBE,
		.in_process = true,
		.glob = ST_GLOB_USER,
	},
	{
		.kind = ST_AP_USDT,
		.name = "usdt",
		.aliases = {"U"},
		.syntax = "usdt:TARGET:[PROVIDER:]NAME",
		.noun = "USDT probe",
		.form = ST_FORM_EVENT,
		.provider_word = "a provider",
		.event_word = "a probe",
		.provider_optional = true,
		.has_target = true,
		.source = ST_SOURCE_SDT,
		.args = ST_ARGS_SDT,
		.family = ST_FAMILY_UPROBE,
		.glob = ST_GLOB_USER,
	},
	{
		.kind = ST_AP_UPROBE,
		.name = "uprobe",
		.aliases = {"u"},
		.syntax = "uprobe:TARGET:FUNCTION[+OFFSET]",
		.noun = "function",
		.form = ST_FORM_FUNCTION,
		.has_target = true,
		.source = ST_SOURCE_FUNCTIONS,
		.args = ST_ARGS_DWARF,
		.params = true,
		.raw_args = true,
		.family = ST_FAMILY_UPROBE,
		.glob = ST_GLOB_USER,
	},
	{
		.kind = ST_AP_URETPROBE,
		.name = "uretprobe",
		.aliases = {"ur"},
		.syntax = "uretprobe:TARGET:FUNCTION",
		.noun = "function",
		.form = ST_FORM_FUNCTION,
		.has_target = true,
		.source = ST_SOURCE_FUNCTIONS,
		.args = ST_ARGS_DWARF,
		.retval = true,
		.no_offset = RET_NO_OFFSET,
		.family = ST_FAMILY_UPROBE,
	},
	{
		.kind = ST_AP_TRACEPOINT,
		.name = "tracepoint",
		.aliases = {"t"},
		.syntax = "tracepoint:CATEGORY:NAME",
		.noun = "tracepoint",
		.form = ST_FORM_EVENT,
		.provider_word = "a category",
		.event_word = "a tracepoint",
		.provider_optional_glob = true,
		.source = ST_SOURCE_TRACEPOINTS,
		.args = ST_ARGS_RECORD,
		.in_kernel = true,
		.family = ST_FAMILY_TRACEPOINT,
		.glob = ST_GLOB_KERNEL,
	},
	{
		.kind = ST_AP_KPROBE,
		.name = "kprobe",
		.aliases = {"k"},
		.syntax = "kprobe:FUNCTION[+OFFSET]",
		.noun = "kernel function",
		.form = ST_FORM_FUNCTION,
		.source = ST_SOURCE_KFUNCS,
		.args = ST_ARGS_BTF,
		.in_kernel = true,
		.params = true,
		.raw_args = true,
		.family = ST_FAMILY_KPROBE,
		.glob = ST_GLOB_KERNEL,
	},
	{
		.kind = ST_AP_KRETPROBE,
		.name = "kretprobe",
		.aliases = {"kr"},
		.syntax = "kretprobe:FUNCTION",
		.noun = "kernel function",
		.form = ST_FORM_FUNCTION,
		.source = ST_SOURCE_KFUNCS,
		.args = ST_ARGS_BTF,
		.in_kernel = true,
		.retval = true,
		.no_offset = RET_NO_OFFSET,
		.family = ST_FAMILY_KPROBE,
		.banned = banned_kretprobes,
	},
	{
		.kind = ST_AP_PROFILE,
		.name = "profile",
		.aliases = {"p"},
		.syntax = "profile:UNIT:N",
		.noun = "profile",
		.form = ST_FORM_PERIOD,
		.source = ST_SOURCE_PERF,
		.args = ST_ARGS_NONE,
		.in_kernel = true,
		.family = ST_FAMILY_PERF_EVENT,
	},
	{
		.kind = ST_AP_FENTRY,
		.name = "fentry",
		.aliases = {"kfunc", "f"},
		.probe_word = "kfunc",
		.syntax = "fentry:[MODULE:]FUNCTION",
		.noun = "kernel function",
		.form = ST_FORM_FUNCTION,
		.source = ST_SOURCE_KFUNCS,
		.args = ST_ARGS_BTF,
		.in_kernel = true,
		.params = true,
		.module_optional = true,
		.no_offset = TRAMP_NO_OFFSET,
		.family = ST_FAMILY_FENTRY,
		.dpath_in = ST_DPATH_IN_ARGS,
		.glob = ST_GLOB_KERNEL,
	},
	{
		.kind = ST_AP_FEXIT,
		.name = "fexit",
		.aliases = {"kretfunc", "fr"},
		.probe_word = "kretfunc",
		.syntax = "fexit:[MODULE:]FUNCTION",
		.noun = "kernel function",
		.form = ST_FORM_FUNCTION,
		.source = ST_SOURCE_KFUNCS,
		.args = ST_ARGS_BTF,
		.in_kernel = true,
		.params = true,
		.retval = true,
		.module_optional = true,
		.no_offset = TRAMP_NO_OFFSET,
		.family = ST_FAMILY_FEXIT,
		.dpath_in = ST_DPATH_IN_ARGS,
	},
	{
		.kind = ST_AP_BEGIN,
		.name = "BEGIN",
		.syntax = "BEGIN",
		.noun = "BEGIN",
		.form = ST_FORM_BARE,
		.runs = ST_RUNS_AT_BEGIN,
	},
	{
		.kind = ST_AP_END,
		.name = "END",
		.syntax = "END",
		.noun = "END",
		.form = ST_FORM_BARE,
		.runs = ST_RUNS_AT_END,
	},
	{
		.kind = ST_AP_INTERVAL,
		.name = "interval",
		.aliases = {"i"},
		.syntax = "interval:UNIT:N",
		.noun = "interval",
		.form = ST_FORM_PERIOD,
		.runs = ST_RUNS_EVERY,
	},
	{
		.kind = ST_AP_SOFTWARE,
		.name = "software",
		.aliases = {"s"},
		.syntax = "software:EVENT[:COUNT]",
		.noun = "software event",
		.form = ST_FORM_PERF,
		.source = ST_SOURCE_PERF,
		.args = ST_ARGS_NONE,
		.in_kernel = true,
		.family = ST_FAMILY_PERF_EVENT,
		.perf_events = st_software_events,
		.glob = ST_GLOB_KERNEL,
	},
	{
		.kind = ST_AP_HARDWARE,
		.name = "hardware",
		.aliases = {"h"},
		.syntax = "hardware:EVENT[:COUNT]",
		.noun = "hardware event",
		.form = ST_FORM_PERF,
		.source = ST_SOURCE_PERF,
		.args = ST_ARGS_NONE,
		.in_kernel = true,
		.family = ST_FAMILY_PERF_EVENT,
		.perf_events = st_hardware_events,
		.glob = ST_GLOB_KERNEL,
	},
	{
		.kind = ST_AP_WATCHPOINT,
		.name = "watchpoint",
		.aliases = {"w"},
		.syntax = "watchpoint:ADDR|FUNCTION+argN:LEN:MODE",
		.noun = "watchpoint",
		.form = ST_FORM_WATCH,
		.source = ST_SOURCE_WATCH,
		.args = ST_ARGS_NONE,
		.in_kernel = true,
		.family = ST_FAMILY_WATCHPOINT,
	},
	{
		.kind = ST_AP_ASYNCWATCHPOINT,
		.name = "asyncwatchpoint",
		.aliases = {"aw"},
		.syntax = "asyncwatchpoint:FUNCTION+argN:LEN:MODE",
		.noun = "watchpoint",
		.form = ST_FORM_WATCH,
		.source = ST_SOURCE_WATCH,
		.args = ST_ARGS_NONE,
		.in_kernel = true,
		.family = ST_FAMILY_WATCHPOINT,
		.watch_async = true,
	},
	{
		.kind = ST_AP_ITER,
		.name = "iter",
		.aliases = {"it"},
		.syntax = "iter:TARGET",
		.noun = "kernel iterator",
		.form = ST_FORM_ITER,
		.source = ST_SOURCE_ITERS,
		.args = ST_ARGS_NONE,
		.in_kernel = true,
		.family = ST_FAMILY_ITER,
		.ctx_ctype = "struct bpf_iter__%s",
		.dpath_in = ST_DPATH_IN_CTX,
	},
};

#define NR_KINDS (sizeof(kinds) / sizeof(kinds[0]))

const struct st_probe_kind *st_probe_kind(enum st_ap_kind kind)
{
	/* The rows are in the enum's order (tests/unit/test_probe_kinds.c). */
	return (size_t)kind < NR_KINDS ? &kinds[kind] : &kinds[0];
}

bool st_kind_bans(enum st_ap_kind kind, const char *name)
{
	const char *const *b = st_probe_kind(kind)->banned;

	for (; b && *b; b++)
		if (!strcmp(*b, name))
			return true;
	return false;
}

const struct st_probe_kind *st_probe_kind_named(const char *name, size_t len)
{
	size_t i, j;

	for (i = 0; i < NR_KINDS; i++) {
		if (st_kind_word_is(kinds[i].name, name, len))
			return &kinds[i];
		for (j = 0; j < ST_MAX_KIND_ALIASES; j++)
			if (st_kind_word_is(kinds[i].aliases[j], name, len))
				return &kinds[i];
	}
	return NULL;
}

const struct st_probe_kind *st_probe_kind_glob_next(const char *glob, enum st_kind_glob set,
						    size_t *i)
{
	const struct st_probe_kind *k;
	size_t j;

	for (; *i < NR_KINDS; ++*i) {
		k = &kinds[*i];
		if (k->glob != set)
			continue;
		if (!fnmatch(glob, k->name, 0))
			return &kinds[(*i)++];
		for (j = 0; j < ST_MAX_KIND_ALIASES; j++)
			if (k->aliases[j] && !fnmatch(glob, k->aliases[j], 0))
				return &kinds[(*i)++];
	}
	return NULL;
}

enum st_kind_glob st_kind_glob_set(const char *rest)
{
	return memchr(rest, '/', strcspn(rest, ":")) ? ST_GLOB_USER : ST_GLOB_KERNEL;
}

const struct st_probe_kind *st_probe_kind_nth(size_t i)
{
	return i < NR_KINDS ? &kinds[i] : NULL;
}

const char *st_probe_kinds_syntax(void)
{
	static char syntax[1024];
	size_t i, off = 0;

	if (syntax[0])
		return syntax;
	for (i = 0; i < NR_KINDS; i++)
		off += snprintf(syntax + off, sizeof(syntax) - off, "%s%s", i ? ", " : "",
				kinds[i].syntax);
	return syntax;
}

/* bpftrace's kinds that sidetrace has not yet, and what to write instead. */
static const struct {
	const char *name, *alias;
	const char *instead;
} missing[] = {
	{"rawtracepoint", "rt", "tracepoint:CATEGORY:NAME, the same events with their fields"},
};

const char *st_probe_kind_missing(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(missing) / sizeof(missing[0]); i++)
		if (st_kind_word_is(missing[i].name, name, len) ||
		    st_kind_word_is(missing[i].alias, name, len))
			return missing[i].instead;
	return NULL;
}
