// SPDX-License-Identifier: MIT
/*
 * kinds/probe_kinds.c: every row has every column a pass asks for, and
 * the columns agree with each other, so that a new row cannot leave a
 * pass to guess.
 */
#include <stdio.h>
#include <string.h>

#include <linux/perf_event.h>

#include "kinds/perf_events.h"
#include "kinds/probe_kinds.h"
#include "unit.h"

static bool kernel_family(enum st_prog_family f)
{
	return f == ST_FAMILY_TRACEPOINT || f == ST_FAMILY_KPROBE || f == ST_FAMILY_PERF_EVENT ||
	       f == ST_FAMILY_FENTRY || f == ST_FAMILY_FEXIT || f == ST_FAMILY_WATCHPOINT ||
	       f == ST_FAMILY_ITER;
}

static bool article_word(const char *w)
{
	return w && (!strncmp(w, "a ", 2) || !strncmp(w, "an ", 3));
}

static void check_row(size_t i, const struct st_probe_kind *k)
{
	bool events = k->runs == ST_RUNS_AT_EVENTS;
	char name[96];

#define ROW(cond, what) \
	do { \
		snprintf(name, sizeof(name), "%s: %s", k->name ? k->name : "?", what); \
		ok(cond, name); \
	} while (0)

	ROW(k->kind == (enum st_ap_kind)i, "rows in the enum's order");
	ROW(k->name && *k->name && k->syntax && !strncmp(k->syntax, k->name, strlen(k->name)),
	    "named, its syntax starts with its name");
	ROW(k->noun && *k->noun, "a noun for messages");
	ROW(events == (k->source != ST_SOURCE_NONE), "events from a source iff it runs at them");
	ROW(events == (k->family != ST_FAMILY_NONE), "a program family iff it runs at events");
	ROW(!events || k->in_kernel == kernel_family(k->family),
	    "in the kernel iff its family is a kernel one");
	ROW(!(k->in_kernel && k->has_target), "a kernel kind has no target file");
	ROW(!k->in_process || (k->has_target && !k->in_kernel),
	    "only a kind at a file's sites runs in the process");
	ROW((k->form == ST_FORM_FUNCTION) == (k->params || k->retval),
	    "a function kind reads parameters or the return value");
	ROW(!k->raw_args || k->params, "raw arg0..arg5 only beside parameters");
	ROW(!k->no_offset || k->form == ST_FORM_FUNCTION, "+OFFSET only said of function kinds");
	ROW(k->form != ST_FORM_FUNCTION ||
		    (k->source == ST_SOURCE_FUNCTIONS || k->source == ST_SOURCE_KFUNCS),
	    "a function kind's events come from functions");
	ROW(k->form != ST_FORM_FUNCTION || k->args == ST_ARGS_DWARF || k->args == ST_ARGS_BTF,
	    "a function kind's args come from debug info");
	ROW((k->form == ST_FORM_EVENT) ==
		    (article_word(k->provider_word) && article_word(k->event_word)),
	    "an event kind names its two words, with their article");
	ROW((k->form == ST_FORM_PERF) == (k->perf_events && k->perf_events->name),
	    "a perf kind names its events");
	ROW(k->form != ST_FORM_PERF || k->source == ST_SOURCE_PERF,
	    "a perf kind's events are perf events");
	ROW(!k->provider_optional || k->form == ST_FORM_EVENT,
	    "only an event's provider is optional");
	ROW(events || k->form == ST_FORM_BARE || k->form == ST_FORM_PERIOD,
	    "a kind run by sidetrace is bare or periodic");
	ROW(k->runs != ST_RUNS_EVERY || k->form == ST_FORM_PERIOD,
	    "what runs every period has one");
	ROW(k->form != ST_FORM_PERIOD || !events || k->source == ST_SOURCE_PERF,
	    "a sampled period is a perf event's");
	ROW((k->form == ST_FORM_WATCH) == (k->source == ST_SOURCE_WATCH) &&
		    (k->source == ST_SOURCE_WATCH) == (k->family == ST_FAMILY_WATCHPOINT),
	    "a watchpoint's words, events and breakpoints go together");
	ROW(!k->watch_async || k->form == ST_FORM_WATCH, "only a watchpoint is asynchronous");
	ROW(!k->provider_optional_glob || (k->form == ST_FORM_EVENT && !k->provider_optional),
	    "a provider left out before a glob only where it is not left out always");
	ROW(k->glob == ST_GLOB_NONE || (events && !k->retval && !k->watch_async &&
					(k->glob == ST_GLOB_USER) == k->has_target),
	    "a glob over kinds: a kernel kind or a file's, never a return probe's");
	ROW(st_probe_kind(k->kind) == k, "st_probe_kind() finds the row");
	ROW(st_probe_kind_named(k->name, strlen(k->name)) == k, "found by its name");
#undef ROW
}

static void test_rows(void)
{
	const struct st_probe_kind *k, *o;
	size_t i, j, a, b, n = 0;
	bool unique = true;

	for (i = 0; (k = st_probe_kind_nth(i)); i++, n++)
		check_row(i, k);
	ok(n == ST_AP_ITER + 1, "a row per kind");
	for (i = 0; (k = st_probe_kind_nth(i)); i++) {
		for (a = 0; a < ST_MAX_KIND_ALIASES && k->aliases[a]; a++)
			ok(st_probe_kind_named(k->aliases[a], strlen(k->aliases[a])) == k,
			   "found by each alias");
		for (j = i + 1; (o = st_probe_kind_nth(j)); j++) {
			unique &= strcmp(k->name, o->name) != 0;
			for (a = 0; a < ST_MAX_KIND_ALIASES && k->aliases[a]; a++) {
				unique &= strcmp(k->aliases[a], o->name) != 0;
				for (b = 0; b < ST_MAX_KIND_ALIASES && o->aliases[b]; b++)
					unique &= strcmp(k->aliases[a], o->aliases[b]) != 0;
			}
		}
	}
	ok(unique, "names and aliases are unique");
	ok(!st_probe_kind_named("kprob", 5) && !st_probe_kind_named("kprobes", 7),
	   "no kind by a prefix or a longer word");
	ok(st_probe_kind_missing("rawtracepoint", 13) && st_probe_kind_missing("rt", 2) &&
		   !st_probe_kind_missing("uprobe", 6),
	   "what works instead of a missing kind, by its name or bpftrace's short one");
	ok(st_probe_kind_named("it", 2) == st_probe_kind(ST_AP_ITER) &&
		   st_probe_kind_named("i", 1) == st_probe_kind(ST_AP_INTERVAL) &&
		   st_probe_kind_named("ur", 2) == st_probe_kind(ST_AP_URETPROBE) &&
		   st_probe_kind_named("U", 1) == st_probe_kind(ST_AP_USDT),
	   "bpftrace's short names");
	ok(strstr(st_probe_kinds_syntax(), "usdt:TARGET:[PROVIDER:]NAME") != NULL,
	   "every kind's syntax in one line");
}

/* The names of the kinds a glob over kinds expands to, in order. */
static void glob_names(const char *glob, enum st_kind_glob set, char *buf, size_t size)
{
	const struct st_probe_kind *k;
	size_t i = 0, off = 0;

	buf[0] = '\0';
	while ((k = st_probe_kind_glob_next(glob, set, &i)) && off < size)
		off += snprintf(buf + off, size - off, "%s%s", off ? " " : "", k->name);
}

static void test_globs(void)
{
	char names[128];

	glob_names("*", ST_GLOB_KERNEL, names, sizeof(names));
	ok(!strcmp(names, "tracepoint kprobe fentry software hardware"),
	   "'*' is bpftrace's kernel kinds, no return probe");
	glob_names("*", ST_GLOB_USER, names, sizeof(names));
	ok(!strcmp(names, "side usdt uprobe"), "'*' with a path: the kinds of a file's sites");
	glob_names("k*", ST_GLOB_KERNEL, names, sizeof(names));
	ok(!strcmp(names, "kprobe fentry"), "a glob matches an alias too (kfunc)");
	glob_names("t*point", ST_GLOB_USER, names, sizeof(names));
	ok(!names[0], "a kernel kind is not in the user-space set");
	ok(st_kind_glob_set("/bin/bash:readline") == ST_GLOB_USER &&
		   st_kind_glob_set("sched:sched_switch") == ST_GLOB_KERNEL &&
		   st_kind_glob_set("cpu-clock:1/") == ST_GLOB_KERNEL,
	   "a path as the next word means the user-space set");
}

static void check_list(const struct st_perf_event *list, uint32_t type, const char *what)
{
	const struct st_perf_event *e, *o;
	bool filled = true, unique = true, found = true;
	char name[96];

	for (e = list; e->name; e++) {
		filled &= e->type == type && e->default_count > 0;
		found &= st_perf_event_named(list, e->name, strlen(e->name)) == e &&
			 (!e->alias || st_perf_event_named(list, e->alias, strlen(e->alias)) == e);
		for (o = e + 1; o->name; o++)
			unique &= strcmp(e->name, o->name) &&
				  (!e->alias || !o->alias || strcmp(e->alias, o->alias));
	}
	snprintf(name, sizeof(name), "%s: each of its type, with a default count", what);
	ok(filled, name);
	snprintf(name, sizeof(name), "%s: names and aliases unique, each found", what);
	ok(unique && found, name);
}

static void test_perf(void)
{
	const struct st_period_unit *u;

	check_list(st_software_events, PERF_TYPE_SOFTWARE, "software events");
	check_list(st_hardware_events, PERF_TYPE_HARDWARE, "hardware events");
	ok(st_probe_kind(ST_AP_SOFTWARE)->perf_events == st_software_events &&
		   st_probe_kind(ST_AP_HARDWARE)->perf_events == st_hardware_events,
	   "each perf kind names its own list");
	ok(st_perf_event_named(st_software_events, "faults", 6) &&
		   !strcmp(st_perf_event_named(st_software_events, "faults", 6)->name,
			   "page-faults"),
	   "bpftrace's aliases: faults is page-faults");
	u = st_period_unit("ms", 2);
	ok(u && u->ns == 1000000 && st_period_unit("hz", 2) && !st_period_unit("hz", 2)->ns &&
		   !st_period_unit("m", 1) && !st_period_unit("min", 3),
	   "period units: ms is a million ns, hz a rate, nothing else");
}

int main(void)
{
	test_rows();
	test_globs();
	test_perf();
	return unit_summary();
}
