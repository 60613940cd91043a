// SPDX-License-Identifier: MIT
/* The table of attach-point kinds (probe_kinds.h). */
#include <stdio.h>
#include <string.h>

#include "kinds/probe_kinds.h"

static const struct st_probe_kind kinds[] = {
	{ST_AP_SIDE, "side", "side:TARGET:PROVIDER:EVENT", true, true, ST_ARGS_SIDE, ST_VIEW_SIDE,
	 NULL},
	{ST_AP_USDT, "usdt", "usdt:TARGET:[PROVIDER:]NAME", true, true, ST_ARGS_SDT, ST_VIEW_USDT,
	 NULL},
	{ST_AP_UPROBE, "uprobe", "uprobe:TARGET:FUNCTION[+OFFSET]", true, true, ST_ARGS_DWARF,
	 ST_VIEW_UPROBE, NULL},
	{ST_AP_URETPROBE, "uretprobe", "uretprobe:TARGET:FUNCTION", true, true, ST_ARGS_DWARF,
	 ST_VIEW_URETPROBE, NULL},
	{ST_AP_TRACEPOINT, "tracepoint", "tracepoint:CATEGORY:NAME", true, false, ST_ARGS_RECORD,
	 ST_VIEW_TRACEPOINT, NULL},
	{ST_AP_KPROBE, "kprobe", "kprobe:FUNCTION[+OFFSET]", true, false, ST_ARGS_BTF,
	 ST_VIEW_KPROBE, NULL},
	{ST_AP_KRETPROBE, "kretprobe", "kretprobe:FUNCTION", true, false, ST_ARGS_BTF,
	 ST_VIEW_KRETPROBE, NULL},
	{ST_AP_PROFILE, "profile", "profile:hz:N", true, false, ST_ARGS_NONE, ST_VIEW_PROFILE,
	 NULL},
	{ST_AP_FENTRY, "fentry", "fentry:FUNCTION", true, false, ST_ARGS_BTF, ST_VIEW_FENTRY,
	 "kfunc"},
	{ST_AP_FEXIT, "fexit", "fexit:FUNCTION", true, false, ST_ARGS_BTF, ST_VIEW_FEXIT,
	 "kretfunc"},
	{ST_AP_BEGIN, "BEGIN", "BEGIN", false, false, ST_ARGS_NONE, ST_VIEW_SIDE, NULL},
	{ST_AP_END, "END", "END", false, false, ST_ARGS_NONE, ST_VIEW_SIDE, NULL},
	{ST_AP_INTERVAL, "interval", "interval:s:N or interval:ms:N", false, false, ST_ARGS_NONE,
	 ST_VIEW_SIDE, NULL},
};

#define NR_KINDS (sizeof(kinds) / sizeof(kinds[0]))

const struct st_probe_kind *st_probe_kind(enum st_ap_kind kind)
{
	size_t i;

	for (i = 0; i < NR_KINDS; i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return &kinds[0];
}

const struct st_probe_kind *st_probe_kind_named(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NR_KINDS; i++)
		if ((strlen(kinds[i].name) == len && !strncmp(kinds[i].name, name, len)) ||
		    (kinds[i].alias && strlen(kinds[i].alias) == len &&
		     !strncmp(kinds[i].alias, name, len)))
			return &kinds[i];
	return NULL;
}

const struct st_probe_kind *st_probe_kind_nth(size_t i)
{
	return i < NR_KINDS ? &kinds[i] : NULL;
}

const char *st_probe_kinds_syntax(void)
{
	static char syntax[512];
	size_t i, off = 0;

	if (syntax[0])
		return syntax;
	for (i = 0; i < NR_KINDS; i++)
		off += snprintf(syntax + off, sizeof(syntax) - off, "%s%s", i ? ", " : "",
				kinds[i].syntax);
	return syntax;
}

bool st_probe_kind_by_name(const struct st_probe_kind *k)
{
	return k->args != ST_ARGS_DWARF && k->args != ST_ARGS_BTF;
}

/* bpftrace's kinds that sidetrace has not yet, and what to write instead. */
static const struct {
	const char *name;
	const char *instead;
} missing[] = {
	{"software", "tracepoint:CATEGORY:NAME for kernel events"},
	{"hardware", "tracepoint:CATEGORY:NAME for kernel events"},
};

const char *st_probe_kind_missing(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(missing) / sizeof(missing[0]); i++)
		if (strlen(missing[i].name) == len && !strncmp(missing[i].name, name, len))
			return missing[i].instead;
	return NULL;
}
