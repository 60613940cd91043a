// SPDX-License-Identifier: MIT
/*
 * Unit tests of the checker: hand-built events (no ELF file), one program
 * per check, the error's position and message, and the annotations left for
 * the compile step.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "side/usdt_view.h"
#include "check/checker.h"
#include "parse/parser.h"

#include "unit.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define INT(l, sz, sgn) \
	{ \
		.label = (l), .size = (sz), .is_signed = (sgn) \
	}

static struct st_type s8_type = INT(SIDE_TYPE_S8, 1, true);
static struct st_type u16_type = INT(SIDE_TYPE_U16, 2, false);
static struct st_type u32_type = INT(SIDE_TYPE_U32, 4, false);
static struct st_field hdr_fields[] = {
	{"len", INT(SIDE_TYPE_U32, 4, false)},
	{"name", {.label = SIDE_TYPE_STRING_UTF8, .size = 1}},
};
static struct st_field request_fields[] = {
	{"method", {.label = SIDE_TYPE_STRING_UTF8, .size = 1}},
	{"path", {.label = SIDE_TYPE_STRING_UTF8, .size = 1}},
	{"status", INT(SIDE_TYPE_U16, 2, false)},
	{"latency_us", INT(SIDE_TYPE_U64, 8, false)},
	{"delta", INT(SIDE_TYPE_S32, 4, true)},
	{"hdr",
	 {.label = SIDE_TYPE_STRUCT, .fields = hdr_fields, .nr_fields = ARRAY_SIZE(hdr_fields)}},
	{"codes", {.label = SIDE_TYPE_ARRAY, .array_len = 4, .elem = &u16_type}},
	{"tags", {.label = SIDE_TYPE_VLA, .elem = &u32_type}},
	{"ratio", {.label = SIDE_TYPE_FLOAT_BINARY64, .size = 8}},
	{"ok", {.label = SIDE_TYPE_BOOL, .size = 1}},
	{"level", {.label = SIDE_TYPE_ENUM, .elem = &s8_type}},
};
static struct st_field response_fields[] = {
	{"status", INT(SIDE_TYPE_U16, 2, false)},
	{"latency_us", INT(SIDE_TYPE_S64, 8, true)},
	{"method", INT(SIDE_TYPE_U32, 4, false)},
};
static struct st_field query_fields[] = {
	{"sql", {.label = SIDE_TYPE_STRING_UTF8, .size = 1}},
	{"rows", INT(SIDE_TYPE_U32, 4, false)},
};
static struct st_field log_fields[] = {
	{"msg", {.label = SIDE_TYPE_STRING_UTF8, .size = 1}},
};
/* Every event of ./app has a call site: no probe attaches to one without. */
static struct st_site one_site;
static struct st_event app_events[] = {
	{.path = "./app",
	 .sites = &one_site,
	 .nr_sites = 1,
	 .provider = "http",
	 .name = "request",
	 .usdt_provider = "http",
	 .usdt_name = "request",
	 .has_side = true,
	 .fields = request_fields,
	 .nr_fields = ARRAY_SIZE(request_fields)},
	{.path = "./app",
	 .sites = &one_site,
	 .nr_sites = 1,
	 .provider = "http",
	 .name = "response",
	 .usdt_provider = "http",
	 .usdt_name = "response",
	 .has_side = true,
	 .fields = response_fields,
	 .nr_fields = ARRAY_SIZE(response_fields)},
	{.path = "./app",
	 .sites = &one_site,
	 .nr_sites = 1,
	 .provider = "db",
	 .name = "query",
	 .usdt_provider = "db",
	 .usdt_name = "query",
	 .has_side = true,
	 .fields = query_fields,
	 .nr_fields = ARRAY_SIZE(query_fields)},
	{.path = "./app",
	 .sites = &one_site,
	 .nr_sites = 1,
	 .provider = "legacy",
	 .name = "tick",
	 .usdt_provider = "legacy",
	 .usdt_name = "tick"},
	{.path = "./app",
	 .sites = &one_site,
	 .nr_sites = 1,
	 .provider = "app",
	 .name = "log",
	 .usdt_provider = "app",
	 .usdt_name = "log",
	 .has_side = true,
	 .variadic = true,
	 .fields = log_fields,
	 .nr_fields = ARRAY_SIZE(log_fields)},
};
static const struct st_event_list app = {.events = app_events, .nr = ARRAY_SIZE(app_events)};
/* A library whose statedump events, as libside.so's, no call site emits. */
static struct st_event lib_events[] = {
	{.path = "./lib",
	 .provider = "lib",
	 .name = "op",
	 .usdt_provider = "lib",
	 .usdt_name = "op",
	 .has_side = true,
	 .sites = &one_site,
	 .nr_sites = 1},
	{.path = "./lib",
	 .provider = "side",
	 .name = "statedump_begin",
	 .usdt_provider = "side",
	 .usdt_name = "statedump_begin",
	 .has_side = true},
};
static const struct st_event_list lib = {.events = lib_events, .nr = ARRAY_SIZE(lib_events)};
static const struct st_event_list empty = {0};

static struct st_event_list app_usdt;

static const struct st_event_list *target_events(void *ctx, const struct st_probe_query *q,
						 char *err, size_t err_size)
{
	const char *target = q->target;

	(void)ctx;
	if (!strcmp(target, "./app") && q->kind == ST_AP_USDT) {
		if (!app_usdt.events && st_usdt_view(&app, &app_usdt))
			return NULL;
		return &app_usdt;
	}
	if (!strcmp(target, "./app"))
		return &app;
	if (!strcmp(target, "./lib"))
		return &lib;
	if (!strcmp(target, "./empty"))
		return &empty;
	snprintf(err, err_size, "no such file");
	return NULL;
}

static const struct st_event_source source = {target_events, NULL, ST_MISSING_ERROR};

/* Parses and checks src; the program on success, NULL (diag set) if not. */
static struct st_program *check(const char *src, struct st_diag *d)
{
	struct st_program *prog;

	if (st_parse(src, "program", &prog, d)) {
		printf("unexpected parse error: %s\n", d->msg);
		return NULL;
	}
	if (st_check(prog, &source, d)) {
		st_program_free(prog);
		return NULL;
	}
	return prog;
}

static void check_ok(const char *name, const char *src)
{
	struct st_diag d;
	struct st_program *prog = check(src, &d);

	ok(prog != NULL, name);
	if (!prog)
		st_diag_print(stdout, &d, src);
	st_program_free(prog);
}

/* The error must be at line:col and its message (hint) contain msg (hint). */
static void check_err(const char *name, const char *src, uint32_t line, uint32_t col,
		      const char *msg, const char *hint)
{
	struct st_diag d;
	struct st_program *prog = check(src, &d);
	bool good = !prog && d.line == line && d.col == col && strstr(d.msg, msg) &&
		    (!hint || strstr(d.hint, hint));

	ok(good, name);
	if (!good) {
		printf("  want %u:%u \"%s\" / \"%s\"; got:\n", line, col, msg, hint ? hint : "");
		st_diag_print(stdout, &d, src);
	}
	st_program_free(prog);
}

static void test_accepts(void)
{
	check_ok("count per method", "side:./app:http:request { @[args.method] = count(); }");
	check_ok("filter, string equality, struct member, array, vla",
		 "side:./app:http:request /args.method == \"GET\" && args.status >= 500/ {\n"
		 "  @lat[args.path, args.hdr.len] = hist(args.latency_us / 1000);\n"
		 "  @c = lhist(args.codes[3], 0, 1000, 100);\n"
		 "  @t = sum(args.tags[7] + args.delta);\n"
		 "  @e[args.level, args.ok] = stats(args.hdr.len);\n"
		 "}\n"
		 "interval:s:1 { print(@lat); clear(@lat); zero(@c); }\n"
		 "END { print(@t); exit(); }");
	check_ok("builtins",
		 "side:./app:db:query { @[comm, pid, probe] = avg(nsecs - cpu + uid * tid); }");
	check_ok("wildcard over compatible fields",
		 "side:./app:http:* { @[probe] = max(args.status); }");
	check_ok("print of a map assigned further down",
		 "END { print(@x) } side:./app:db:query { @x = min(args.rows) }");
	check_ok("usdt names match", "side:./app:legacy:tick { @ = count() }");
}

/* A wildcard matches what can be attached: the events with call sites. */
static void test_siteless_skipped(void)
{
	static const char src[] = "side:./lib:*:* { @ = count() }";
	struct st_program *prog;
	struct st_diag d;

	prog = check(src, &d);
	ok(prog && prog->clauses[0].nr_events == 1 && prog->clauses[0].events[0] == &lib_events[0],
	   "a wildcard skips the events with no call sites");
	if (!prog)
		st_diag_print(stdout, &d, src);
	st_program_free(prog);
}

static void test_events(void)
{
	check_err("argN in a side: probe", "side:./app:http:request { @x = sum(arg1) }", 1, 36,
		  "'arg1' is an SDT operand of usdt: probes: SIDE fields have names, use "
		  "args.FIELD",
		  NULL);
	check_err("argN in BEGIN", "BEGIN { @x = sum(arg1) }", 1, 18,
		  "args is not available in BEGIN: only side: and usdt: probes have args", NULL);
	check_err("unknown event suggests", "side:./app:http:reqest { @ = count() }", 1, 12,
		  "unknown SIDE event http:reqest in ./app", "did you mean http:request?");
	check_err("unknown event lists", "side:./app:foo:bar { @ = count() }", 1, 12,
		  "unknown SIDE event foo:bar in ./app",
		  "SIDE events of ./app: http:request, http:response, db:query, legacy:tick");
	check_err("wildcard matching nothing", "BEGIN {}\nside:./app:nope:* { @ = count() }", 2, 12,
		  "no SIDE event of ./app matches nope:*", "SIDE events of ./app:");
	check_err("unreadable target", "side:./gone:a:b { @ = count() }", 1, 6,
		  "cannot read the events of ./gone: no such file", NULL);
	check_err("target without events", "side:./empty:a:b { @ = count() }", 1, 6,
		  "./empty has no SIDE event", NULL);
	check_err("an event with no call sites, named",
		  "side:./lib:side:statedump_begin { @ = count() }", 1, 12,
		  "side:statedump_begin has no call sites in ./lib: it is delivered to in-process "
		  "tracers only, never to a probe",
		  NULL);
	check_err("a wildcard matching only events with no call sites",
		  "side:./lib:side:* { @ = count() }", 1, 12,
		  "the events of ./lib that side:* matches have no call sites: they are delivered "
		  "to in-process tracers only, never to a probe",
		  NULL);
	test_siteless_skipped();
}

static void test_fields(void)
{
	check_err("unknown field lists fields", "side:./app:db:query { @ = sum(args.row) }", 1, 36,
		  "event db:query has no field 'row'; its fields: sql, rows", "did you mean rows?");
	check_err("unknown member", "side:./app:http:request { @ = sum(args.hdr.size) }", 1, 44,
		  "struct args.hdr has no member 'size'; its members: len, name", NULL);
	check_err(".sub on a non-struct", "side:./app:http:request { @ = sum(args.status.x) }", 1,
		  47, "args.status is not a struct (it is u16)", NULL);
	check_err("[i] on a non-array", "side:./app:http:request { @ = sum(args.status[1]) }", 1,
		  46,
		  "args.status is not an array (it is u16): [i] applies to array and vla fields",
		  NULL);
	check_err("index out of bounds", "side:./app:http:request { @ = sum(args.codes[4]) }", 1,
		  45, "index 4 is out of bounds: args.codes has 4 elements (0 to 3)", NULL);
	check_err("struct used as a value", "side:./app:http:request { @ = sum(args.hdr) }", 1, 35,
		  "args.hdr is a struct: use one of its members", NULL);
	check_err("array used as a value", "side:./app:http:request { @[args.codes] = count() }", 1,
		  29, "args.codes is an array (array): use an element", NULL);
	check_ok("float field printed", "side:./app:http:request { printf(\"%.2f %e %G\\n\", "
					"args.ratio, args.ratio, args.ratio); print(args); }");
	check_err("float field computed with", "side:./app:http:request { @ = sum(args.ratio) }", 1,
		  35,
		  "args.ratio is a floating-point value (float64): BPF has no floating point, so "
		  "sidetrace prints it but cannot compute with it",
		  "print it: printf(\"%f\\n\", args.ratio), or print(args)");
	check_err("float field inside a printf argument",
		  "side:./app:http:request { printf(\"%f\", -args.ratio) }", 1, 41,
		  "args.ratio is a floating-point value (float64)", NULL);
	check_err("float field as a map key", "side:./app:http:request { @[args.ratio] = count() }",
		  1, 29, "args.ratio is a floating-point value (float64)", NULL);
	check_err("printf: float for %d", "side:./app:http:request { printf(\"%d\", args.ratio) }",
		  1, 40, "printf: argument 1 is a floating-point value: print it with %f, %e or %g",
		  NULL);
	check_err("printf: integer for %f", "BEGIN { printf(\"%f\", 1) }", 1, 22,
		  "printf: argument 1 is an integer, but its conversion prints a floating-point "
		  "value: use %d, %u or %x",
		  NULL);
	check_err("printf: length modifier of %f", "BEGIN { printf(\"%hf\", 1) }", 1, 18,
		  "printf: %f takes no length modifier", NULL);
	check_err("field missing in one matched event",
		  "side:./app:http:request, side:./app:http:response { @ = sum(args.delta) }", 1,
		  66, "event http:response has no field 'delta'", "this clause matches 2 events");
	check_err("field of incompatible types across events",
		  "side:./app:http:* { @[args.method] = count() }", 1, 23,
		  "args.method is an integer in http:response but a string in http:request", NULL);
	check_err("args in BEGIN", "BEGIN { @ = sum(args.x) }", 1, 17,
		  "args is not available in BEGIN: only side: and usdt: probes have args", NULL);
	check_err("args in interval", "interval:ms:10 /args.x/ { @ = count() }", 1, 17,
		  "args is not available in interval", NULL);
	check_err("args of a plain USDT probe", "side:./app:legacy:tick { @ = sum(args.x) }", 1, 34,
		  "legacy:tick is a plain USDT probe with no SIDE description", NULL);
}

static void test_types(void)
{
	check_err("hist of a string", "side:./app:http:request { @ = hist(args.method) }", 1, 36,
		  "hist() needs an integer value, but args.method is a string", NULL);
	check_err("sum of a string builtin", "side:./app:http:request { @ = sum(comm) }", 1, 35,
		  "sum() needs an integer value, but comm is a string", NULL);
	check_err("stats of a struct", "side:./app:http:request { @ = stats(args.hdr) }", 1, 37,
		  "args.hdr is a struct", NULL);
	check_err("string compared with integer",
		  "side:./app:http:request /args.method == 3/ { @ = count() }", 1, 38,
		  "cannot compare a string with an integer", NULL);
	check_err("string ordering",
		  "side:./app:http:request /args.method < \"b\"/ { @ = count() }", 1, 38,
		  "strings can only be compared with == and !=", NULL);
	check_err("arithmetic on a string",
		  "side:./app:http:request { @ = sum(args.status + args.path) }", 1, 47,
		  "arithmetic on a string: '+' needs integers, but args.path is a string", NULL);
	check_err("negated string", "side:./app:http:request { @ = sum(-args.path) }", 1, 35,
		  "'-' needs an integer, but args.path is a string", NULL);
	check_err("aggregation read per event",
		  "side:./app:http:request { @a = count(); @b = sum(@a) }", 1, 50,
		  "@a is a count() map, kept per CPU: read it in BEGIN, END or interval", NULL);
	check_err("aggregation used as a value", "BEGIN { @b = sum(count()) }", 1, 18,
		  "count() is not a value", NULL);
}

static void test_maps(void)
{
	check_err("count with an argument", "BEGIN { @ = count(1) }", 1, 19,
		  "count() takes no argument", NULL);
	check_err("hist arity", "BEGIN { @ = hist(1, 2) }", 1, 13,
		  "hist() takes one value: hist(v)", NULL);
	check_err("lhist arity", "BEGIN { @ = lhist(1, 2) }", 1, 13,
		  "lhist() takes 4 arguments: lhist(v, min, max, step)", NULL);
	check_err("lhist non-constant", "BEGIN { @ = lhist(1, 0, pid, 1) }", 1, 25,
		  "lhist() max must be an integer constant", NULL);
	check_err("lhist step 0", "BEGIN { @ = lhist(1, 0, 10, 0) }", 1, 29,
		  "lhist() step must be >= 1 (0 provided)", NULL);
	check_err("lhist negative step", "BEGIN { @ = lhist(1, 0, 10, -2) }", 1, 29,
		  "lhist() step must be >= 1 (-2 provided)", NULL);
	check_err("lhist max <= min", "BEGIN { @ = lhist(1, 10, 5, 1) }", 1, 26,
		  "lhist() min must be less than max (provided min 10 and max 5)", NULL);
	check_err("lhist negative min", "BEGIN { @ = lhist(1, -10, 5, 1) }", 1, 22,
		  "lhist() min must be non-negative", NULL);
	check_err("lhist too many buckets", "BEGIN { @ = lhist(1, 0, 100000, 1) }", 1, 13,
		  "lhist() too many buckets, must be <= 1000 (would need 100000)", NULL);
	check_err("lhist bounds differ", "BEGIN { @ = lhist(1, 0, 10, 1); @ = lhist(2, 0, 20, 1) }",
		  1, 37, "lhist() bounds of @ differ from those at line 1, column 9", NULL);
	check_err("too many keys", "BEGIN { @m[1, 2, 3, 4, 5, 6, 7, 8, 9] = count() }", 1, 36,
		  "too many keys: a map has at most 8", NULL);
	check_err("different aggregations", "BEGIN { @m = count() }\nEND { @m = sum(1) }", 2, 12,
		  "@m is assigned a count() at line 1, column 9: it cannot also be a sum()", NULL);
	check_err("different key counts", "BEGIN { @m[1] = count(); @m[1, 2] = count() }", 1, 26,
		  "@m has 2 keys here but 1 at line 1, column 9", NULL);
	check_err("different key types", "BEGIN { @m[1, comm] = count(); @m[2, 3] = count() }", 1,
		  38, "key 2 of @m is an integer here but a string at line 1, column 9", NULL);
	check_err("action assigned to a map", "BEGIN { @m = exit() }", 1, 14,
		  "exit() is not a value", NULL);
	check_err("aggregation as a statement", "BEGIN { count() }", 1, 9,
		  "count() must be assigned to a map: @name = count(...)", NULL);
	check_err("print of two values", "BEGIN { print(1, 2) }", 1, 18,
		  "print() takes a map (print(@m, top, div)), the event (print(args)) or one value",
		  NULL);
	check_err("args alone as a value", "BEGIN { @x = sum(args) }", 1, 18,
		  "args alone is the whole event: print(args) prints it, a value is a field "
		  "(args.FIELD)",
		  NULL);
	check_err("clear of the event", "BEGIN { clear(args) }", 1, 15,
		  "clear() takes a map: clear(@name)", NULL);
	check_err("print of an unknown map",
		  "BEGIN { @a = count(); @b = count() } END { print(@c) }", 1, 50,
		  "unknown map @c: maps of this program: @a, @b", NULL);
	check_err("exit with an argument", "BEGIN { exit(1) }", 1, 14, "exit() takes no argument",
		  NULL);
	check_err("printf: a '%' that starts no conversion is text",
		  "BEGIN { printf(\"a %q\\n\", 1) }", 1, 26,
		  "printf: the format has 0 conversions but 1 argument follows", NULL);
	check_err("printf: too few arguments", "BEGIN { printf(\"%d %d\\n\", 1) }", 1, 9,
		  "printf: the format has 2 conversions but 1 argument follows", NULL);
	check_err("printf: too many arguments", "BEGIN { printf(\"%d\\n\", 1, 2) }", 1, 27,
		  "printf: the format has 1 conversion but 2 arguments follow", NULL);
	check_err("printf: string for %d", "BEGIN { printf(\"%d\\n\", \"x\") }", 1, 24,
		  "printf: argument 1 is a string, but its conversion wants an integer: use %s",
		  NULL);
	check_ok("printf: ksym() and usym() for %s, their functions",
		 "side:./app:http:request { printf(\"%s %s\\n\", ksym(args.status), "
		 "usym(args.status)) }");
	check_err("kaddr() of no literal", "BEGIN { printf(\"%d\\n\", kaddr(1)) }", 1, 24,
		  "kaddr() takes a kernel symbol's name: kaddr(\"avenrun\")", NULL);
	check_err("kaddr() of a symbol kallsyms lacks",
		  "BEGIN { printf(\"%d\\n\", kaddr(\"no_such_symbol_here\")) }", 1, 30,
		  "kaddr(): /proc/kallsyms has no symbol no_such_symbol_here", NULL);
	check_err("printf: integer for %s", "BEGIN { printf(\"%s\\n\", 1) }", 1, 24,
		  "printf: argument 1 is an integer, but its conversion is %s: use %d, %u or %x",
		  NULL);
	check_err("printf: star width", "BEGIN { printf(\"%*d\", 1) }", 1, 18,
		  "printf: '*' width or precision is not supported: write the number into the "
		  "format",
		  NULL);
	check_err("printf: bad length modifier", "BEGIN { printf(\"%hld\", 1) }", 1, 18,
		  "printf: unknown length modifier 'hl': use hh, h, l, ll, j, z or t", NULL);
	check_err("printf: format not a literal", "BEGIN { printf(1) }", 1, 16,
		  "printf takes a format string first: printf(\"fmt\", args...)", NULL);
}

static bool idx_is(const struct st_field_ref *r, uint32_t n, const uint32_t *want)
{
	return r->nr_idx == n && !memcmp(r->idx, want, n * sizeof(*want));
}

static void test_annotations(void)
{
	static const char src[] =
		"side:./app:http:request, side:./app:http:response /args.status > 399/ {\n"
		"  @[args.status, probe] = sum(args.latency_us);\n"
		"}\n"
		"side:./app:http:request { @h = lhist(args.codes[2], 0, 100, 10); @n = "
		"hist(args.hdr.len); }\n"
		"END { print(@h) }";
	static const uint32_t status_req[] = {2}, status_resp[] = {0};
	static const uint32_t codes2[] = {6, 2}, hdr_len[] = {5, 0};
	struct st_clause *c0, *c1;
	struct st_expr *key0, *val, *lh, *hs;
	struct st_program *prog;
	struct st_diag d;

	prog = check(src, &d);
	ok(prog != NULL, "annotated program checks");
	if (!prog) {
		st_diag_print(stdout, &d, src);
		return;
	}
	c0 = &prog->clauses[0];
	c1 = &prog->clauses[1];
	ok(c0->nr_events == 2 && c0->events[0] == &app_events[0] && c0->events[1] == &app_events[1],
	   "clause events are the union");
	ok(c0->points[0].nr_events == 1 && c0->points[1].nr_events == 1 &&
		   c0->points[1].events[0] == &app_events[1],
	   "probe events");
	key0 = c0->stmts[0].keys[0];
	ok(key0->nr_refs == 2 && idx_is(&key0->refs[0], 1, status_req) &&
		   idx_is(&key0->refs[1], 1, status_resp) &&
		   key0->refs[1].event == &app_events[1] &&
		   key0->refs[0].type->label == SIDE_TYPE_U16,
	   "field path per event");
	ok(key0->vtype == ST_VT_UINT, "u16 field is unsigned");
	ok(c0->stmts[0].keys[1]->vtype == ST_VT_STR, "probe is a string");
	val = c0->stmts[0].call->kids[0];
	ok(val->vtype == ST_VT_INT, "u64 and s64 across events read as signed");
	ok(c0->filter->vtype == ST_VT_BOOL, "comparison is bool");
	lh = c1->stmts[0].call->kids[0];
	ok(idx_is(&lh->refs[0], 2, codes2) && lh->refs[0].type->label == SIDE_TYPE_U16,
	   "array element path");
	hs = c1->stmts[1].call->kids[0];
	ok(idx_is(&hs->refs[0], 2, hdr_len), "struct member path");
	ok(prog->nr_maps == 3 && !strcmp(prog->maps[0].name, "@") &&
		   prog->maps[0].agg == ST_K_SUM && prog->maps[0].nr_keys == 2 &&
		   prog->maps[0].key_types[0] == ST_VT_UINT &&
		   prog->maps[0].key_types[1] == ST_VT_STR && prog->maps[0].value_signed,
	   "map table: keys and signedness");
	ok(prog->maps[1].agg == ST_K_LHIST && prog->maps[1].lhist_min == 0 &&
		   prog->maps[1].lhist_max == 100 && prog->maps[1].lhist_step == 10,
	   "map table: lhist bounds");
	ok(c1->stmts[0].map_id == 1 && c1->stmts[1].map_id == 2 &&
		   prog->clauses[2].stmts[0].call->kids[0]->map_id == 1,
	   "map ids of statements and print()");
	st_program_free(prog);
}

/* The type of the first key and of the value of statement n of clause 0. */
static void dyn_types(const char *name, const char *src, uint32_t n, enum st_vtype key,
		      enum st_vtype val)
{
	const struct st_stmt *s;
	struct st_program *prog;
	struct st_diag d;
	bool good;

	prog = check(src, &d);
	if (!prog) {
		ok(false, name);
		st_diag_print(stdout, &d, src);
		return;
	}
	s = &prog->clauses[0].stmts[n];
	good = (key == ST_VT_NONE || (s->nr_keys && s->keys[0]->vtype == key &&
				      prog->maps[s->map_id].key_types[0] == key)) &&
	       (val == ST_VT_NONE || s->call->kids[0]->vtype == val);
	ok(good, name);
	st_program_free(prog);
}

static void test_dynamic(void)
{
	static const char src[] = "side:./app:app:log /args.user == \"GET\"/ {\n"
				  "  @[args.user, args.msg] = sum(args.attempt);\n"
				  "}";
	const struct st_expr *user, *msg, *attempt;
	struct st_program *prog;
	struct st_diag d;

	prog = check(src, &d);
	ok(prog != NULL, "dynamic: program checks");
	if (!prog) {
		st_diag_print(stdout, &d, src);
		return;
	}
	user = prog->clauses[0].stmts[0].keys[0];
	msg = prog->clauses[0].stmts[0].keys[1];
	attempt = prog->clauses[0].stmts[0].call->kids[0];
	ok(user->nr_refs == 1 && user->refs[0].nr_idx == 0 &&
		   user->refs[0].event == &app_events[4] &&
		   user->refs[0].type->label == SIDE_TYPE_DYNAMIC,
	   "dynamic: a name that is no static field is a dynamic ref");
	ok(msg->refs[0].nr_idx == 1 && msg->refs[0].idx[0] == 0 && msg->vtype == ST_VT_STR,
	   "dynamic: a static field of a variadic event stays static");
	ok(user->vtype == ST_VT_STR && prog->clauses[0].filter->kids[0]->vtype == ST_VT_STR,
	   "dynamic: a string where compared with a string");
	ok(attempt->vtype == ST_VT_INT && prog->maps[0].value_signed,
	   "dynamic: an aggregated value is a signed integer");
	st_program_free(prog);

	dyn_types("dynamic: key alone is a string", "side:./app:app:log { @[args.user] = count() }",
		  0, ST_VT_STR, ST_VT_NONE);
	dyn_types("dynamic: hist value is an integer",
		  "side:./app:app:log { @h = hist(args.attempt) }", 0, ST_VT_NONE, ST_VT_INT);
	dyn_types("dynamic: key typed by an earlier use in the clause",
		  "side:./app:app:log { @s = sum(args.attempt); @[args.attempt] = count() }", 1,
		  ST_VT_INT, ST_VT_NONE);
	dyn_types("dynamic: key typed by the value of its own statement",
		  "side:./app:app:log { @[args.attempt] = sum(args.attempt) }", 0, ST_VT_INT,
		  ST_VT_NONE);
	/* Accepted, it dropped every event of the clause at run time. */
	check_err("dynamic: printed as a float",
		  "side:./app:app:log { printf(\"%f\", args.attempt) }", 1, 35,
		  "printf: argument 1 is a dynamic field, which sidetrace reads as an integer or a "
		  "string, but its conversion prints a floating-point value",
		  NULL);
	check_err("dynamic: a string key summed later",
		  "side:./app:app:log { @[args.user] = count(); @s = sum(args.user) }", 1, 55,
		  "args.user is read as an integer here (used as a number) but as a string at line "
		  "1, column 24 (a map key)",
		  "args.user + 0 reads an integer");
	dyn_types("dynamic: key typed by the filter",
		  "side:./app:app:log /args.attempt > 1/ { @[args.attempt] = count() }", 0,
		  ST_VT_INT, ST_VT_NONE);
	dyn_types("dynamic: key + 0 is an integer",
		  "side:./app:app:log { @[args.attempt + 0] = count() }", 0, ST_VT_INT, ST_VT_NONE);
	dyn_types("dynamic: compared with an integer",
		  "side:./app:app:log /args.attempt == 2/ { @[args.attempt] = count() }", 0,
		  ST_VT_INT, ST_VT_NONE);
	dyn_types("dynamic: two dynamic fields compare as strings",
		  "side:./app:app:log /args.a != args.b/ { @[args.b] = count() }", 0, ST_VT_STR,
		  ST_VT_NONE);
	dyn_types("dynamic: a static field of another event decides",
		  "side:./app:app:log, side:./app:db:query { @[args.rows] = count() }", 0,
		  ST_VT_UINT, ST_VT_NONE);
	dyn_types("dynamic: one name, one type per clause only",
		  "side:./app:app:log { @[args.x] = count() }\n"
		  "side:./app:app:log { @s = sum(args.x) }",
		  0, ST_VT_STR, ST_VT_NONE);

	check_err("dynamic: name too long",
		  "side:./app:app:log { @[args.abcdefghijklmnopqrstuvwxyz0123456] = count() }", 1,
		  29,
		  "dynamic field name 'abcdefghijklmnopqrstuvwxyz0123456' is longer than 31 bytes",
		  NULL);
	check_ok("dynamic: name of 31 bytes",
		 "side:./app:app:log { @[args.abcdefghijklmnopqrstuvwxyz01234] = count() }");
	check_err("dynamic: no member", "side:./app:app:log { @ = sum(args.peer.port) }", 1, 40,
		  "args.peer is a dynamic field of variadic event app:log: only its value, an "
		  "integer or a string, can be read, not a member",
		  NULL);
	check_err("dynamic: no element", "side:./app:app:log { @ = sum(args.ids[1]) }", 1, 38,
		  "not an element", NULL);
	check_err("dynamic: string then integer",
		  "side:./app:app:log /args.user == \"GET\"/ { @ = sum(args.user) }", 1, 51,
		  "args.user is read as an integer here (used as a number) but as a string at line "
		  "1, column 21 (compared with a string): a dynamic field has one type in a clause",
		  "args.user + 0 reads an integer");
	check_err("dynamic: integer then string",
		  "side:./app:app:log /args.n > 1/ { @[args.n == \"x\"] = count() }", 1, 37,
		  "args.n is read as a string here (compared with a string) but as an integer",
		  NULL);
	check_err("dynamic: lhist bound", "side:./app:app:log { @ = lhist(1, 0, args.max, 1) }", 1,
		  38, "lhist() max must be an integer constant", NULL);
	check_err("dynamic: ordering a string",
		  "side:./app:app:log /args.msg < args.user/ { @ = count() }", 1, 30,
		  "strings can only be compared with == and !=", NULL);
	check_err("dynamic: key kinds of a map across clauses",
		  "side:./app:app:log { @m[args.user] = count() }\n"
		  "side:./app:app:log { @m[args.user + 0] = count() }",
		  2, 35, "key 1 of @m is an integer here but a string", NULL);
	check_err("not variadic: unknown field still lists the fields",
		  "side:./app:app:log, side:./app:db:query { @[args.user] = count() }", 1, 50,
		  "event db:query has no field 'user'; its fields: sql, rows",
		  "this clause matches 2 events");
}

/* Variables, plain-value maps read back, if/else, ?:, casts, str(), delete, print. */
static void test_state(void)
{
	check_ok("latency between two events",
		 "side:./app:http:request { @start[args.status] = nsecs; }\n"
		 "side:./app:http:response /@start[args.status]/ {\n"
		 "  @lat = hist(nsecs - @start[args.status]); delete(@start[args.status]); }");
	check_ok("variables, if/else if/else, ?:, casts, str(), compound assignments",
		 "side:./app:http:request { $d = args.delta; $p = str(args.path, 4);\n"
		 "  if ($d < 0) { @neg[$p]++; } else if ($d == 0) { @zero += 1; }\n"
		 "  else { $x = (uint8)$d; @pos[$d > 10 ? \"big\" : \"small\"] = max($x); }\n"
		 "  @last = $p; @n[args.method] -= 2; @m[1] *= 3; }\n"
		 "END { $avg = @zero / 2; print(@neg, 3, 10); print($avg); print(@last); }");
	check_err("undefined variable", "BEGIN { $x = $y + 1 }", 1, 14,
		  "undefined variable $y: assign it first ($y = ...)", NULL);
	check_err("variable read before any block assigns it",
		  "BEGIN { print($x); if (1) { $x = 1; } }", 1, 15, "undefined variable $x", NULL);
	check_ok("a variable an if assigns, read after it as bpftrace 0.17 reads it",
		 "BEGIN { if (1) { $x = 1; } print($x); }");
	check_err("variable of another type", "BEGIN { $x = 1; $x = \"s\"; }", 1, 22,
		  "$x holds an integer: it cannot be assigned a string", NULL);
	check_err("compound assignment of a string", "BEGIN { @x += \"a\" }", 1, 15,
		  "a compound assignment needs an integer value, but \"a\" is a string", NULL);
	check_err("map of strings and integers", "BEGIN { @x = 1 } END { @x = \"s\" }", 1, 29,
		  "@x holds an integer (line 1, column 9): it cannot also hold a string", NULL);
	check_err("aggregation and value", "BEGIN { @x = 1 } END { @x = count() }", 1, 29,
		  "@x is assigned a value at line 1, column 9: it cannot also be a count()", NULL);
	check_err("?: of a string and an integer", "BEGIN { print(1 ? \"a\" : 2) }", 1, 17,
		  "the two values of ?: are a string and an integer", NULL);
	check_err(
		"unknown identifier", "BEGIN { @x = sum(foo) }", 1, 18,
		"unknown identifier 'foo': expected args.FIELD, argN, retval, a builtin (pid, "
		"tid, comm, nsecs, elapsed, cpu, uid, gid, cgroup, ustack, kstack, func, probe, "
		"loglevel, rand, numaid, cpid, username, curtask, ctx), $var, @map[key], a number, "
		"a "
		"string, a "
		"cast such as (uint8) or (struct task_struct *), *ptr or '(' (nor is it an enum's "
		"constant of the program or the kernel)",
		NULL);
	check_err("str() of an address in BEGIN", "BEGIN { print(str(5)) }", 1, 15,
		  "str() of an address reads the memory of a probe's event, and BEGIN runs in "
		  "sidetrace, which has none to read",
		  NULL);
	check_err("str() length", "BEGIN { print(str(\"abc\", \"x\")) }", 1, 26, "str()'s length",
		  NULL);
	check_err("delete of a hist map's key",
		  "side:./app:http:request { @h[args.method] = hist(args.status); "
		  "delete(@h[args.method]); }",
		  1, 71, "delete() of a hist() map: its buckets are keys of their own", NULL);
	check_err("delete of a whole map", "BEGIN { @x[1] = 1; delete(@x) }", 1, 27,
		  "@x has 0 keys here but 1", NULL);
	check_err("print(@m, top) not constant", "BEGIN { @x = 1; print(@x, pid) }", 1, 27,
		  "print(@m, top, div): top must be an integer constant", NULL);
	check_err(
		"read as an integer before a string assignment types the map",
		"END { @y = @z + 1; @z = \"s\"; }", 1, 12,
		"@z is read as an integer before its first assignment (line 1, column 20) gives it "
		"a string: put the clause that assigns it first",
		NULL);
	check_ok("@n = @n + 1 in one clause, as bpftrace",
		 "END { @n = @n + 1; @m[1] = @m[1] + 2; }");
	check_err("unknown map read", "BEGIN { print(@y + 1) }", 1, 15,
		  "unknown map @y: this program assigns no map", NULL);
	check_err("loglevel outside a side: probe", "BEGIN { print(loglevel) }", 1, 15,
		  "loglevel is the level of a side: event; BEGIN has none", NULL);
	check_err("compound division by the constant 0", "BEGIN { @x = 1; @x %= 0; }", 1, 23,
		  "'%=' by the constant 0: division by zero", NULL);
}

/* A string condition is true when not empty: the checker makes it s != "". */
static void test_string_conditions(void)
{
	const char *src = "side:./app:http:request /args.method/ { @ = count() }";
	struct st_program *prog;
	struct st_expr *f;
	struct st_diag d;

	prog = check(src, &d);
	f = prog ? prog->clauses[0].filter : NULL;
	ok(f && f->kind == ST_EXPR_BINARY && f->op == ST_OP_NE && f->vtype == ST_VT_BOOL &&
		   f->kids[0]->kind == ST_EXPR_FIELD && f->kids[1]->kind == ST_EXPR_STR &&
		   !strcmp(f->kids[1]->str, ""),
	   "string filter: args.method != \"\"");
	st_program_free(prog);
	check_ok("string conditions of if, ?:, !, && and ||",
		 "BEGIN { @s[1] = \"a\"; if (@s[1]) { @n = !@s[2] && (@s[1] || 0) ? 1 : 2; } }");
}

int main(void)
{
	test_accepts();
	test_events();
	test_fields();
	test_types();
	test_string_conditions();
	test_maps();
	test_annotations();
	test_dynamic();
	test_state();
	return unit_summary();
}
