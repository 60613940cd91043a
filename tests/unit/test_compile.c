// SPDX-License-Identifier: MIT
/*
 * Unit tests of the compile step: hand-built events, programs parsed and
 * checked for real, and the BPF configuration they become (loads, stack
 * machine code, map layouts), plus the limits it must refuse.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "check/checker.h"
#include "compile/compile.h"
#include "side/usdt_view.h"
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
static struct st_field req_fields[] = {
	{"method", {.label = SIDE_TYPE_STRING_UTF8, .size = 1}},
	{"status", INT(SIDE_TYPE_U16, 2, false)},
	{"delta", INT(SIDE_TYPE_S32, 4, true)},
	{"hdr",
	 {.label = SIDE_TYPE_STRUCT, .fields = hdr_fields, .nr_fields = ARRAY_SIZE(hdr_fields)}},
	{"codes", {.label = SIDE_TYPE_ARRAY, .array_len = 4, .elem = &u16_type}},
	{"tags", {.label = SIDE_TYPE_VLA, .elem = &u32_type}},
	{"ok", {.label = SIDE_TYPE_BOOL, .size = 4}},
	{"level", {.label = SIDE_TYPE_ENUM, .elem = &s8_type}},
	{"ratio", {.label = SIDE_TYPE_FLOAT_BINARY64, .size = 8}},
};
static struct st_field resp_fields[] = {
	{"status", INT(SIDE_TYPE_U16, 2, false)},
};
/* 9 fields: 9 values, description, vector. */
static struct st_site req_site = {
	.args = "-8@%rax -8@%rbx -8@%rcx -8@%rdx -8@%rsi -8@%rdi -8@%r8 -8@%r9 -8@%r10 8@%r11 "
		"8@%r12",
};
static struct st_site resp_site = {.args = "-8@%rax 8@%rbx 8@%rcx"};
/* Variadic: 1 value, description, vector, dynamic struct. */
static struct st_field log_fields[] = {
	{"msg", {.label = SIDE_TYPE_STRING_UTF8, .size = 1}},
};
static struct st_site log_site = {.args = "8@%rax 8@%rbx 8@%rcx 8@%rdx"};
static struct st_event events[] = {
	{.path = "/app",
	 .provider = "http",
	 .name = "request",
	 .usdt_provider = "http",
	 .usdt_name = "request",
	 .has_side = true,
	 .fields = req_fields,
	 .nr_fields = ARRAY_SIZE(req_fields),
	 .sites = &req_site,
	 .nr_sites = 1},
	{.path = "/app",
	 .provider = "http",
	 .name = "response",
	 .usdt_provider = "http",
	 .usdt_name = "response",
	 .has_side = true,
	 .fields = resp_fields,
	 .nr_fields = ARRAY_SIZE(resp_fields),
	 .sites = &resp_site,
	 .nr_sites = 1},
	{.path = "/app",
	 .provider = "app",
	 .name = "log",
	 .usdt_provider = "app",
	 .usdt_name = "log",
	 .has_side = true,
	 .variadic = true,
	 .fields = log_fields,
	 .nr_fields = ARRAY_SIZE(log_fields),
	 .sites = &log_site,
	 .nr_sites = 1},
};
static struct st_event_list app = {.events = events, .nr = ARRAY_SIZE(events)};

static struct st_event_list app_usdt;

static const struct st_event_list *source(void *ctx, const struct st_probe_query *q, char *err,
					  size_t len)
{
	const char *target = q->target;

	(void)ctx;
	if (!strcmp(target, "/app") && q->kind == ST_AP_USDT)
		return app_usdt.events || !st_usdt_view(&app, &app_usdt) ? &app_usdt : NULL;
	if (!strcmp(target, "/app"))
		return &app;
	snprintf(err, len, "no such file");
	return NULL;
}

struct result {
	struct st_program *prog;
	struct st_compiled c;
	struct st_diag diag;
	int ret; /* of st_compile, or -10000: parse or check failed */
};

static void build_flags(const char *src, unsigned int flags, struct result *r)
{
	struct st_event_source es = {.probe_events = source};

	memset(r, 0, sizeof(*r));
	if (st_parse(src, "program", &r->prog, &r->diag) || st_check(r->prog, &es, &r->diag)) {
		r->ret = -10000;
		return;
	}
	r->ret = st_compile(r->prog, flags, &r->c, &r->diag);
}

static void build(const char *src, struct result *r)
{
	build_flags(src, 0, r);
}

static void done(struct result *r)
{
	st_compiled_free(&r->c);
	if (r->prog)
		st_program_free(r->prog);
}

static const struct st_insn *insn(struct result *r, uint32_t probe, uint32_t i)
{
	static const struct st_insn none = {.op = 0xff};

	if (probe >= r->c.nr_probes || i >= r->c.probes[probe].cfg.nr_insns)
		return &none;
	return &r->c.probes[probe].cfg.insns[i];
}

static void test_count(void)
{
	struct result r;

	build("side:/app:http:request { @ = count(); }", &r);
	ok(r.ret == 0, "count: compiles");
	ok(r.c.nr_probes == 1 && r.c.probes[0].event == &events[0], "count: one probe");
	ok(r.c.probes[0].cfg.vec_arg == 10, "count: vector is SDT arg 10 after 9 values and desc");
	ok(!r.c.probes[0].cfg.variadic, "count: not variadic");
	ok(r.c.probes[0].cfg.nr_insns == 3, "count: three instructions");
	ok(insn(&r, 0, 0)->op == ST_I_CLAUSE && insn(&r, 0, 0)->imm == 3 &&
		   insn(&r, 0, 0)->mask == 0,
	   "count: clause spans the program, reads nothing");
	ok(insn(&r, 0, 1)->op == ST_I_CONST, "count: pushes a dummy value");
	ok(insn(&r, 0, 2)->op == ST_I_AGG && insn(&r, 0, 2)->a == 0,
	   "count: aggregates into map 0");
	ok(r.c.nr_maps == 1 && r.c.maps[0].kind == ST_K_COUNT && r.c.maps[0].key_size == 0,
	   "count: map without key");
	ok(r.c.key_size == ST_KEY_HDR + 8, "count: smallest hash key");
	ok(!strcmp(r.c.probes[0].name, "side:/app:http:request"), "count: probe name");
	done(&r);

	build("side:/app:http:response { @ = count(); }", &r);
	ok(r.ret == 0 && r.c.probes[0].cfg.vec_arg == 2, "count: 1 field, vector is SDT arg 2");
	done(&r);
}

static void test_string_key(void)
{
	const struct st_load *ld;
	struct result r;

	build("side:/app:http:request { @[args.method] = count(); }", &r);
	ok(r.ret == 0, "string key: compiles");
	ld = &r.c.probes[0].cfg.loads[0];
	ok(r.c.probes[0].cfg.nr_loads == 1 && ld->src == ST_SRC_SDT && ld->sdt_arg == 0 &&
		   ld->want == ST_WANT_STR && ld->nr_steps == 1 && ld->steps[0].index == 0 &&
		   ld->steps[0].label == SIDE_TYPE_STRING_UTF8,
	   "string key: load of field 0 as string");
	ok(r.c.probes[0].cfg.sdt_mask == 1 && !r.c.probes[0].cfg.need_vec,
	   "string key: only SDT argument 0 is read");
	ok(r.c.probes[0].cfg.str_loads == 1, "string key: marked for fault-in");
	ok(insn(&r, 0, 1)->op == ST_I_STR && insn(&r, 0, 1)->a == 0, "string key: pushes load 0");
	ok(insn(&r, 0, 2)->op == ST_I_KEY_STR && insn(&r, 0, 2)->imm == 0,
	   "string key: at offset 0");
	ok(insn(&r, 0, 0)->mask == 1, "string key: clause needs load 0");
	ok(r.c.layouts[0].nr_parts == 1 && r.c.layouts[0].parts[0].kind == ST_KPART_STR,
	   "string key: layout");
	ok(r.c.maps[0].key_size == ST_STR_LEN && r.c.key_size == ST_KEY_HDR + ST_STR_LEN,
	   "string key: key size");
	done(&r);
}

/*
 * printf of fields writes each load straight into the record (one
 * OUT_LOAD each); any other value is computed, then stored.
 */
static void test_printf(void)
{
	struct result r;

	build("side:/app:http:request { printf(\"%s %d %d\\n\", args.method, args.status, "
	      "args.status + 1); }",
	      &r);
	ok(r.ret == 0, "printf: compiles");
	ok(insn(&r, 0, 1)->op == ST_I_OUT_LOAD && insn(&r, 0, 1)->a == 0 &&
		   insn(&r, 0, 1)->imm == 0,
	   "printf: a string field, its load into the record at 0");
	ok(insn(&r, 0, 2)->op == ST_I_OUT_LOAD && insn(&r, 0, 2)->a == 1 &&
		   insn(&r, 0, 2)->imm == ST_REC_STR_SIZE,
	   "printf: an integer field, its load after the string");
	ok(insn(&r, 0, 3)->op == ST_I_FIELD && insn(&r, 0, 5)->op == ST_I_BINARY &&
		   insn(&r, 0, 6)->op == ST_I_OUT_INT,
	   "printf: an expression computed, then stored");
	ok(insn(&r, 0, 7)->op == ST_I_OUT_EMIT && r.c.probes[0].cfg.nr_insns == 8,
	   "printf: then sent");
	ok(insn(&r, 0, 0)->mask == 3 && r.c.probes[0].cfg.str_loads == 1,
	   "printf: the clause needs both loads, the first a string");
	done(&r);
}

static void test_paths(void)
{
	const struct st_probe_cfg *cfg;
	struct result r;

	build("side:/app:http:request { @a = sum(args.hdr.len); @b = sum(args.codes[2]); "
	      "@c = sum(args.tags[1]); @d = sum(args.level); @e = sum(args.ok); "
	      "@f = sum(args.hdr.len); }",
	      &r);
	ok(r.ret == 0, "paths: compile");
	cfg = &r.c.probes[0].cfg;
	ok(cfg->nr_loads == 5, "paths: a field read twice is loaded once");
	ok(cfg->loads[0].nr_steps == 2 && cfg->loads[0].steps[0].index == 3 &&
		   cfg->loads[0].steps[0].label == SIDE_TYPE_STRUCT &&
		   cfg->loads[0].steps[1].index == 0 &&
		   cfg->loads[0].steps[1].label == SIDE_TYPE_U32,
	   "paths: struct member");
	ok(cfg->loads[1].steps[0].index == 4 && cfg->loads[1].steps[0].label == SIDE_TYPE_ARRAY &&
		   cfg->loads[1].steps[1].index == 2 &&
		   cfg->loads[1].steps[1].label == SIDE_TYPE_U16,
	   "paths: array element");
	ok(cfg->loads[2].steps[0].label == SIDE_TYPE_VLA && cfg->loads[2].steps[1].index == 1 &&
		   cfg->loads[2].steps[1].label == SIDE_TYPE_U32,
	   "paths: vla element");
	ok(cfg->loads[3].nr_steps == 1 && cfg->loads[3].steps[0].label == SIDE_TYPE_S8,
	   "paths: an enum reads its underlying integer");
	ok(cfg->loads[4].steps[0].label == SIDE_TYPE_BOOL && cfg->loads[4].steps[0].size == 4,
	   "paths: bool with its size");
	ok(cfg->str_loads == 0, "paths: no strings");
	done(&r);
}

static void test_filters(void)
{
	const struct st_probe_cfg *cfg;
	struct result r;

	build("side:/app:http:request /args.status >= 500 && args.method == \"GET\"/ "
	      "{ @ = count(); }",
	      &r);
	ok(r.ret == 0, "filter: compiles");
	cfg = &r.c.probes[0].cfg;
	ok(insn(&r, 0, 1)->op == ST_I_FIELD && insn(&r, 0, 2)->op == ST_I_CONST &&
		   insn(&r, 0, 2)->imm == 500 && insn(&r, 0, 3)->op == ST_I_BINARY &&
		   insn(&r, 0, 3)->a == ST_B_UGE,
	   "filter: a u16 field >= a literal compares unsigned, as C and bpftrace do");
	ok(insn(&r, 0, 4)->op == ST_I_STR && insn(&r, 0, 5)->op == ST_I_STR &&
		   insn(&r, 0, 5)->a == ST_STR_REF_CONST && insn(&r, 0, 6)->op == ST_I_STREQ,
	   "filter: string equality with a literal");
	ok(!strcmp(cfg->strs[0], "GET"), "filter: literal stored NUL-padded");
	ok(insn(&r, 0, 7)->op == ST_I_BINARY && insn(&r, 0, 7)->a == ST_B_LAND &&
		   insn(&r, 0, 8)->op == ST_I_FILTER,
	   "filter: && then the filter test");
	ok(insn(&r, 0, 0)->mask == 3, "filter: clause needs both loads");
	done(&r);

	build("side:/app:http:request /pid == 42 || comm != \"app\"/ { @ = count(); }", &r);
	ok(r.ret == 0 && insn(&r, 0, 1)->op == ST_I_BUILTIN && insn(&r, 0, 1)->a == ST_BI_PID,
	   "filter: pid builtin");
	ok(insn(&r, 0, 4)->op == ST_I_STR && insn(&r, 0, 4)->a == ST_STR_REF_COMM &&
		   insn(&r, 0, 6)->op == ST_I_STRNE,
	   "filter: comm != literal");
	done(&r);

	build("side:/app:http:request { @[args.delta / 2, args.status / 2] = count(); }", &r);
	ok(r.ret == 0 && insn(&r, 0, 3)->a == ST_B_DIV, "arith: signed division");
	ok(insn(&r, 0, 4)->op == ST_I_KEY_INT && insn(&r, 0, 4)->imm == 0 &&
		   insn(&r, 0, 8)->op == ST_I_KEY_INT && insn(&r, 0, 8)->imm == 8,
	   "arith: keys at offsets 0 and 8");
	done(&r);
}

static void test_aggregations(void)
{
	struct result r;

	build("side:/app:http:request { @h = hist(args.delta); @l = lhist(args.status, 0, 1000, "
	      "100); "
	      "@s[args.method] = stats(args.status); @m = min(args.delta); }",
	      &r);
	ok(r.ret == 0, "aggs: compile");
	ok(r.c.maps[0].kind == ST_K_HIST && (r.c.maps[0].flags & ST_MAPF_SIGNED),
	   "aggs: hist of a signed value");
	ok(r.c.maps[1].kind == ST_K_LHIST && r.c.maps[1].lmin == 0 && r.c.maps[1].lmax == 1000 &&
		   r.c.maps[1].lstep == 100 && !(r.c.maps[1].flags & ST_MAPF_SIGNED),
	   "aggs: lhist bounds");
	ok(r.c.maps[2].kind == ST_K_STATS && r.c.maps[2].key_size == ST_STR_LEN,
	   "aggs: stats keyed");
	ok(r.c.maps[3].kind == ST_K_MIN && (r.c.maps[3].flags & ST_MAPF_SIGNED),
	   "aggs: signed min");
	ok(r.c.key_size == ST_KEY_HDR + ST_STR_LEN, "aggs: key holds the largest map");
	done(&r);

	build("side:/app:http:request { @[args.method] = hist(args.status); }", &r);
	ok(r.ret == 0 && r.c.key_size == ST_KEY_HDR + ST_STR_LEN + 8,
	   "aggs: hist key has a bucket");
	done(&r);
}

static void test_probes(void)
{
	struct result r;

	build("side:/app:http:* { @[probe] = count(); } side:/app:http:request { @x = count(); }",
	      &r);
	ok(r.ret == 0, "probes: compile");
	ok(r.c.nr_probes == 2, "probes: wildcard matches two events");
	ok(r.c.layouts[0].parts[0].kind == ST_KPART_PROBE && r.c.maps[0].key_size == 8,
	   "probes: probe key stored as index");
	ok(insn(&r, 0, 1)->op == ST_I_BUILTIN && insn(&r, 0, 1)->a == ST_BI_PROBE,
	   "probes: probe builtin");
	ok(r.c.probes[0].cfg.nr_insns == 8 && insn(&r, 0, 5)->op == ST_I_CLAUSE &&
		   insn(&r, 0, 5)->imm == 8 && insn(&r, 0, 0)->imm == 5,
	   "probes: two clauses on one event, each skipping to its end");
	ok(r.c.probes[1].cfg.nr_insns == 5, "probes: the other event runs the first clause only");
	done(&r);

	build("BEGIN { exit(); } side:/app:http:request { exit(); } END { print(@a); clear(@a); }"
	      " side:/app:http:response { @a = count(); }",
	      &r);
	ok(r.ret == 0 && r.c.nr_probes == 2 && insn(&r, 0, 1)->op == ST_I_EXIT,
	   "probes: exit() in a side probe; BEGIN/END stay in user space");
	done(&r);
}

/*
 * A key part always written as pid is marked so (a process's engine may
 * key it with its own pid only), in aggregations and plain values alike;
 * a part written otherwise in any clause is not.
 */
static void test_pid_parts(void)
{
	struct result r;

	build("side:/app:http:request { @c[pid, args.status] = count(); @v[pid] = 1; }"
	      " side:/app:http:response { @c[pid, 1] = count(); @w[pid] = count(); }"
	      " side:/app:app:log { @w[tid] = count(); }",
	      &r);
	ok(r.ret == 0 && r.c.layouts[0].parts[0].pid && !r.c.layouts[0].parts[1].pid,
	   "pid parts: @c's first part is the pid, its second not");
	ok(r.c.layouts[1].parts[0].pid, "pid parts: a plain value's key too");
	ok(!r.c.layouts[2].parts[0].pid, "pid parts: not where a clause writes another value");
	done(&r);
}

static void test_errors(void)
{
	char src[4096];
	struct result r;
	int i, n;

	build("side:/app:http:request { @ = sum(args.ratio); }", &r);
	/* The checker refuses it first; the compile step would too. */
	ok(r.ret == -10000 || (r.ret == -EINVAL && strstr(r.diag.msg, "cannot be read")),
	   "errors: float field refused");
	done(&r);

	build("side:/app:http:request /args.method == "
	      "\"0123456789012345678901234567890123456789012345678901234567890123456789\"/ "
	      "{ @ = count(); }",
	      &r);
	ok(r.ret == -EINVAL && strstr(r.diag.msg, "longer than 63"), "errors: long literal");
	ok(r.diag.col == 40, "errors: long literal position");
	done(&r);

	build("side:/app:http:request { @[args.method, args.method, args.method, args.method, "
	      "args.method, args.method, args.method, args.method] = count(); }",
	      &r);
	ok(r.ret == -EINVAL && strstr(r.diag.msg, "bytes; the kernel allows"),
	   "errors: key too large");
	done(&r);

	n = snprintf(src, sizeof(src), "side:/app:http:request {");
	for (i = 0; i < 100; i++)
		n += snprintf(src + n, sizeof(src) - n, " @ = args.status + %d;", i);
	snprintf(src + n, sizeof(src) - n, " }");
	build(src, &r);
	ok(r.ret == -EINVAL && strstr(r.diag.msg, "more than 256 instructions"),
	   "errors: too many instructions");
	done(&r);

	/* The collector's clauses aggregate through sidetrace_user; their names are probe keys. */
	build("BEGIN { @x = count(); } interval:ms:100 { @p[probe] = 1; } END { if (1) { @h = "
	      "hist(1); } }",
	      &r);
	ok(r.ret == 0 && r.c.user_aggs && r.c.nr_probes == 0 && r.c.nr_user_probes == 3 &&
		   !strcmp(st_compiled_probe_name(&r.c, 1), "interval:ms:100") &&
		   !strcmp(st_compiled_probe_name(&r.c, 2), "END") &&
		   !st_compiled_probe_name(&r.c, 3),
	   "aggregations in BEGIN, END and interval");
	done(&r);
	build("BEGIN { @x = 1; } END { print(@x); }", &r);
	ok(r.ret == 0 && !r.c.user_aggs,
	   "no aggregation in BEGIN and END: sidetrace_user not needed");
	done(&r);
}

/* Where values come from, and the programs and maps that serve them. */
static void test_fast_paths(void)
{
	const struct st_probe_cfg *cfg;
	struct result r;

	build("side:/app:http:request { @a = sum(args.status); @b = sum(args.hdr.len); }", &r);
	ok(r.ret == 0, "sources: compile");
	cfg = &r.c.probes[0].cfg;
	ok(cfg->loads[0].src == ST_SRC_SDT && cfg->loads[0].sdt_arg == 1,
	   "sources: a top-level integer comes from its SDT argument");
	ok(cfg->loads[1].src == ST_SRC_VEC, "sources: a struct member from the vector");
	ok(cfg->need_vec && cfg->vec_arg == 10 && cfg->sdt_mask == ((1U << 1) | (1U << 10)),
	   "sources: SDT arguments read: the value and the vector pointer");
	ok(r.c.probes[0].special != ST_SPECIAL_COUNT, "sources: not a count-only probe");
	ok((r.c.maps[0].flags & ST_MAPF_FLAT) && r.c.maps[0].flat_len == 1 &&
		   r.c.maps[1].flat_base == 1 && r.c.nr_flat == 2,
	   "sources: maps without keys are slots");
	done(&r);

	build_flags("side:/app:http:request { @a = sum(args.status); }", ST_COMPILE_VECTOR_ONLY,
		    &r);
	ok(r.ret == 0 && r.c.probes[0].cfg.loads[0].src == ST_SRC_VEC,
	   "sources: vector only when asked");
	done(&r);

	build("side:/app:http:response { @a = sum(args.status); }", &r);
	ok(r.ret == 0 && r.c.probes[0].cfg.loads[0].src == ST_SRC_SDT &&
		   r.c.probes[0].cfg.loads[0].sdt_arg == 0,
	   "sources: one field, one value");
	done(&r);

	build("side:/app:http:request { @ = count(); @n = count(); } side:/app:http:request { @h = "
	      "hist(args.status); }"
	      " side:/app:http:response { @ = count(); }",
	      &r);
	ok(r.ret == 0 && r.c.nr_flat == 2 + ST_HIST_BUCKETS, "count-only: flat slots");
	ok(r.c.probes[0].special != ST_SPECIAL_COUNT,
	   "count-only: not with another clause's field");
	ok(r.c.probes[1].special == ST_SPECIAL_COUNT && r.c.probes[1].nr_counts == 1 &&
		   r.c.probes[1].counts[0] == r.c.maps[0].flat_base,
	   "count-only: counts in its map's slot");
	done(&r);

	build("side:/app:http:request /args.status == 200/ { @ = count(); }", &r);
	ok(r.ret == 0 && r.c.probes[0].special != ST_SPECIAL_COUNT,
	   "count-only: not with a filter");
	done(&r);

	build("side:/app:http:request { @[args.status] = count(); @a = lhist(args.status, 0, 1000, "
	      "1);"
	      " @b = lhist(args.status, 0, 1000, 1); @c = lhist(args.status, 0, 1000, 1);"
	      " @d = lhist(args.status, 0, 1000, 1); @e = lhist(args.status, 0, 1000, 1); }",
	      &r);
	ok(r.ret == 0 && r.c.probes[0].special != ST_SPECIAL_COUNT &&
		   !(r.c.maps[0].flags & ST_MAPF_FLAT),
	   "flat: not with keys");
	ok(r.ret == 0 && (r.c.maps[4].flags & ST_MAPF_FLAT) && r.c.maps[4].flat_len == 1002 &&
		   !(r.c.maps[5].flags & ST_MAPF_FLAT) && r.c.nr_flat <= ST_MAX_FLAT_SLOTS,
	   "flat: lhist buckets as slots, within the slot budget");
	done(&r);
}

static void test_plain(void)
{
	const struct st_plain_stmt *st;
	const struct st_probe_cfg *cfg;
	struct result r;

	build("side:/app:http:request { @[args.method, pid] = hist(args.status); @n = count(); }"
	      " side:/app:http:response { @c = count(); }",
	      &r);
	ok(r.ret == 0 && r.c.nr_probes == 2, "plain: compile");
	if (r.ret) {
		done(&r);
		return;
	}
	cfg = &r.c.probes[0].cfg;
	st = &cfg->plain[0];
	ok(st_special_plain(&r.c.probes[0]) && cfg->nr_plain == 2, "plain: keyed hist and a count");
	ok(st->map == 0 && st->nr_parts == 2 && st->parts[0].src == ST_P_STR &&
		   st->parts[0].off == 0 && st->parts[1].src == ST_P_BUILTIN &&
		   st->parts[1].a == ST_BI_PID && st->parts[1].off == ST_STR_LEN,
	   "plain: a string field and a builtin as key parts, at their offsets");
	ok(st->value.src == ST_P_INT && cfg->loads[st->value.a].sdt_arg == 1 &&
		   st->mask == ((1U << 0) | (1U << 1)),
	   "plain: the value is a field; the clause's loads");
	ok(cfg->plain[1].map == 1 && cfg->plain[1].nr_parts == 0 &&
		   cfg->plain[1].value.src == ST_P_CONST,
	   "plain: count() is a constant");
	ok(!st_special_plain(&r.c.probes[1]) && r.c.probes[1].special == ST_SPECIAL_COUNT &&
		   !r.c.probes[1].cfg.nr_plain,
	   "plain: not for a count-only probe");
	ok(r.c.probes[0].special != ST_SPECIAL_FLAT, "flat: not with keys");
	done(&r);

	build("side:/app:http:request { @h = hist(args.status); @n = count(); @p = sum(pid); }",
	      &r);
	ok(r.ret == 0 && st_special_plain(&r.c.probes[0]) &&
		   r.c.probes[0].special == ST_SPECIAL_FLAT,
	   "flat: integers and builtins into maps without keys");
	done(&r);

	build("side:/app:http:request { @h = hist(args.status); @m[args.method] = count(); }", &r);
	ok(r.ret == 0 && st_special_plain(&r.c.probes[0]) &&
		   r.c.probes[0].special != ST_SPECIAL_FLAT,
	   "flat: not with a string");
	done(&r);

	build("side:/app:http:request /args.status == 200/ { @[args.method] = count(); }", &r);
	cfg = &r.c.probes[0].cfg;
	ok(r.ret == 0 && st_special_plain(&r.c.probes[0]) && cfg->nr_plain == 1 &&
		   cfg->plain[0].filtered && cfg->plain[0].filter.src == ST_P_INT &&
		   cfg->plain[0].filter_op == ST_B_EQ && cfg->plain[0].filter_imm == 200,
	   "plain: a field compared with a constant filters it");
	done(&r);

	build("side:/app:http:request /pid/ { @a = count(); @b = sum(args.status); }", &r);
	cfg = &r.c.probes[0].cfg;
	ok(r.ret == 0 && r.c.probes[0].special == ST_SPECIAL_FLAT && cfg->nr_plain == 2 &&
		   cfg->plain[0].filtered && cfg->plain[1].filtered &&
		   cfg->plain[1].filter.src == ST_P_BUILTIN &&
		   cfg->plain[1].filter.a == ST_BI_PID && cfg->plain[1].filter_op == ST_B_NE &&
		   cfg->plain[1].filter_imm == 0,
	   "plain: a bare builtin filters each statement of its clause");
	done(&r);

	build("side:/app:http:request { @a = count(); } side:/app:http:request /tid > -6/ { @b = "
	      "count(); }",
	      &r);
	cfg = &r.c.probes[0].cfg;
	ok(r.ret == 0 && st_special_plain(&r.c.probes[0]) && cfg->nr_plain == 2 &&
		   !cfg->plain[0].filtered && cfg->plain[1].filtered &&
		   cfg->plain[1].filter_imm == -6,
	   "plain: a filter is its clause's only; a negative constant");
	done(&r);

	build("side:/app:http:request /rand > 5/ { @a = count(); }", &r);
	ok(r.ret == 0 && !st_special_plain(&r.c.probes[0]), "plain: not with rand in the filter");
	done(&r);

	build("side:/app:http:request /args.status == 200 && pid/ { @a = count(); }", &r);
	ok(r.ret == 0 && !st_special_plain(&r.c.probes[0]), "plain: not with && in the filter");
	done(&r);

	build("side:/app:http:request /args.status == args.delta/ { @a = count(); }", &r);
	ok(r.ret == 0 && !st_special_plain(&r.c.probes[0]), "plain: not with two fields compared");
	done(&r);

	/* @[args.method] by address: the load (0) and the map allow it. */
	build("side:/app:http:request { @m[args.method] = count(); @s[args.method] = "
	      "sum(args.status); }",
	      &r);
	ok(r.ret == 0 && (r.c.maps[0].flags & ST_MAPF_READ_WHOLE) &&
		   (r.c.maps[1].flags & ST_MAPF_READ_WHOLE) && r.c.probes[0].cfg.ro_loads == 1U,
	   "address keys: a string load that only keys aggregations");
	done(&r);

	/* Compact keys: a string part in 16 bytes, the others where they follow. */
	build("side:/app:http:request { @k[args.status, args.method, probe] = hist(args.status); }",
	      &r);
	ok(r.ret == 0 && r.c.maps[0].str_parts == 2U && r.c.maps[0].key_size == 80 &&
		   r.c.maps[0].compact_size == 32 && r.c.layouts[0].parts[1].coff == 8 &&
		   r.c.layouts[0].parts[2].coff == 24 && r.c.compact_key_size == 8 + 32 + 8,
	   "compact keys: the layout of a map read whole");
	ok(r.ret == 0 && st_special_plain(&r.c.probes[0]) &&
		   r.c.probes[0].cfg.plain[0].parts[1].off == 8 &&
		   r.c.probes[0].cfg.plain[0].parts[2].off == 72 &&
		   r.c.probes[0].cfg.plain[0].parts[2].coff == 24,
	   "compact keys: a plain statement writes its parts where the layout says");
	done(&r);

	build("side:/app:http:request { @k[args.status] = count(); @v[args.method] = args.status; "
	      "}",
	      &r);
	ok(r.ret == 0 && !r.c.maps[0].str_parts && !r.c.maps[1].str_parts &&
		   r.c.compact_key_size == 8,
	   "compact keys: not without a string part, nor for plain values");
	done(&r);

	build("side:/app:http:request { @m[args.method] = count(); @d[args.method] = count(); }"
	      " END { delete(@d[\"GET\"]); }",
	      &r);
	ok(r.ret == 0 && (r.c.maps[0].flags & ST_MAPF_READ_WHOLE) &&
		   !(r.c.maps[1].flags & ST_MAPF_READ_WHOLE) && !r.c.probes[0].cfg.ro_loads,
	   "address keys: not for a map deleted by key, nor a load that keys it");
	done(&r);

	build("side:/app:http:request { @m[args.method] = count(); } END { print(@m[\"GET\"]); }",
	      &r);
	ok(r.ret == 0 && !(r.c.maps[0].flags & ST_MAPF_READ_WHOLE) && !r.c.probes[0].cfg.ro_loads,
	   "address keys: not for a map read by key");
	done(&r);

	build("side:/app:http:request { @v[args.method] = args.status; @c = count(); }", &r);
	ok(r.ret == 0 && !(r.c.maps[0].flags & ST_MAPF_READ_WHOLE) && !r.c.probes[0].cfg.ro_loads,
	   "address keys: not for plain values");
	done(&r);

	build("side:/app:http:request { @[args.hdr.name] = count(); }", &r);
	ok(r.ret == 0 && !st_special_plain(&r.c.probes[0]),
	   "plain: not with a field from the vector");
	done(&r);

	build("side:/app:http:request { @[uid] = count(); }", &r);
	ok(r.ret == 0 && st_special_plain(&r.c.probes[0]), "plain: a builtin the programs share");
	done(&r);

	build("side:/app:http:request { @[gid] = count(); }", &r);
	ok(r.ret == 0 && !st_special_plain(&r.c.probes[0]),
	   "plain: not with a builtin only the stack machine computes");
	done(&r);

	build("side:/app:http:request { @[comm] = sum(args.status + 1); }", &r);
	ok(r.ret == 0 && !st_special_plain(&r.c.probes[0]), "plain: not with comm or arithmetic");
	done(&r);

	build("side:/app:http:request { @a = count(); @b = count(); @c = count(); @d = count();"
	      " @e = sum(args.status); }",
	      &r);
	ok(r.ret == 0 && !st_special_plain(&r.c.probes[0]),
	   "plain: at most ST_MAX_PLAIN statements");
	done(&r);
}

/* Dynamic fields of a variadic event: found by name in its dynamic struct. */
static void test_dynamic(void)
{
	const struct st_probe_cfg *cfg;
	const struct st_load *ld;
	struct result r;

	build("side:/app:app:log /args.user == \"GET\"/ { @[args.user, args.msg] = "
	      "sum(args.attempt); "
	      "@m = max(args.attempt); }",
	      &r);
	ok(r.ret == 0, "dynamic: compiles");
	cfg = &r.c.probes[0].cfg;
	ok(cfg->variadic && cfg->vec_arg == 2 && cfg->dyn_arg == 3,
	   "dynamic: the dynamic struct is the last SDT argument");
	ok(cfg->nr_loads == 3, "dynamic: one load per name and type, the static field apart");
	ld = &cfg->loads[0];
	ok(ld->src == ST_SRC_DYN && ld->want == ST_WANT_STR && !strcmp(ld->name, "user") &&
		   ld->nr_steps == 1 && ld->steps[0].label == ST_LABEL_ANY_DYNAMIC,
	   "dynamic: a string by name, any dynamic label");
	ok(!memcmp(ld->name, "user\0\0\0\0", 8) && !ld->name[ST_NAME_LEN - 1],
	   "dynamic: name NUL-padded, as the kernel compares it whole");
	ok(cfg->loads[1].src == ST_SRC_SDT && cfg->loads[1].sdt_arg == 0,
	   "dynamic: the static field still comes from its SDT argument");
	ld = &cfg->loads[2];
	ok(ld->src == ST_SRC_DYN && ld->want == ST_WANT_INT && !strcmp(ld->name, "attempt"),
	   "dynamic: an integer by name");
	ok(!cfg->need_vec && cfg->sdt_mask == ((1U << 0) | (1U << 3)),
	   "dynamic: reads the value and the dynamic struct, not the vector");
	ok(cfg->str_loads == 3, "dynamic: string loads marked for fault-in");
	ok(insn(&r, 0, 1)->op == ST_I_STR && insn(&r, 0, 1)->a == 0 &&
		   insn(&r, 0, 3)->op == ST_I_STREQ,
	   "dynamic: filter compares the dynamic string");
	ok(insn(&r, 0, 5)->op == ST_I_STR && insn(&r, 0, 5)->a == 0 &&
		   insn(&r, 0, 6)->op == ST_I_KEY_STR,
	   "dynamic: string key");
	ok(insn(&r, 0, 9)->op == ST_I_FIELD && insn(&r, 0, 9)->a == 2 &&
		   insn(&r, 0, 10)->op == ST_I_AGG,
	   "dynamic: integer value");
	ok(insn(&r, 0, 0)->mask == 7, "dynamic: the clause needs its loads");
	ok(r.c.maps[0].flags & ST_MAPF_SIGNED, "dynamic: integers are signed");
	done(&r);

	build("side:/app:app:log { @h = hist(args.attempt); @[args.attempt] = count(); }", &r);
	ok(r.ret == 0 && r.c.probes[0].cfg.nr_loads == 1 &&
		   r.c.probes[0].cfg.loads[0].want == ST_WANT_INT &&
		   r.c.layouts[0].parts[0].kind == ST_KPART_INT,
	   "dynamic: a key typed by an earlier use is one integer load");
	done(&r);
}

/* The kernel hashes each map may live in, and their sizes (compile/hashes.c). */
static void test_hashes(void)
{
	struct result r;

	/* Keyed by comm in a specialized program: compact keys only. */
	build("side:/app:http:request { @[comm] = count(); @n[comm] = sum(args.status); }", &r);
	ok(r.ret == 0 && st_special_plain(&r.c.probes[0]) &&
		   st_compiled_map_hashes(&r.c, 0) == ST_HASH_COMPACT &&
		   st_compiled_map_hashes(&r.c, 1) == ST_HASH_COMPACT,
	   "hashes: comm keys of a plain probe are compact only");
	ok(st_compiled_hash_entries(&r.c, ST_HASH_COMPACT) == 2 * ST_DEFAULT_MAP_KEYS &&
		   st_compiled_hash_entries(&r.c, ST_HASH_AGGR) == 1,
	   "hashes: bpftrace's keys for each map, one entry where none lives");
	r.c.map_keys = 2;
	ok(st_compiled_hash_entries(&r.c, ST_HASH_COMPACT) == 4,
	   "hashes: BPFTRACE_MAP_KEYS_MAX for each map");
	done(&r);

	/* A string field may be long: either form. */
	build("side:/app:http:request { @[args.method] = count(); }", &r);
	ok(r.ret == 0 && st_compiled_map_hashes(&r.c, 0) == (ST_HASH_COMPACT | ST_HASH_AGGR),
	   "hashes: a string field's keys in either form");
	done(&r);

	/* The stack machine keys in full only; integers have no compact form. */
	build("side:/app:http:request /rand > 1/ { @[comm] = count(); } "
	      "side:/app:http:request { @i[args.status] = count(); @v[args.status] = 1; @h = "
	      "hist(1); }",
	      &r);
	ok(r.ret == 0 && st_compiled_map_hashes(&r.c, 0) == ST_HASH_AGGR &&
		   st_compiled_map_hashes(&r.c, 1) == ST_HASH_AGGR &&
		   st_compiled_map_hashes(&r.c, 2) == ST_HASH_VALUES &&
		   st_compiled_map_hashes(&r.c, 3) == 0,
	   "hashes: the stack machine's and integer keys full, values apart, no keys none");
	done(&r);

	/* A BEGIN clause aggregates on the stack machine's code: full keys too. */
	build("BEGIN { @[comm] = count(); } side:/app:http:request { @[comm] = count(); }", &r);
	ok(r.ret == 0 && r.c.user_aggs &&
		   st_compiled_map_hashes(&r.c, 0) == (ST_HASH_COMPACT | ST_HASH_AGGR),
	   "hashes: a BEGIN clause's aggregation keys in full");
	done(&r);
}

int main(void)
{
	/* What discovery does for every note it reads. */
	st_sdt_args_parse(req_site.args, &req_site.sdt);
	st_sdt_args_parse(resp_site.args, &resp_site.sdt);
	st_sdt_args_parse(log_site.args, &log_site.sdt);
	test_count();
	test_string_key();
	test_printf();
	test_paths();
	test_filters();
	test_aggregations();
	test_probes();
	test_pid_parts();
	test_errors();
	test_fast_paths();
	test_plain();
	test_dynamic();
	test_hashes();
	return unit_summary();
}
