// SPDX-License-Identifier: MIT
/*
 * Unit tests of the Prometheus exposition (output/prom.h): family and
 * label names from a program's maps and keys, label value escaping, the
 * histogram le edges of hist() and lhist(), the two formats and content
 * negotiation. The end-to-end checks against a real Prometheus are in
 * tests/bats/serve.bats.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/prom.h"
#include "parse/functions.h"

#include "unit.h"

static char *render(enum st_prom_format fmt, const struct st_prom_family *f,
		    const struct st_map_result *m)
{
	struct st_textbuf tb = {0};

	st_prom_map(&tb, fmt, f, m);
	st_prom_end(&tb, fmt);
	return st_tb_take(&tb);
}

static void check(const char *name, enum st_prom_format fmt, const struct st_prom_family *f,
		  const struct st_map_result *m, const char *want)
{
	char *got = render(fmt, f, m);

	ok_str(name, got, want);
	free(got);
}

/* A program with one map @name of kind agg keyed by keys[nr]. */
struct fake {
	struct st_program prog;
	struct st_clause clause;
	struct st_stmt stmt;
	struct st_map_info map;
	struct st_expr call;
	struct st_expr *keys[ST_MAX_MAP_KEYS];
};

static void fake_init(struct fake *p, const char *name, enum st_func fn, bool is_signed,
		      struct st_expr **keys, uint32_t nr)
{
	memset(p, 0, sizeof(*p));
	p->prog.filename = "test.st";
	p->prog.clauses = &p->clause;
	p->prog.nr_clauses = 1;
	p->prog.maps = &p->map;
	p->prog.nr_maps = 1;
	p->clause.stmts = &p->stmt;
	p->clause.nr_stmts = 1;
	p->stmt.kind = ST_STMT_AGG;
	p->stmt.call = &p->call;
	p->stmt.keys = keys;
	p->stmt.nr_keys = nr;
	p->call.kind = ST_EXPR_CALL;
	p->call.func = fn;
	p->map.name = (char *)name;
	p->map.agg = st_func_agg(fn);
	p->map.nr_keys = nr;
	p->map.value_signed = is_signed;
}

static void test_names(void)
{
	struct st_path_seg peer_port[] = {{.kind = ST_SEG_NAME, .name = "peer"},
					  {.kind = ST_SEG_NAME, .name = "port"}};
	struct st_path_seg shard[] = {{.kind = ST_SEG_NAME, .name = "shards"},
				      {.kind = ST_SEG_INDEX, .index = 2}};
	struct st_path_seg odd[] = {{.kind = ST_SEG_NAME, .name = "latency-ns"}};
	struct st_path_seg le[] = {{.kind = ST_SEG_NAME, .name = "le"}};
	struct st_expr e_port = {.kind = ST_EXPR_FIELD, .path = peer_port, .nr_path = 2};
	struct st_expr e_shard = {.kind = ST_EXPR_FIELD, .path = shard, .nr_path = 2};
	struct st_expr e_odd = {.kind = ST_EXPR_FIELD, .path = odd, .nr_path = 1};
	struct st_expr e_le = {.kind = ST_EXPR_FIELD, .path = le, .nr_path = 1};
	struct st_expr e_comm = {.kind = ST_EXPR_BUILTIN, .builtin = ST_BUILTIN_COMM};
	struct st_expr e_sum = {.kind = ST_EXPR_BINARY, .op = ST_OP_ADD};
	struct st_expr *keys[] = {&e_port, &e_shard, &e_odd, &e_comm, &e_sum, &e_comm, &e_le};
	struct st_prom_family f;
	struct st_diag diag = {0};
	struct fake p;

	fake_init(&p, "@lat", ST_FN_HIST, false, keys, 7);
	CHECK(!st_prom_family_init(&f, &p.prog, 0, &diag));
	CHECK_STR(f.name, "sidetrace_lat");
	CHECK(f.type == ST_PROM_HISTOGRAM && f.nr_labels == 7);
	CHECK_STR(f.labels[0], "peer_port");
	CHECK_STR(f.labels[1], "shards_2");
	CHECK_STR(f.labels[2], "latency_ns");
	CHECK_STR(f.labels[3], "comm");
	CHECK_STR(f.labels[4], "key4"); /* an expression names nothing */
	CHECK_STR(f.labels[5], "key5"); /* comm again */
	CHECK_STR(f.labels[6], "key6"); /* le is the histogram's */
	fake_init(&p, "@bytes_total", ST_FN_SUM, false, NULL, 0);
	CHECK(!st_prom_family_init(&f, &p.prog, 0, &diag));
	CHECK_STR(f.name, "sidetrace_bytes");
	CHECK(f.type == ST_PROM_COUNTER);
	fake_init(&p, "@codes", ST_FN_SUM, true, NULL, 0);
	CHECK(!st_prom_family_init(&f, &p.prog, 0, &diag) && f.type == ST_PROM_GAUGE);
	fake_init(&p, "@", ST_FN_COUNT, false, NULL, 0);
	CHECK(st_prom_family_init(&f, &p.prog, 0, &diag) == -EINVAL);
	CHECK(strstr(diag.msg, "the map @ has no name") != NULL);
}

static void test_counter_and_escaping(void)
{
	struct st_key_val k1[] = {{.type = ST_VT_STR, .s = "a\"b\\c\nd"},
				  {.type = ST_VT_INT, .i = -3}};
	struct st_key_val k2[] = {{.type = ST_VT_STR, .s = "caf\xc3\xa9 \xff\xc3"},
				  {.type = ST_VT_UINT, .u = 18446744073709551615ULL}};
	struct st_map_entry e[] = {{.keys = k1, .value = 7, .count = 7},
				   {.keys = k2, .value = 1, .count = 1}};
	struct st_map_result m = {
		.name = "@req", .agg = ST_K_COUNT, .nr_keys = 2, .entries = e, .nr_entries = 2};
	struct st_prom_family f = {.name = "sidetrace_req",
				   .type = ST_PROM_COUNTER,
				   .help = "count \"x\" \\ y",
				   .nr_labels = 2,
				   .labels = {"path", "code"}};

	check("counter, text 0.0.4", ST_PROM_TEXT, &f, &m,
	      "# HELP sidetrace_req_total count \"x\" \\\\ y\n"
	      "# TYPE sidetrace_req_total counter\n"
	      "sidetrace_req_total{path=\"a\\\"b\\\\c\\nd\",code=\"-3\"} 7\n"
	      "sidetrace_req_total{path=\"caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd\","
	      "code=\"18446744073709551615\"} 1\n");
	check("counter, OpenMetrics", ST_PROM_OPENMETRICS, &f, &m,
	      "# HELP sidetrace_req count \\\"x\\\" \\\\ y\n"
	      "# TYPE sidetrace_req counter\n"
	      "sidetrace_req_total{path=\"a\\\"b\\\\c\\nd\",code=\"-3\"} 7\n"
	      "sidetrace_req_total{path=\"caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd\","
	      "code=\"18446744073709551615\"} 1\n"
	      "# EOF\n");
	/* A counter without keys shows 0 before its first event. */
	m.nr_keys = 0;
	m.nr_entries = 0;
	f.nr_labels = 0;
	check("empty counter", ST_PROM_TEXT, &f, &m,
	      "# HELP sidetrace_req_total count \"x\" \\\\ y\n"
	      "# TYPE sidetrace_req_total counter\n"
	      "sidetrace_req_total 0\n");
}

static void test_histograms(void)
{
	uint64_t hb[ST_HIST_BUCKETS] = {[0] = 1, [1] = 2, [12] = 3}, lb[5] = {1, 0, 2, 0, 4};
	struct st_map_entry he = {.buckets = hb, .count = 6, .total = -5 + 3 * 1500};
	struct st_map_entry le = {.buckets = lb, .count = 7, .total = 700};
	struct st_map_result h = {.name = "@h",
				  .agg = ST_K_HIST,
				  .value_signed = true,
				  .entries = &he,
				  .nr_entries = 1};
	struct st_map_result l = {.name = "@l",
				  .agg = ST_K_LHIST,
				  .lhist_min = 0,
				  .lhist_max = 300,
				  .lhist_step = 100,
				  .entries = &le,
				  .nr_entries = 1};
	struct st_prom_family f = {.name = "sidetrace_l", .type = ST_PROM_HISTOGRAM};
	char *got;

	check("lhist(0, 300, 100): le -1, 99, 199, 299, +Inf", ST_PROM_TEXT, &f, &l,
	      "# HELP sidetrace_l \n"
	      "# TYPE sidetrace_l histogram\n"
	      "sidetrace_l_bucket{le=\"-1\"} 1\n"
	      "sidetrace_l_bucket{le=\"99\"} 1\n"
	      "sidetrace_l_bucket{le=\"199\"} 3\n"
	      "sidetrace_l_bucket{le=\"299\"} 3\n"
	      "sidetrace_l_bucket{le=\"+Inf\"} 7\n"
	      "sidetrace_l_sum 700\n"
	      "sidetrace_l_count 7\n");
	strcpy(f.name, "sidetrace_h");
	got = render(ST_PROM_TEXT, &f, &h);
	CHECK(got &&
	      strstr(got, "sidetrace_h_bucket{le=\"-1\"} 1\nsidetrace_h_bucket{le=\"0\"} 3\n"));
	CHECK(got && strstr(got, "sidetrace_h_bucket{le=\"1023\"} 3\n"
				 "sidetrace_h_bucket{le=\"2047\"} 6\n"));
	CHECK(got && strstr(got, "sidetrace_h_bucket{le=\"9223372036854775807\"} 6\n"
				 "sidetrace_h_bucket{le=\"+Inf\"} 6\n"
				 "sidetrace_h_sum 4495\nsidetrace_h_count 6\n"));
	free(got);
	/* Unsigned values are never negative: no le="-1". */
	h.value_signed = false;
	got = render(ST_PROM_TEXT, &f, &h);
	CHECK(got && !strstr(got, "le=\"-1\"") && strstr(got, "{le=\"0\"} 2\n"));
	free(got);
}

static void test_negotiation(void)
{
	CHECK(st_prom_negotiate(NULL) == ST_PROM_TEXT);
	CHECK(st_prom_negotiate("*/*") == ST_PROM_TEXT);
	CHECK(st_prom_negotiate("text/plain;version=0.0.4") == ST_PROM_TEXT);
	/* What Prometheus 2.42 sends. */
	CHECK(st_prom_negotiate("application/openmetrics-text;version=1.0.0,application/"
				"openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;"
				"q=0.5,*/*;q=0.1") == ST_PROM_OPENMETRICS);
	CHECK(st_prom_negotiate("application/openmetrics-text") == ST_PROM_OPENMETRICS);
	CHECK(st_prom_negotiate("application/openmetrics-text;version=0.0.1") == ST_PROM_TEXT);
	CHECK(st_prom_negotiate("application/openmetrics-text;q=0.2, text/plain") == ST_PROM_TEXT);
	CHECK(st_prom_negotiate("application/openmetrics-text;q=0") == ST_PROM_TEXT);
	/* Weights out of range are clamped, never converted as they are (UB). */
	CHECK(st_prom_negotiate("text/plain;q=1e999, application/openmetrics-text;q=0.5") ==
	      ST_PROM_TEXT);
	CHECK(st_prom_negotiate("application/openmetrics-text;q=-1e999, text/plain;q=0.1") ==
	      ST_PROM_TEXT);
	CHECK(st_prom_negotiate("application/openmetrics-text;q=nan") == ST_PROM_TEXT);
	CHECK(!strcmp(st_prom_content_type(ST_PROM_TEXT),
		      "text/plain; version=0.0.4; charset=utf-8"));
}

int main(void)
{
	test_names();
	test_counter_and_escaping();
	test_histograms();
	test_negotiation();
	return unit_summary();
}
