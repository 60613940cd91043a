// SPDX-License-Identifier: MIT
/*
 * kinds/probe_kinds.c: every row has every column a pass asks for, and
 * the columns agree with each other, so that a new row cannot leave a
 * pass to guess.
 */
#include <stdio.h>
#include <string.h>

#include "kinds/probe_kinds.h"
#include "unit.h"

static bool kernel_family(enum st_prog_family f)
{
	return f == ST_FAMILY_TRACEPOINT || f == ST_FAMILY_KPROBE || f == ST_FAMILY_PERF_EVENT ||
	       f == ST_FAMILY_FENTRY || f == ST_FAMILY_FEXIT;
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
	ROW((k->form == ST_FORM_EVENT || k->form == ST_FORM_RATE) ==
		    (article_word(k->provider_word) && article_word(k->event_word)),
	    "an event kind names its two words, with their article");
	ROW(!k->provider_optional || k->form == ST_FORM_EVENT,
	    "only an event's provider is optional");
	ROW((k->form == ST_FORM_BARE || k->form == ST_FORM_PERIOD) == !events,
	    "a kind run by sidetrace is bare or periodic");
	ROW((k->runs == ST_RUNS_EVERY) == (k->form == ST_FORM_PERIOD),
	    "a period iff it runs every");
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
	ok(n == ST_AP_INTERVAL + 1, "a row per kind");
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
	ok(st_probe_kind_missing("software", 8) && !st_probe_kind_missing("uprobe", 6),
	   "what works instead of a missing kind");
	ok(strstr(st_probe_kinds_syntax(), "usdt:TARGET:[PROVIDER:]NAME") != NULL,
	   "every kind's syntax in one line");
}

int main(void)
{
	test_rows();
	return unit_summary();
}
