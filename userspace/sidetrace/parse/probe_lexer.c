// SPDX-License-Identifier: MIT
/*
 * Attach points, as their kind's row (kinds/probe_kinds.h) says they are
 * written: st_lex_attach_point() of lexer.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strndup, strdup with any -std */
#endif
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/perf_events.h"
#include "kinds/probe_kinds.h"
#include "kinds/watch_spec.h"
#include "parse/lex_scan.h"
#include "parse/lexer.h"
#include "util/textbuf.h"

/*
 * What ends a probe's TARGET and, in a user-space (DWARF) or kernel
 * function, its FUNCTION, besides blanks: a word holding one is written
 * in double quotes.
 */
static const char target_stop[] = ":,{}()";
static const char ufunc_stop[] = ",{}";
static const char kfunc_stop[] = ",{}/";

static bool plain_word(const char *s, const char *stop)
{
	if (!*s || *s == '"')
		return false;
	for (; *s; s++)
		if (isspace((unsigned char)*s) || strchr(stop, *s))
			return false;
	return true;
}

bool st_lex_plain_target(const char *s)
{
	return plain_word(s, target_stop);
}

bool st_lex_plain_function(const char *s, bool kernel)
{
	return plain_word(s, kernel ? kfunc_stop : ufunc_stop);
}

/*
 * At "$N": positional parameter N's text appended to tb ("" when not
 * given, as bpftrace expands it), the lexer past it; bpftrace expands
 * them anywhere in an attach point outside double quotes
 * (uprobe:$1:main, BEG$1). False elsewhere.
 */
static bool posarg(struct st_lexer *lx, struct st_textbuf *tb)
{
	uint64_t n = 0;

	if (peek(lx, 0) != '$' || !isdigit((unsigned char)peek(lx, 1)))
		return false;
	bump(lx);
	for (; isdigit((unsigned char)peek(lx, 0)); bump(lx))
		n = n > lx->nr_args ? n : n * 10 + (peek(lx, 0) - '0');
	if (n >= 1 && n <= lx->nr_args)
		st_tb_puts(tb, lx->args[n - 1]);
	return true;
}

/* Characters of a word that ends at a blank or a stop character. */
static bool not_stop(char c, const char *stop)
{
	return c && !isspace((unsigned char)c) && !strchr(stop, c);
}

/* Characters of a name (a kind, a unit): letters, digits and '_'. */
static bool name_char(char c, const char *stop)
{
	(void)stop;
	return is_ident_char(c);
}

/* The characters at lx that accept takes, positional parameters expanded, into tb. */
static void scan_into(struct st_lexer *lx, bool (*accept)(char c, const char *stop),
		      const char *stop, struct st_textbuf *tb)
{
	for (;;) {
		if (posarg(lx, tb))
			continue;
		if (!accept(peek(lx, 0), stop))
			break;
		st_tb_putc(tb, peek(lx, 0));
		bump(lx);
	}
}

/* A word that accept takes (malloc'd, NULL when out of memory). */
static char *scan_word(struct st_lexer *lx, bool (*accept)(char c, const char *stop),
		       const char *stop)
{
	struct st_textbuf tb = {0};

	scan_into(lx, accept, stop, &tb);
	return st_tb_take(&tb);
}

/* Scans a word of a probe spec up to one of the stop characters. */
static char *probe_word(struct st_lexer *lx, const char *stop)
{
	return scan_word(lx, not_stop, stop);
}

/* A path in double quotes may hold any character but '"' and newline. */
static char *quoted_target(struct st_lexer *lx)
{
	struct st_token tok = {.pos = lx->pos, .off = lx->off};

	if (st_lex_scan_string(lx, &tok))
		return NULL;
	tok.len = lx->off - tok.off;
	return st_lex_string(lx, &tok);
}

/*
 * A word of a probe spec up to one of the stop characters outside double
 * quotes, the quotes dropped and their escapes read, as bpftrace's
 * attach points are split: "provider":"name", edge:"kon"st, "\"p\"". A
 * '*' stays a glob, quoted or not. NULL with a diagnostic, or without
 * one when out of memory.
 */
static char *quoted_word(struct st_lexer *lx, const char *stop)
{
	struct st_textbuf tb = {0};
	char *part, unquoted[16];

	/* An unquoted part ends at a quote too. */
	snprintf(unquoted, sizeof(unquoted), "%s\"", stop);
	while (not_stop(peek(lx, 0), stop)) {
		if (peek(lx, 0) != '"') {
			scan_into(lx, not_stop, unquoted, &tb);
			continue;
		}
		part = quoted_target(lx);
		if (!part) {
			st_tb_free(&tb);
			return NULL;
		}
		st_tb_puts(&tb, part);
		free(part);
	}
	return st_tb_take(&tb);
}

/*
 * One ':'-separated word of an event probe, a_what ("a provider") saying
 * what it is in messages; NULL with a diagnostic when it is empty.
 */
static char *event_word(struct st_lexer *lx, const struct st_probe_kind *k, const char *a_what,
			struct st_pos *pos)
{
	const char *what = strchr(a_what, ' ') + 1;
	/* '/' may start the filter after the event; paths hold it. */
	static const char name_stop[] = ":,{}/()";
	char *w;

	if (peek(lx, 0) != ':') {
		fail(lx, lx->pos, "expected ':' before the %s (%s)", what, k->syntax);
		return NULL;
	}
	bump(lx);
	*pos = lx->pos;
	w = quoted_word(lx, name_stop);
	/* usdt:TARGET::NAME, as bpftrace writes it: any provider. */
	if (w && !w[0] && k->provider_optional && a_what == k->provider_word &&
	    peek(lx, 0) == ':') {
		free(w);
		return strdup("*");
	}
	if (w && !w[0]) {
		free(w);
		fail(lx, *pos, "expected %s name or '*' (%s)", a_what, k->syntax);
		return NULL;
	}
	return w;
}

/*
 * After uprobe:TARGET: the function, up to what ends a probe. A C++ name
 * may hold "::" and a signature ("Calc::add(int)"); one with blanks is
 * quoted ("Calc::add(long, long)"). A Go name holds its package's import
 * path ("net/http.(*conn).serve"): in a program's function a '/' is part
 * of the name, and a filter after it is set apart by a blank, as
 * bpftrace's grammar has it; a kernel function ends at a '/'. "+OFFSET"
 * stays in it.
 */
static int lex_function(struct st_lexer *lx, const struct st_probe_kind *k,
			struct st_attach_point *p)
{
	const char *stop = k->has_target ? ufunc_stop : kfunc_stop;

	if (peek(lx, 0) != ':')
		return fail(lx, lx->pos, "expected ':' before the function (%s)", k->syntax);
	bump(lx);
	p->provider = strdup("");
	p->event_pos = p->provider_pos = lx->pos;
	/* A quoted name's +OFFSET follows the quote: "echo_builtin"+0, as bpftrace's. */
	p->event = quoted_word(lx, stop);
	if (!p->event && st_diag_is_set(lx->diag))
		return -1;
	if (!p->provider || !p->event)
		return -ENOMEM;
	if (!p->event[0])
		return fail(lx, p->event_pos, "expected a function name or a pattern (%s)",
			    k->syntax);
	/*
	 * bpftrace 0.17 takes no kprobe:MODULE:FUNCTION either, only
	 * kfunc:MODULE:FUNCTION (the source splits it); a tracepoint's name is one.
	 */
	if (!k->has_target && k->module_optional && strchr(p->event, ':') != strrchr(p->event, ':'))
		return fail(lx, p->event_pos,
			    "%s: names one kernel function, of a module or not (%s), and '%s' "
			    "has more than one ':'",
			    k->name, k->syntax, p->event);
	if (!k->has_target && !k->module_optional && strchr(p->event, ':'))
		return fail(lx, p->event_pos,
			    "%s: names one kernel function (%s), and '%s' has a ':': a "
			    "tracepoint is tracepoint:%s",
			    k->name, k->syntax, p->event, p->event);
	return 0;
}

/* kind:TARGET, the file of an event probe: into p->target. */
static int lex_target(struct st_lexer *lx, const struct st_probe_kind *k, struct st_attach_point *p)
{
	if (peek(lx, 0) != ':')
		return fail(lx, lx->pos, "expected ':' before the target (%s)", k->syntax);
	bump(lx);
	p->target_pos = lx->pos;
	p->target = quoted_word(lx, target_stop);
	if (!p->target)
		return st_diag_is_set(lx->diag) ? -1 : -ENOMEM;
	if (!p->target[0] && peek(lx, 0) != ':')
		return fail(lx, p->target_pos,
			    "expected a target after '%s:': a path (./app, /usr/lib/libfoo.so) "
			    "or a library name (libfoo)",
			    k->name);
	return 0;
}

/*
 * A probe on events, as its kind's row says: [TARGET:]PROVIDER:EVENT,
 * PROVIDER optional where the row says so (a usdt: probe without one
 * matches the name in every provider, as bpftrace's), or
 * [TARGET:]FUNCTION[+OFFSET].
 */
static int lex_event_probe(struct st_lexer *lx, const struct st_probe_kind *k,
			   struct st_attach_point *p)
{
	char *last;
	int ret;

	p->kind = k->kind;
	if (k->has_target) {
		ret = lex_target(lx, k, p);
		if (ret)
			return ret;
	} else {
		p->target_pos = lx->pos;
		p->target = strdup("");
		if (!p->target)
			return -ENOMEM;
	}
	if (st_probe_kind_function(k))
		return lex_function(lx, k, p);
	p->provider = event_word(lx, k, k->provider_word, &p->provider_pos);
	if (!p->provider)
		return st_diag_is_set(lx->diag) ? -1 : -ENOMEM;
	if ((k->provider_optional || (k->provider_optional_glob && strchr(p->provider, '*'))) &&
	    peek(lx, 0) != ':') {
		/* usdt:TARGET:NAME, tracepoint:*NAME* */
		p->event = p->provider;
		p->event_pos = p->provider_pos;
		p->provider = strdup("*");
		return p->provider ? 0 : -ENOMEM;
	}
	last = event_word(lx, k, k->event_word, &p->event_pos);
	if (!last)
		return st_diag_is_set(lx->diag) ? -1 : -ENOMEM;
	p->event = last;
	if (peek(lx, 0) == ':')
		return fail(lx, lx->pos, "too many ':' in probe: expected %s", k->syntax);
	return 0;
}

/*
 * A probe's count, 1 or more, as written into *text and its value into
 * *n, what it counts said in messages. 0, or -1 with a diagnostic.
 */
static int lex_count(struct st_lexer *lx, const struct st_probe_kind *k, const char *counts,
		     uint64_t *n, char **text, struct st_pos *pos)
{
	struct st_diag why = {0};
	struct st_lexer word;
	struct st_token tok;

	*pos = lx->pos;
	*n = 0;
	*text = scan_word(lx, name_char, NULL);
	if (!*text)
		return -ENOMEM;
	/* An integer literal as the program's are written: 1000, 1e3, 1_000, 0x3e8. */
	st_lex_init(&word, *text, lx->filename, &why);
	if (!isdigit((unsigned char)**text))
		return fail(lx, *pos, "expected a positive number of %s: %s", counts, k->syntax);
	if (st_lex_next(&word, &tok))
		return fail(lx, *pos,
			    strstr(why.msg, "too large") ? "too many %s: %s"
							 : "expected a positive number of %s: %s",
			    counts, k->syntax);
	if (tok.kind != T_INT || tok.len != strlen(*text) || !tok.ival)
		return fail(lx, *pos, "expected a positive number of %s: %s", counts, k->syntax);
	*n = tok.ival;
	return 0;
}

/* The period of N units: 0, or -1 with a diagnostic when it does not fit. */
static int period_ns(struct st_lexer *lx, const struct st_probe_kind *k,
		     const struct st_period_unit *u, uint64_t n, struct st_pos pos, uint64_t *ns)
{
	if (u->ns && n > UINT64_MAX / u->ns)
		return fail(lx, pos, "too many %s: %s", u->counts, k->syntax);
	if (!u->ns && n > 1000000000ULL)
		return fail(lx, pos, "at most 1000000000 times a second: %s", k->syntax);
	*ns = u->ns ? n * u->ns : 1000000000ULL / n;
	/* Sampling faster is the kernel's time, not the traced program's. */
	if (k->runs == ST_RUNS_AT_EVENTS && *ns < 1000000000ULL / ST_MAX_SAMPLE_HZ)
		return fail(lx, pos, "%s: samples at most %d times a second (a period of %d us)",
			    k->name, ST_MAX_SAMPLE_HZ, 1000000 / ST_MAX_SAMPLE_HZ);
	return 0;
}

/*
 * The start of a probe without a target (KIND:WORD...): its kind, an
 * empty target, and the ':' before its first word, what.
 */
static int no_target(struct st_lexer *lx, const struct st_probe_kind *k, struct st_attach_point *p,
		     const char *what)
{
	p->kind = k->kind;
	p->target_pos = lx->pos;
	p->target = strdup("");
	if (!p->target)
		return -ENOMEM;
	if (peek(lx, 0) != ':')
		return fail(lx, lx->pos, "expected ':' before the %s (%s)", what, k->syntax);
	bump(lx);
	p->provider_pos = lx->pos;
	return 0;
}

/*
 * KIND:UNIT:N (profile:, interval:): provider keeps the unit and event the
 * count as written, interval_ns the period (1e9 / N for hz).
 */
static int lex_period(struct st_lexer *lx, const struct st_probe_kind *k, struct st_attach_point *p)
{
	const struct st_period_unit *u;
	uint64_t n;
	int ret;

	ret = no_target(lx, k, p, "unit");
	if (ret)
		return ret;
	p->provider = scan_word(lx, name_char, NULL);
	if (!p->provider)
		return -ENOMEM;
	u = st_period_unit(p->provider, strlen(p->provider));
	if (!u)
		return fail(lx, p->provider_pos, "expected a unit, %s: %s", ST_PERIOD_UNITS,
			    k->syntax);
	if (peek(lx, 0) != ':')
		return fail(lx, lx->pos, "expected ':' before the number of %s (%s)", u->counts,
			    k->syntax);
	bump(lx);
	ret = lex_count(lx, k, u->counts, &n, &p->event, &p->event_pos);
	return ret ? ret : period_ns(lx, k, u, n, p->event_pos, &p->interval_ns);
}

/*
 * KIND:EVENT[:COUNT] (software:, hardware:): provider is the event as
 * written, a glob for -l, event the count as written or "" when left out
 * (the event's default, kinds/perf_events.h).
 */
static int lex_perf(struct st_lexer *lx, const struct st_probe_kind *k, struct st_attach_point *p)
{
	static const char event_stop[] = ":,{}/()";
	uint64_t n;

	int ret = no_target(lx, k, p, "event");

	if (ret)
		return ret;
	p->provider = probe_word(lx, event_stop);
	if (!p->provider)
		return -ENOMEM;
	if (!p->provider[0])
		return fail(lx, p->provider_pos, "expected an event name or '*' (%s)", k->syntax);
	p->event_pos = lx->pos;
	if (peek(lx, 0) != ':') {
		p->event = strdup("");
		return p->event ? 0 : -ENOMEM;
	}
	bump(lx);
	return lex_count(lx, k, "events between samples", &n, &p->event, &p->event_pos);
}

/*
 * KIND:WHERE:LEN:MODE (watchpoint:, asyncwatchpoint:): provider keeps
 * WHERE (ADDR, or FUNCTION+argN, a glob), event "LEN:MODE", both as
 * written; the words are checked here, where the probe is.
 */
static int lex_watch(struct st_lexer *lx, const struct st_probe_kind *k, struct st_attach_point *p)
{
	static const char word_stop[] = ":,{}/()";
	struct st_watch_spec w;
	struct st_textbuf tb = {0};
	char err[256], *word;
	int i, ret;

	ret = no_target(lx, k, p, "address");
	if (ret)
		return ret;
	p->provider = probe_word(lx, word_stop);
	if (!p->provider)
		return -ENOMEM;
	p->event_pos = lx->pos;
	for (i = 0; i < 2 && peek(lx, 0) == ':'; i++) {
		bump(lx);
		word = probe_word(lx, word_stop);
		if (!word) {
			st_tb_free(&tb);
			return -ENOMEM;
		}
		st_tb_puts(&tb, i ? ":" : "");
		st_tb_puts(&tb, word);
		free(word);
	}
	p->event = st_tb_take(&tb);
	if (!p->event)
		p->event = strdup("");
	if (!p->event)
		return -ENOMEM;
	if (i < 2 || peek(lx, 0) == ':')
		return fail(lx, p->pos, "%s probe type requires 3 arguments: %s", k->name,
			    k->syntax);
	ret = st_watch_spec_parse(k, p->provider, p->event, &w, err, sizeof(err));
	st_watch_spec_free(&w);
	if (ret == -ENOMEM)
		return ret;
	return ret ? fail(lx, p->pos, "%s", err) : 0;
}

/*
 * KIND:TARGET (iter:): event keeps TARGET as written, a glob for -l.
 * bpftrace's iter:TARGET:PIN pins the iterator for readers to come; it is
 * refused: what the program prints reaches the collector that runs it.
 */
static int lex_iter(struct st_lexer *lx, const struct st_probe_kind *k, struct st_attach_point *p)
{
	static const char word_stop[] = ":,{}/()";
	int ret = no_target(lx, k, p, "iterator");

	if (ret)
		return ret;
	p->provider = strdup("");
	p->event_pos = lx->pos;
	p->event = p->provider ? probe_word(lx, word_stop) : NULL;
	if (!p->event)
		return -ENOMEM;
	if (!p->event[0])
		return fail(lx, p->event_pos,
			    "expected an iterator's name or '*' (%s): sidetrace -l 'iter:*' lists "
			    "this kernel's",
			    k->syntax);
	if (peek(lx, 0) == ':')
		return fail(lx, lx->pos,
			    "sidetrace pins no iterator (%s:%s:PIN): what its program prints goes "
			    "to the sidetrace that runs it, not to a later reader of the pinned "
			    "file; run the program when you want its output",
			    k->name, p->event);
	return 0;
}

/* The attach point of kind k, named name (its parameters expanded), after its name. */
static int attach_point_of(struct st_lexer *lx, const struct st_probe_kind *k, const char *name,
			   struct st_attach_point *p)
{
	const char *expected = st_probe_kinds_syntax();
	size_t len = strlen(name);

	if (k && (k->form == ST_FORM_EVENT || k->form == ST_FORM_FUNCTION))
		return lex_event_probe(lx, k, p);
	if (k && k->form == ST_FORM_PERIOD)
		return lex_period(lx, k, p);
	if (k && k->form == ST_FORM_PERF)
		return lex_perf(lx, k, p);
	if (k && k->form == ST_FORM_WATCH)
		return lex_watch(lx, k, p);
	if (k && k->form == ST_FORM_ITER)
		return lex_iter(lx, k, p);
	if (k && peek(lx, 0) != ':') {
		p->kind = k->kind;
		return 0;
	}
	if (!len)
		return fail(lx, p->pos, "expected a probe: %s", expected);
	if (st_probe_kind_missing(name, len))
		return fail(lx, p->pos, "sidetrace has no %.*s: probes yet: %s", (int)len, name,
			    st_probe_kind_missing(name, len));
	return fail(lx, p->pos, "unknown probe type '%.*s': expected %s", (int)len, name, expected);
}

/* Characters of a probe's kind: a name's, and '*' for a glob over kinds (t*point:). */
static bool kind_char(char c, const char *stop)
{
	(void)stop;
	return is_ident_char(c) || c == '*';
}

/* The rows' names of set that glob matches, for messages. */
static void kind_names(const char *glob, enum st_kind_glob set, struct st_textbuf *tb)
{
	const struct st_probe_kind *k;
	size_t i = 0;

	while ((k = st_probe_kind_glob_next(glob, set, &i)))
		st_tb_printf(tb, "%s%s", tb->len ? ", " : "", k->name);
}

/*
 * A probe whose kind is a glob (t*point:sched:sched_switch): the
 * probe as each kind of its set (kinds/probe_kinds.h) that the glob
 * matches, one attach point each, as bpftrace expands it; a kind the
 * rest is not written for is passed over, as bpftrace passes it over.
 */
static int kind_glob(struct st_lexer *lx, const char *glob, struct st_pos pos, st_point_slot slot,
		     void *ctx)
{
	enum st_kind_glob set =
		lx->user_kinds ? ST_GLOB_USER
			       : st_kind_glob_set(lx->src + lx->off + (peek(lx, 0) == ':'));
	struct st_lexer end = *lx, each;
	const struct st_probe_kind *k;
	struct st_attach_point p, *out;
	struct st_textbuf names = {0};
	size_t i = 0, nr = 0;
	struct st_diag skipped;
	int ret;

	while ((k = st_probe_kind_glob_next(glob, set, &i))) {
		each = *lx;
		each.diag = &skipped;
		memset(&skipped, 0, sizeof(skipped));
		p = (struct st_attach_point){.pos = pos, .kind_glob = true};
		ret = attach_point_of(&each, k, k->name, &p);
		/* The kinds that fit must read the same text, or the probe is not one probe. */
		if (!ret && (!nr || each.off == end.off)) {
			out = slot(ctx);
			if (!out) {
				st_attach_point_fini(&p);
				return -ENOMEM;
			}
			*out = p;
			end = each;
			nr++;
			continue;
		}
		st_attach_point_fini(&p);
		if (ret == -ENOMEM)
			return ret;
	}
	if (nr) {
		end.diag = lx->diag;
		*lx = end;
		return 0;
	}
	kind_names(glob, set, &names);
	if (names.len) {
		ret = fail(lx, pos,
			   "'%s' matches the probe types %s, and the probe is written as none "
			   "of them",
			   glob, names.s);
	} else {
		kind_names("*", set, &names);
		ret = fail(lx, pos, "no probe type matches '%s': it is matched against %s%s", glob,
			   names.s ? names.s : "",
			   set == ST_GLOB_USER
				   ? " (the probe names a path, or -p a process)"
				   : " (with a path after it or -p, the user-space kinds)");
	}
	st_tb_free(&names);
	return ret;
}

/* A probe's kind at lx, its first character's place into *pos: NULL when out of memory. */
static char *kind_word(struct st_lexer *lx, struct st_pos *pos, int *err)
{
	char *name;

	*err = st_lex_skip_space(lx);
	if (*err)
		return NULL;
	*pos = lx->pos;
	name = scan_word(lx, kind_char, NULL);
	if (!name)
		*err = -ENOMEM;
	return name;
}

int st_lex_attach_points(struct st_lexer *lx, st_point_slot slot, void *ctx)
{
	struct st_attach_point *p;
	struct st_pos pos;
	char *name;
	int err;

	name = kind_word(lx, &pos, &err);
	if (!name)
		return err;
	if (strchr(name, '*')) {
		err = kind_glob(lx, name, pos, slot, ctx);
	} else if ((p = slot(ctx))) {
		p->pos = pos;
		err = attach_point_of(lx, st_probe_kind_named(name, strlen(name)), name, p);
	} else {
		err = -ENOMEM;
	}
	free(name);
	return err;
}

int st_lex_attach_point(struct st_lexer *lx, struct st_attach_point *p)
{
	char *name;
	int err;

	name = kind_word(lx, &p->pos, &err);
	if (!name)
		return err;
	if (strchr(name, '*'))
		err = fail(lx, p->pos, "'%s': one kind is expected here, not a glob over kinds",
			   name);
	else
		err = attach_point_of(lx, st_probe_kind_named(name, strlen(name)), name, p);
	free(name);
	return err;
}
