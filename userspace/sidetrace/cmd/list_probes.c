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
#include <unistd.h>

#include "cmd/common.h"
#include "cmd/list.h"
#include "kernel/kfuncs.h"
#include "kinds/probe_kinds.h"
#include "output/events_print.h"
#include "parse/lexer.h"
#include "targets/targets.h"
#include "util/escape.h"

/*
 * A listing: how it prints, and what it found: lines printed, events left
 * out for having no call site.
 */
struct listing {
	struct st_target_set *set;
	bool verbose;
	const char *glob; /* matched against each line, or NULL */
	/*
	 * One of several kinds a pattern's or -p's listing tries: one that
	 * cannot be written so, or finds nothing, is passed over silently
	 */
	bool quiet;
	/* A pattern's probes, each its line and fields: printed sorted, each once (print_kept()) */
	char **kept;
	size_t nr_kept, cap_kept;
	size_t n, siteless;
};

/*
 * -l's pattern as a whole attach point, as its kind's row writes it:
 * "side:T" is every event of T and "side:T:EVENT" (bpftrace's usdt form)
 * EVENT of any provider (the same for usdt:); "tracepoint:C" every
 * tracepoint of category C; "software:" every software event; with -p,
 * "uprobe:F" the functions F of the process's executable.
 */
static char *full_pattern(const char *pattern, pid_t pid)
{
	const char *colon = strchr(pattern, ':'), *rest, *last = NULL;
	const struct st_probe_kind *k;
	char *out = NULL;

	k = colon ? st_probe_kind_named(pattern, colon - pattern) : NULL;
	rest = colon ? colon + 1 : NULL;
	/* uprobe:FUNCTION with -p: the process's executable's, as bpftrace's. */
	if (k && pid && st_probe_kind_function(k) && k->has_target && !strchr(rest, ':'))
		return asprintf(&out, "%.*s::%s", (int)(colon - pattern), pattern, rest) < 0 ? NULL
											     : out;
	if (!k || k->form != ST_FORM_EVENT)
		return strdup(pattern);
	if (!k->has_target && !strchr(rest, ':') && k->provider_optional_glob && strchr(rest, '*'))
		return asprintf(&out, "%.*s:*:%s", (int)(colon - pattern), pattern, rest) < 0 ? NULL
											      : out;
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

/*
 * Parses the pattern with the language's own lexer; 0 or an exit status
 * (said on stderr unless ls->quiet).
 */
static int parse_pattern(const struct listing *ls, const char *src, struct st_attach_point *ap)
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
	if (ret && !ls->quiet)
		st_diag_print(stderr, &diag, src);
	if (ret)
		return ST_EXIT_USAGE;
	if (st_probe_kind(ap->kind)->runs != ST_RUNS_AT_EVENTS || !st_lex_at_end(&lx)) {
		if (!ls->quiet)
			st_errorf("-l '%s': a pattern is KIND:... as a probe is written "
				  "(side:TARGET[:PROVIDER]:EVENT, tracepoint:CATEGORY[:NAME], ...) "
				  "or a glob over them ('*sched_switch*'), '*' wildcards",
				  src);
		return ST_EXIT_USAGE;
	}
	return ST_EXIT_OK;
}

/* Keeps ev's line (and fields) when its line matches ls->glob (NULL: always). */
static int keep_probe(const struct st_event *ev, struct listing *ls)
{
	char *text = NULL, *nl;
	size_t len = 0;
	bool match;
	FILE *f;

	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	st_probe_print_text(f, ev, ls->verbose);
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	/* The glob is matched against the probe's line, not its fields. */
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	match = !ls->glob || !fnmatch(ls->glob, text, 0);
	if (nl)
		*nl = '\n';
	if (match && ls->nr_kept == ls->cap_kept) {
		size_t cap = ls->cap_kept ? 2 * ls->cap_kept : 64;
		char **v = realloc(ls->kept, cap * sizeof(*v));

		if (!v) {
			free(text);
			return -ENOMEM;
		}
		ls->kept = v;
		ls->cap_kept = cap;
	}
	if (!match) {
		free(text);
		return 0;
	}
	ls->kept[ls->nr_kept++] = text;
	ls->n++;
	return 0;
}

static int cmp_texts(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Prints the probes kept, sorted and each once, as bpftrace's -l prints its set. */
static void print_kept(struct listing *ls)
{
	size_t i;

	if (!ls->nr_kept)
		return;
	qsort(ls->kept, ls->nr_kept, sizeof(*ls->kept), cmp_texts);
	for (i = 0; i < ls->nr_kept; i++)
		if (!i || strcmp(ls->kept[i], ls->kept[i - 1]))
			fputs(ls->kept[i], stdout);
	for (i = 0; i < ls->nr_kept; i++)
		free(ls->kept[i]);
	ls->nr_kept = 0;
}

/*
 * Lists what ap names in target's file (ap's own target, or a file its
 * wildcards matched: then one that is no object, or has no such probe,
 * is passed over silently, as bpftrace's -l does). 0 or an exit status.
 */
static int list_target(struct listing *ls, const struct st_attach_point *ap, const char *target)
{
	const struct st_probe_query q = {.target = target,
					 .kind = ap->kind,
					 .function = ap->event,
					 .provider = ap->provider,
					 .query_for =
						 ls->verbose ? ST_QUERY_DECLS : ST_QUERY_NAMES};
	bool matched = target != ap->target;
	const struct st_event_list *l;
	char err[512];
	size_t i;

	l = st_target_query(ls->set, &q, err, sizeof(err));
	if (!l || (!l->nr && l->why_none)) {
		if (matched || ls->quiet)
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
			ls->siteless++;
			continue;
		}
		if (keep_probe(&l->events[i], ls)) {
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
static int list_files(struct listing *ls, const struct st_attach_point *ap)
{
	int status = ST_EXIT_OK, ret;
	struct stat st;
	glob_t files;
	size_t i;

	ret = glob(ap->target, 0, NULL, &files);
	if (ret == GLOB_NOMATCH && ls->quiet)
		return ST_EXIT_OK;
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
			status = list_target(ls, ap, files.gl_pathv[i]);
	globfree(&files);
	return status;
}

/* Lists what src (a whole pattern) names; 0 or an exit status. */
static int list_pattern(struct listing *ls, const char *src)
{
	struct st_attach_point ap = {0};
	int status;

	status = parse_pattern(ls, src, &ap);
	if (!status && !ls->set->pid && strchr(ap.target, '/') && strpbrk(ap.target, "*?["))
		status = list_files(ls, &ap);
	else if (!status)
		status = list_target(ls, &ap, ap.target);
	else if (status == ST_EXIT_USAGE && ls->quiet)
		status = ST_EXIT_OK;
	print_kept(ls);
	st_attach_point_fini(&ap);
	return status;
}

/*
 * After a listing of each kind found nothing: whether that is for want of
 * the file path (up to its ':') names; 0 or an exit status, said.
 */
static int no_file(const char *path, const struct listing *ls)
{
	size_t len = strcspn(path, ":");
	char *file;
	int status = ST_EXIT_OK;

	if (ls->n || ls->siteless || strcspn(path, "*?[") < len)
		return ST_EXIT_OK;
	file = strndup(path, len);
	if (!file) {
		st_errorf("out of memory");
		return ST_EXIT_FAIL;
	}
	if (access(file, F_OK)) {
		st_errorf("%s: %s", file, strerror(errno));
		status = ST_EXIT_FAIL;
	}
	free(file);
	return status;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * A pattern whose kind is a glob, with a path after it ('*:./app:*'):
 * the user-space kinds it matches (kinds/probe_kinds.h), in their names'
 * order, each as pattern's kind, as bpftrace's; one the rest of pattern
 * does not fit is passed over. kind_len: the glob's length. 0 or an exit
 * status.
 */
static int list_kinds(struct listing *ls, const char *pattern, size_t kind_len)
{
	const struct st_probe_kind *k;
	const char **names;
	char *glob, *src;
	size_t i, nr = 0;
	int status = ST_EXIT_OK;

	for (i = 0; st_probe_kind_nth(i); i++)
		;
	names = calloc(i, sizeof(*names));
	glob = strndup(pattern, kind_len);
	if (!names || !glob) {
		free(names);
		free(glob);
		st_errorf("out of memory");
		return ST_EXIT_FAIL;
	}
	for (i = 0; (k = st_probe_kind_glob_next(glob, ST_GLOB_USER, &i));)
		names[nr++] = k->name;
	qsort(names, nr, sizeof(*names), cmp_names);
	ls->quiet = true;
	for (i = 0; i < nr && status == ST_EXIT_OK; i++) {
		char *kind_src = NULL;

		if (asprintf(&kind_src, "%s%s", names[i], pattern + kind_len) < 0)
			kind_src = NULL;
		src = kind_src ? full_pattern(kind_src, ls->set->pid) : NULL;
		status = src ? list_pattern(ls, src) : ST_EXIT_FAIL;
		if (!src)
			st_errorf("out of memory");
		free(kind_src);
		free(src);
	}
	free(glob);
	free(names);
	return status ?: no_file(pattern + kind_len + 1, ls);
}

/*
 * What -l lists without a kind: the kernel's probes of each kind that
 * lists without a target, as bpftrace's -l, in the order of their words
 * (so the whole listing is sorted), functions where the kernel probes
 * them; with -p, the process's own (its executable's functions, as
 * bpftrace's, and every object's events).
 */
static const char *const process_patterns[] = {"uprobe::*", "side:*:*:*", "usdt:*:*:*"};

/* The kernel's patterns into out (room for 6): how many. */
static size_t kernel_patterns(const char **out)
{
	char why[256];
	size_t n = 0;

	out[n++] = "hardware:*";
	out[n++] = "iter:*";
	if (st_trampolines_supported())
		out[n++] = "fentry:*";
	if (st_kprobes_supported(why, sizeof(why)))
		out[n++] = "kprobe:*";
	out[n++] = "software:*";
	out[n++] = "tracepoint:*:*";
	return n;
}

int st_list_probes(const char *pattern, pid_t pid, bool verbose)
{
	const char *kernel[6];
	const char *const *srcs = pid ? process_patterns : kernel;
	size_t i, nr = pid ? sizeof(process_patterns) / sizeof(process_patterns[0])
			   : kernel_patterns(kernel);
	struct st_target_set set = {.pid = pid};
	size_t word = pattern ? strcspn(pattern, ":") : 0;
	struct listing ls = {.set = &set, .verbose = verbose, .quiet = pid != 0};
	bool glob_kind = pattern && strcspn(pattern, "*?[") < word;
	char *src = NULL;
	int status = ST_EXIT_OK;

	/*
	 * A pattern whose first word is no kind, and holds a wildcard or is
	 * the whole pattern, is a glob over every probe listed; but one with
	 * a path after it lists each user-space kind it matches.
	 */
	if (glob_kind && pattern[word] && st_kind_glob_set(pattern + word + 1) == ST_GLOB_USER) {
		status = list_kinds(&ls, pattern, word);
		goto done;
	}
	if (pattern && !st_probe_kind_named(pattern, word) && (!pattern[word] || glob_kind))
		ls.glob = pattern;
	if (pattern && !ls.glob) {
		ls.quiet = false;
		src = full_pattern(pattern, pid);
		if (!src) {
			st_errorf("out of memory");
			return ST_EXIT_FAIL;
		}
		srcs = (const char *const *)&src;
		nr = 1;
	}
	for (i = 0; i < nr && status == ST_EXIT_OK; i++)
		status = list_pattern(&ls, srcs[i]);
done:
	if (status == ST_EXIT_OK && !ls.n) {
		status = ST_EXIT_FAIL;
		pattern = src ? src : pattern;
		if (ls.siteless)
			st_errorf("no probe matches %s: the %zu event%s it matches %s no call "
				  "sites (delivered to in-process tracers only, never to a probe)",
				  pattern, ls.siteless, ls.siteless == 1 ? "" : "s",
				  ls.siteless == 1 ? "has" : "have");
		else
			st_errorf("no probe matches %s", pattern ? pattern : "any pattern");
	}
	st_target_set_free(&set);
	free(ls.kept);
	free(src);
	return status;
}
