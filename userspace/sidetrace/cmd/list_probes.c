// SPDX-License-Identifier: MIT
/*
 * sidetrace -l [PATTERN] (list.h): the probes a pattern names, one line
 * each as a program writes them, as bpftrace -l lists them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/common.h"
#include "cmd/list.h"
#include "kinds/probe_kinds.h"
#include "output/events_print.h"
#include "parse/lexer.h"
#include "targets/targets.h"
#include "util/escape.h"

/* What the listing found: lines printed, events left out for having no call site. */
struct listed {
	size_t n, siteless;
};

/*
 * -l's pattern as a whole attach point, as its kind's row writes it:
 * "side:T" is every event of T and "side:T:EVENT" (bpftrace's usdt form)
 * EVENT of any provider (the same for usdt:); "tracepoint:C" every
 * tracepoint of category C; "software:" every software event.
 */
static char *full_pattern(const char *pattern)
{
	const char *colon = strchr(pattern, ':'), *rest, *last = NULL;
	const struct st_probe_kind *k;
	char *out = NULL;

	k = colon ? st_probe_kind_named(pattern, colon - pattern) : NULL;
	if (!k || k->form != ST_FORM_EVENT)
		return strdup(pattern);
	rest = colon + 1;
	if (!k->has_target)
		return asprintf(&out, "%s%s", pattern, strchr(rest, ':') ? "" : ":*") < 0 ? NULL
											  : out;
	/* A quoted target may hold ':'. */
	if (*rest == '"' && strchr(rest + 1, '"'))
		rest = strchr(rest + 1, '"') + 1;
	for (; *rest; rest++) {
		if (*rest != ':')
			continue;
		if (last)
			return strdup(pattern);
		last = rest;
	}
	if (!last && asprintf(&out, "%s:*:*", pattern) < 0)
		return NULL;
	if (last && asprintf(&out, "%.*s:*%s", (int)(last - pattern), pattern, last) < 0)
		return NULL;
	return out;
}

/* Parses the pattern with the language's own lexer; 0 or an exit status. */
static int parse_pattern(const char *src, struct st_attach_point *ap)
{
	struct st_diag diag = {0};
	struct st_lexer lx;
	int ret;

	st_lex_init(&lx, src, "pattern", &diag);
	ret = st_lex_attach_point(&lx, ap);
	if (!ret)
		ret = st_lex_skip_space(&lx);
	if (ret == -ENOMEM) {
		st_errorf("out of memory");
		return ST_EXIT_FAIL;
	}
	if (ret) {
		st_diag_print(stderr, &diag, src);
		return ST_EXIT_USAGE;
	}
	if (st_probe_kind(ap->kind)->runs != ST_RUNS_AT_EVENTS || !st_lex_at_end(&lx)) {
		st_errorf("-l '%s': a pattern is KIND:... as a probe is written "
			  "(side:TARGET[:PROVIDER]:EVENT, tracepoint:CATEGORY[:NAME], ...) "
			  "or a glob over them ('*sched_switch*'), '*' wildcards",
			  src);
		return ST_EXIT_USAGE;
	}
	return ST_EXIT_OK;
}

/* Prints ev's line (and fields) when its line matches glob (NULL: always). */
static int print_probe(const struct st_event *ev, bool verbose, const char *glob,
		       struct listed *out)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!glob) {
		st_probe_print_text(stdout, ev, verbose);
		out->n++;
		return 0;
	}
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	st_probe_print_text(f, ev, verbose);
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	/* The glob is matched against the probe's line, not its fields. */
	text[strcspn(text, "\n")] = '\0';
	if (!fnmatch(glob, text, 0)) {
		text[strlen(text)] = len > strlen(text) ? '\n' : '\0';
		fputs(text, stdout);
		out->n++;
	}
	free(text);
	return 0;
}

/*
 * Lists what ap names in target's file (ap's own target, or a file its
 * wildcards matched: then one that is no object, or has no such probe,
 * is passed over silently, as bpftrace's -l does). 0 or an exit status.
 */
static int list_target(struct st_target_set *set, const struct st_attach_point *ap,
		       const char *target, bool verbose, const char *glob, struct listed *out)
{
	const struct st_probe_query q = {.target = target,
					 .kind = ap->kind,
					 .function = ap->event,
					 .provider = ap->provider,
					 .names_only = !verbose};
	bool matched = target != ap->target;
	const struct st_event_list *l;
	char err[512];
	size_t i;

	l = st_target_query(set, &q, err, sizeof(err));
	if (!l || (!l->nr && l->why_none)) {
		if (matched)
			return ST_EXIT_OK;
		if (*target)
			st_errorf("%s: %s", target, l ? l->why_none : err);
		else
			st_errorf("%s", err);
		return ST_EXIT_FAIL;
	}
	for (i = 0; i < l->nr; i++) {
		if (st_probe_kind_by_name(st_probe_kind(ap->kind)) &&
		    !st_event_match(&l->events[i], ap->provider, ap->event))
			continue;
		/* No probe attaches to an event no call site emits (check_points.c). */
		if (!l->events[i].nr_sites) {
			out->siteless++;
			continue;
		}
		if (print_probe(&l->events[i], verbose, glob, out)) {
			st_errorf("out of memory");
			return ST_EXIT_FAIL;
		}
	}
	return ST_EXIT_OK;
}

/*
 * A target path with wildcards, without -p (where they match the objects
 * the process maps): every regular file they match, as bpftrace's -l
 * lists 'usdt:/usr/lib/x86_64-linux-gnu/libstd*:*'. 0 or an exit status.
 */
static int list_files(struct st_target_set *set, const struct st_attach_point *ap, bool verbose,
		      const char *line_glob, struct listed *out)
{
	int status = ST_EXIT_OK, ret;
	struct stat st;
	glob_t files;
	size_t i;

	ret = glob(ap->target, 0, NULL, &files);
	if (ret == GLOB_NOMATCH) {
		st_errorf("%s: no file matches", ap->target);
		return ST_EXIT_FAIL;
	}
	if (ret) {
		st_errorf("%s: %s", ap->target,
			  ret == GLOB_NOSPACE ? "out of memory" : "a directory cannot be read");
		return ST_EXIT_FAIL;
	}
	for (i = 0; i < files.gl_pathc && status == ST_EXIT_OK; i++)
		if (!stat(files.gl_pathv[i], &st) && S_ISREG(st.st_mode))
			status = list_target(set, ap, files.gl_pathv[i], verbose, line_glob, out);
	globfree(&files);
	return status;
}

/* Lists what src (a whole pattern) names in set; 0 or an exit status. */
static int list_pattern(struct st_target_set *set, const char *src, bool verbose, const char *glob,
			struct listed *out)
{
	struct st_attach_point ap = {0};
	int status;

	status = parse_pattern(src, &ap);
	if (status)
		goto cleanup;
	if (!set->pid && strchr(ap.target, '/') && strpbrk(ap.target, "*?["))
		status = list_files(set, &ap, verbose, glob, out);
	else
		status = list_target(set, &ap, ap.target, verbose, glob, out);
cleanup:
	st_attach_point_fini(&ap);
	return status;
}

/*
 * What -l lists without a kind: the kernel's probes of each kind that
 * lists without a target, as bpftrace's -l (a process's own with -p).
 */
static const char *const kernel_patterns[] = {"tracepoint:*:*", "software:*", "hardware:*"};
static const char *const process_patterns[] = {"side:*:*:*", "usdt:*:*:*"};

int st_list_probes(const char *pattern, pid_t pid, bool verbose)
{
	const char *const *srcs = pid ? process_patterns : kernel_patterns;
	size_t i, nr = pid ? sizeof(process_patterns) / sizeof(process_patterns[0])
			   : sizeof(kernel_patterns) / sizeof(kernel_patterns[0]);
	struct st_target_set set = {.pid = pid};
	size_t word = pattern ? strcspn(pattern, ":") : 0;
	const char *glob = NULL;
	struct listed out = {0};
	char *src = NULL;
	int status = ST_EXIT_OK;

	/*
	 * A pattern whose first word is no kind, and holds a wildcard or is
	 * the whole pattern, is a glob over every probe listed.
	 */
	if (pattern && !st_probe_kind_named(pattern, word) &&
	    (!pattern[word] || strcspn(pattern, "*?[") < word))
		glob = pattern;
	if (pattern && !glob) {
		src = full_pattern(pattern);
		if (!src) {
			st_errorf("out of memory");
			return ST_EXIT_FAIL;
		}
		srcs = (const char *const *)&src;
		nr = 1;
	}
	for (i = 0; i < nr && status == ST_EXIT_OK; i++)
		status = list_pattern(&set, srcs[i], verbose, glob, &out);
	if (status == ST_EXIT_OK && !out.n) {
		status = ST_EXIT_FAIL;
		pattern = src ? src : pattern;
		if (out.siteless)
			st_errorf("no probe matches %s: the %zu event%s it matches %s no call "
				  "sites (delivered to in-process tracers only, never to a probe)",
				  pattern, out.siteless, out.siteless == 1 ? "" : "s",
				  out.siteless == 1 ? "has" : "have");
		else
			st_errorf("no probe matches %s", pattern ? pattern : "any pattern");
	}
	st_target_set_free(&set);
	free(src);
	return status;
}
