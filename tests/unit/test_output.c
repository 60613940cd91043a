// SPDX-License-Identifier: MIT
/*
 * Unit tests of the map printer. Every expected string below was captured
 * from bpftrace 0.17 (`bpftrace -e 'BEGIN { ...; exit(); }'`, and with
 * `-f json`) fed with the same values; the program is quoted above each.
 * Where bpftrace prints wrong numbers, the expectation is corrected and the
 * comment says so.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "parse/format.h"
#include "output/kept_text.h"
#include "output/maps_print.h"
#include "output/printf_print.h"
#include "output/record_print.h"
#include "util/interned.h"

#include "unit.h"

/* What st_output_map (nr == 1, !at_exit) or st_output_exit_maps prints. */
static char *render(enum st_output_format fmt, const struct st_map_result *maps, size_t nr,
		    bool at_exit)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f)
		abort();
	if (at_exit)
		err = st_output_exit_maps(f, fmt, maps, nr);
	else
		err = st_output_map(f, fmt, maps);
	fclose(f);
	if (err)
		abort();
	return buf;
}

static void check_map(const char *name, enum st_output_format fmt, const struct st_map_result *m,
		      const char *want)
{
	char *got = render(fmt, m, 1, false);

	ok_str(name, got, want);
	free(got);
}

static void check_exit(const char *name, enum st_output_format fmt,
		       const struct st_map_result *maps, size_t nr, const char *want)
{
	char *got = render(fmt, maps, nr, true);

	ok_str(name, got, want);
	free(got);
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define S(x) \
	{ \
		.type = ST_VT_STR, .s = (x) \
	}
#define I(x) \
	{ \
		.type = ST_VT_INT, .i = (x) \
	}

/*
 * BEGIN { @h = hist(5); @h = hist(0); @h = hist(-3); @h = hist(1);
 *         @h = hist(3000); @h = hist(3000); @h = hist(5000000);
 *         @h = hist(3000000000); exit(); }
 */
static void test_hist_suffixes(void)
{
	static uint64_t b[ST_HIST_BUCKETS] = {
		[0] = 1, [1] = 1, [2] = 1, [4] = 1, [13] = 2, [24] = 1, [33] = 1,
	};
	static const struct st_map_entry e = {.buckets = b};
	static const struct st_map_result m = {
		.name = "@h",
		.agg = ST_K_HIST,
		.entries = &e,
		.nr_entries = 1,
	};

	check_exit(
		"hist K/M/G text", ST_OUTPUT_TEXT, &m, 1,
		"\n"
		"\n"
		"@h: \n"
		"(..., 0)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[0]                    1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[1]                    1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[2, 4)                 0 |                                                    |\n"
		"[4, 8)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[8, 16)                0 |                                                    |\n"
		"[16, 32)               0 |                                                    |\n"
		"[32, 64)               0 |                                                    |\n"
		"[64, 128)              0 |                                                    |\n"
		"[128, 256)             0 |                                                    |\n"
		"[256, 512)             0 |                                                    |\n"
		"[512, 1K)              0 |                                                    |\n"
		"[1K, 2K)               0 |                                                    |\n"
		"[2K, 4K)               2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[4K, 8K)               0 |                                                    |\n"
		"[8K, 16K)              0 |                                                    |\n"
		"[16K, 32K)             0 |                                                    |\n"
		"[32K, 64K)             0 |                                                    |\n"
		"[64K, 128K)            0 |                                                    |\n"
		"[128K, 256K)           0 |                                                    |\n"
		"[256K, 512K)           0 |                                                    |\n"
		"[512K, 1M)             0 |                                                    |\n"
		"[1M, 2M)               0 |                                                    |\n"
		"[2M, 4M)               0 |                                                    |\n"
		"[4M, 8M)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[8M, 16M)              0 |                                                    |\n"
		"[16M, 32M)             0 |                                                    |\n"
		"[32M, 64M)             0 |                                                    |\n"
		"[64M, 128M)            0 |                                                    |\n"
		"[128M, 256M)           0 |                                                    |\n"
		"[256M, 512M)           0 |                                                    |\n"
		"[512M, 1G)             0 |                                                    |\n"
		"[1G, 2G)               0 |                                                    |\n"
		"[2G, 4G)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"\n");
	/*
	 * bpftrace 0.17 prints the last bucket as {"min": -2147483648,
	 * "max": 0, ...} (a 32-bit shift); corrected to its real bounds.
	 */
	check_map("hist K/M/G json", ST_OUTPUT_JSON, &m,
		  "{\"type\": \"hist\", \"data\": {\"@h\": [{\"max\": -1, \"count\": 1}, {\"min\": "
		  "0, \"max\": 0, \"count\": 1}, {\"min\": 1, \"max\": 1, \"count\": 1}, {\"min\": "
		  "2, \"max\": 3, \"count\": 0}, {\"min\": 4, \"max\": 7, \"count\": 1}, {\"min\": "
		  "8, \"max\": 15, \"count\": 0}, {\"min\": 16, \"max\": 31, \"count\": 0}, "
		  "{\"min\": 32, \"max\": 63, \"count\": 0}, {\"min\": 64, \"max\": 127, "
		  "\"count\": 0}, {\"min\": 128, \"max\": 255, \"count\": 0}, {\"min\": 256, "
		  "\"max\": 511, \"count\": 0}, {\"min\": 512, \"max\": 1023, \"count\": 0}, "
		  "{\"min\": 1024, \"max\": 2047, \"count\": 0}, {\"min\": 2048, \"max\": 4095, "
		  "\"count\": 2}, {\"min\": 4096, \"max\": 8191, \"count\": 0}, {\"min\": 8192, "
		  "\"max\": 16383, \"count\": 0}, {\"min\": 16384, \"max\": 32767, \"count\": 0}, "
		  "{\"min\": 32768, \"max\": 65535, \"count\": 0}, {\"min\": 65536, \"max\": "
		  "131071, \"count\": 0}, {\"min\": 131072, \"max\": 262143, \"count\": 0}, "
		  "{\"min\": 262144, \"max\": 524287, \"count\": 0}, {\"min\": 524288, \"max\": "
		  "1048575, \"count\": 0}, {\"min\": 1048576, \"max\": 2097151, \"count\": 0}, "
		  "{\"min\": 2097152, \"max\": 4194303, \"count\": 0}, {\"min\": 4194304, \"max\": "
		  "8388607, \"count\": 1}, {\"min\": 8388608, \"max\": 16777215, \"count\": 0}, "
		  "{\"min\": 16777216, \"max\": 33554431, \"count\": 0}, {\"min\": 33554432, "
		  "\"max\": 67108863, \"count\": 0}, {\"min\": 67108864, \"max\": 134217727, "
		  "\"count\": 0}, {\"min\": 134217728, \"max\": 268435455, \"count\": 0}, "
		  "{\"min\": 268435456, \"max\": 536870911, \"count\": 0}, {\"min\": 536870912, "
		  "\"max\": 1073741823, \"count\": 0}, {\"min\": 1073741824, \"max\": 2147483647, "
		  "\"count\": 0}, {\"min\": 2147483648, \"max\": 4294967295, \"count\": 1}]}}\n");
}

/*
 * BEGIN { @r = hist(2) x3; @r = hist(20) x7; @r = hist(100);
 *         @n = lhist(-3000, 0, 5120, 1024); @n = lhist(1000, 0, 5120, 1024) x2;
 *         @n = lhist(3500, 0, 5120, 1024); exit(); }
 * (bar lengths 3/7 and 1/7 of full width)
 */
static void test_bars(void)
{
	static uint64_t rb[ST_HIST_BUCKETS] = {[3] = 3, [6] = 7, [8] = 1};
	static uint64_t nb[7] = {[0] = 1, [1] = 2, [4] = 1};
	static const struct st_map_entry re = {.buckets = rb};
	static const struct st_map_entry ne = {.buckets = nb};
	static const struct st_map_result maps[] = {
		{.name = "@r", .agg = ST_K_HIST, .entries = &re, .nr_entries = 1},
		{.name = "@n",
		 .agg = ST_K_LHIST,
		 .lhist_min = 0,
		 .lhist_max = 5120,
		 .lhist_step = 1024,
		 .entries = &ne,
		 .nr_entries = 1},
	};

	check_exit(
		"bars text", ST_OUTPUT_TEXT, maps, ARRAY_SIZE(maps),
		"\n"
		"\n"
		"@n: \n"
		"(..., 0)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[0, 1K)                2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[1K, 2K)               0 |                                                    |\n"
		"[2K, 3K)               0 |                                                    |\n"
		"[3K, 4K)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"\n"
		"@r: \n"
		"[2, 4)                 3 |@@@@@@@@@@@@@@@@@@@@@@                              |\n"
		"[4, 8)                 0 |                                                    |\n"
		"[8, 16)                0 |                                                    |\n"
		"[16, 32)               7 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[32, 64)               0 |                                                    |\n"
		"[64, 128)              1 |@@@@@@@                                             |\n"
		"\n");
	check_exit("bars json", ST_OUTPUT_JSON, maps, ARRAY_SIZE(maps),
		   "{\"type\": \"hist\", \"data\": {\"@n\": [{\"max\": -1, \"count\": 1}, "
		   "{\"min\": 0, \"max\": 1023, \"count\": 2}, {\"min\": 1024, \"max\": 2047, "
		   "\"count\": 0}, {\"min\": 2048, \"max\": 3071, \"count\": 0}, {\"min\": 3072, "
		   "\"max\": 4095, \"count\": 1}]}}\n"
		   "{\"type\": \"hist\", \"data\": {\"@r\": [{\"min\": 2, \"max\": 3, \"count\": "
		   "3}, {\"min\": 4, \"max\": 7, \"count\": 0}, {\"min\": 8, \"max\": 15, "
		   "\"count\": 0}, {\"min\": 16, \"max\": 31, \"count\": 7}, {\"min\": 32, "
		   "\"max\": 63, \"count\": 0}, {\"min\": 64, \"max\": 127, \"count\": 1}]}}\n");
}

/*
 * BEGIN { @l = lhist(x, 0, 100, 10) for x in -5 5 15 15 55 100 1000;
 *   @k = lhist(2048, 0, 4096, 1024); @k = lhist(6000, 0, 4096, 1024);
 *   @g = lhist(5000000, 1048576, 4194304, 1048576);
 *   @s["a"] = stats(10); @s["a"] = stats(20); @s["b"] = stats(-7);
 *   @s["c"] = stats(5);
 *   @c["x"] = count() x1; @c["y"] = count() x2; @c["z"] = count() x3;
 *   @m["abc", 3] = count(); @m["abc", 4] = count() x2; @m["d", -1] = count();
 *   @sum[1] = sum(-5); @sum[2] = sum(10); @sum[3] = sum(3);
 *   @a = avg(10); @a = avg(3); @mn = min(-3); @mn = min(7);
 *   @mx = max(7); @mx = max(9); @ = count(); @st = stats(9); @st = stats(2);
 *   exit(); }
 */
static const uint64_t l_b[12] = {1, 1, 2, 0, 0, 0, 1, 0, 0, 0, 0, 2};
static const uint64_t k_b[6] = {[3] = 1, [5] = 1};
static const uint64_t g_b[5] = {[4] = 1};
static const struct st_key_val kx[] = {S("x")}, ky[] = {S("y")}, kz[] = {S("z")}, ka[] = {S("a")},
			       kb[] = {S("b")}, kc[] = {S("c")}, kabc3[] = {S("abc"), I(3)},
			       kabc4[] = {S("abc"), I(4)}, kd[] = {S("d"), I(-1)}, k1[] = {I(1)},
			       k2[] = {I(2)}, k3[] = {I(3)};
/* Entries in an order bpftrace would not print them: the printer sorts. */
static const struct st_map_entry c_e[] = {
	{.keys = kz, .value = 3},
	{.keys = kx, .value = 1},
	{.keys = ky, .value = 2},
};
static const struct st_map_entry m_e[] = {
	{.keys = kabc4, .value = 2},
	{.keys = kd, .value = 1},
	{.keys = kabc3, .value = 1},
};
static const struct st_map_entry s_e[] = {
	{.keys = ka, .count = 2, .total = 30},
	{.keys = kc, .count = 1, .total = 5},
	{.keys = kb, .count = 1, .total = -7},
};
static const struct st_map_entry sum_e[] = {
	{.keys = k2, .value = 10},
	{.keys = k3, .value = 3},
	{.keys = k1, .value = (uint64_t)-5},
};
static const struct st_map_entry l_e = {.buckets = l_b}, k_e = {.buckets = k_b},
				 g_e = {.buckets = g_b}, a_e = {.count = 2, .total = 13},
				 mn_e = {.value = (uint64_t)-3}, mx_e = {.value = 9},
				 at_e = {.value = 1}, st_e = {.count = 2, .total = 11};
/* Map names unordered too: at exit they print sorted by name. */
static const struct st_map_result many[] = {
	{.name = "@sum",
	 .agg = ST_K_SUM,
	 .nr_keys = 1,
	 .value_signed = true,
	 .entries = sum_e,
	 .nr_entries = ARRAY_SIZE(sum_e)},
	{.name = "@l",
	 .agg = ST_K_LHIST,
	 .lhist_min = 0,
	 .lhist_max = 100,
	 .lhist_step = 10,
	 .entries = &l_e,
	 .nr_entries = 1},
	{.name = "@k",
	 .agg = ST_K_LHIST,
	 .lhist_min = 0,
	 .lhist_max = 4096,
	 .lhist_step = 1024,
	 .entries = &k_e,
	 .nr_entries = 1},
	{.name = "@g",
	 .agg = ST_K_LHIST,
	 .lhist_min = 1048576,
	 .lhist_max = 4194304,
	 .lhist_step = 1048576,
	 .entries = &g_e,
	 .nr_entries = 1},
	{.name = "@s",
	 .agg = ST_K_STATS,
	 .nr_keys = 1,
	 .value_signed = true,
	 .entries = s_e,
	 .nr_entries = ARRAY_SIZE(s_e)},
	{.name = "@c",
	 .agg = ST_K_COUNT,
	 .nr_keys = 1,
	 .entries = c_e,
	 .nr_entries = ARRAY_SIZE(c_e)},
	{.name = "@m",
	 .agg = ST_K_COUNT,
	 .nr_keys = 2,
	 .entries = m_e,
	 .nr_entries = ARRAY_SIZE(m_e)},
	{.name = "@a", .agg = ST_K_AVG, .entries = &a_e, .nr_entries = 1},
	{.name = "@mn", .agg = ST_K_MIN, .value_signed = true, .entries = &mn_e, .nr_entries = 1},
	{.name = "@mx", .agg = ST_K_MAX, .value_signed = true, .entries = &mx_e, .nr_entries = 1},
	{.name = "@", .agg = ST_K_COUNT, .entries = &at_e, .nr_entries = 1},
	{.name = "@st", .agg = ST_K_STATS, .entries = &st_e, .nr_entries = 1},
};

static void test_many(void)
{
	check_exit(
		"all kinds text", ST_OUTPUT_TEXT, many, ARRAY_SIZE(many),
		"\n"
		"\n"
		"@: 1\n"
		"@a: 6\n"
		"\n"
		"@c[x]: 1\n"
		"@c[y]: 2\n"
		"@c[z]: 3\n"
		"@g: \n"
		"[4M, ...)              1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"\n"
		"@k: \n"
		"[2K, 3K)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[3K, 4K)               0 |                                                    |\n"
		"[4K, ...)              1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"\n"
		"@l: \n"
		"(..., 0)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[0, 10)                1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[10, 20)               2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[20, 30)               0 |                                                    |\n"
		"[30, 40)               0 |                                                    |\n"
		"[40, 50)               0 |                                                    |\n"
		"[50, 60)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[60, 70)               0 |                                                    |\n"
		"[70, 80)               0 |                                                    |\n"
		"[80, 90)               0 |                                                    |\n"
		"[90, 100)              0 |                                                    |\n"
		"[100, ...)             2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"\n"
		"@m[abc, 3]: 1\n"
		"@m[d, -1]: 1\n"
		"@m[abc, 4]: 2\n"
		"@mn: -3\n"
		"@mx: 9\n"
		"@s[b]: count 1, average -7, total -7\n"
		"@s[c]: count 1, average 5, total 5\n"
		"@s[a]: count 2, average 15, total 30\n"
		"\n"
		"@st: count 2, average 5, total 11\n"
		"\n"
		"@sum[1]: -5\n"
		"@sum[3]: 3\n"
		"@sum[2]: 10\n");
	/* bpftrace also prints two blank lines first: not JSON, left out. */
	check_exit(
		"all kinds json", ST_OUTPUT_JSON, many, ARRAY_SIZE(many),
		"{\"type\": \"map\", \"data\": {\"@\": 1}}\n"
		"{\"type\": \"stats\", \"data\": {\"@a\": 6}}\n"
		"{\"type\": \"map\", \"data\": {\"@c\": {\"x\": 1, \"y\": 2, \"z\": 3}}}\n"
		"{\"type\": \"hist\", \"data\": {\"@g\": [{\"min\": 4194304, \"count\": 1}]}}\n"
		"{\"type\": \"hist\", \"data\": {\"@k\": [{\"min\": 2048, \"max\": 3071, "
		"\"count\": 1}, {\"min\": 3072, \"max\": 4095, \"count\": 0}, {\"min\": 4096, "
		"\"count\": 1}]}}\n"
		"{\"type\": \"hist\", \"data\": {\"@l\": [{\"max\": -1, \"count\": 1}, {\"min\": "
		"0, \"max\": 9, \"count\": 1}, {\"min\": 10, \"max\": 19, \"count\": 2}, {\"min\": "
		"20, \"max\": 29, \"count\": 0}, {\"min\": 30, \"max\": 39, \"count\": 0}, "
		"{\"min\": 40, \"max\": 49, \"count\": 0}, {\"min\": 50, \"max\": 59, \"count\": "
		"1}, {\"min\": 60, \"max\": 69, \"count\": 0}, {\"min\": 70, \"max\": 79, "
		"\"count\": 0}, {\"min\": 80, \"max\": 89, \"count\": 0}, {\"min\": 90, \"max\": "
		"99, \"count\": 0}, {\"min\": 100, \"count\": 2}]}}\n"
		"{\"type\": \"map\", \"data\": {\"@m\": {\"abc,3\": 1, \"d,-1\": 1, \"abc,4\": "
		"2}}}\n"
		"{\"type\": \"map\", \"data\": {\"@mn\": -3}}\n"
		"{\"type\": \"map\", \"data\": {\"@mx\": 9}}\n"
		"{\"type\": \"stats\", \"data\": {\"@s\": {\"b\": {\"count\": 1, \"average\": -7, "
		"\"total\": -7}, \"c\": {\"count\": 1, \"average\": 5, \"total\": 5}, \"a\": "
		"{\"count\": 2, \"average\": 15, \"total\": 30}}}}\n"
		"{\"type\": \"stats\", \"data\": {\"@st\": {\"count\": 2, \"average\": 5, "
		"\"total\": 11}}}\n"
		"{\"type\": \"map\", \"data\": {\"@sum\": {\"1\": -5, \"3\": 3, \"2\": 10}}}\n");
}

/*
 * BEGIN { @h["b"] = hist(5); @h["b"] = hist(6); @h["a"] = hist(100);
 *   @e = count(); clear(@e); @l[1, "x"] = lhist(3, 0, 10, 1);
 *   @l[2, "y"] = lhist(30, 0, 10, 1); @l[2, "y"] = lhist(-30, 0, 10, 1);
 *   @s["q"] = stats(3); @s["r"] = stats(1) x3; @u[comm] = avg(4);
 *   @z = sum(5); print(@z); print(@u); print(@h); exit(); }
 */
static const uint64_t ha_b[ST_HIST_BUCKETS] = {[8] = 1};
static const uint64_t hb_b[ST_HIST_BUCKETS] = {[4] = 2};
static const uint64_t l1_b[12] = {[4] = 1};
static const uint64_t l2_b[12] = {[0] = 1, [11] = 1};
static const struct st_key_val kq[] = {S("q")}, kr[] = {S("r")}, kcomm[] = {S("bpftrace")},
			       k1x[] = {I(1), S("x")}, k2y[] = {I(2), S("y")};
static const struct st_map_entry h2_e[] = {
	{.keys = kb, .buckets = hb_b},
	{.keys = ka, .buckets = ha_b},
};
static const struct st_map_entry l2_e[] = {
	{.keys = k2y, .buckets = l2_b},
	{.keys = k1x, .buckets = l1_b},
};
static const struct st_map_entry s2_e[] = {
	{.keys = kq, .count = 1, .total = 3},
	{.keys = kr, .count = 3, .total = 3},
};
static const struct st_map_entry u_e = {.keys = kcomm, .count = 1, .total = 4}, z_e = {.value = 5},
				 e_e = {.value = 0};
static const struct st_map_result m2[] = {
	{.name = "@z", .agg = ST_K_SUM, .entries = &z_e, .nr_entries = 1},
	{.name = "@u", .agg = ST_K_AVG, .nr_keys = 1, .entries = &u_e, .nr_entries = 1},
	{.name = "@h",
	 .agg = ST_K_HIST,
	 .nr_keys = 1,
	 .entries = h2_e,
	 .nr_entries = ARRAY_SIZE(h2_e)},
	{.name = "@e", .agg = ST_K_COUNT, .entries = &e_e, .nr_entries = 1},
	{.name = "@l",
	 .agg = ST_K_LHIST,
	 .nr_keys = 2,
	 .lhist_min = 0,
	 .lhist_max = 10,
	 .lhist_step = 1,
	 .entries = l2_e,
	 .nr_entries = ARRAY_SIZE(l2_e)},
	{.name = "@s",
	 .agg = ST_K_STATS,
	 .nr_keys = 1,
	 .entries = s2_e,
	 .nr_entries = ARRAY_SIZE(s2_e)},
};

static void test_keyed(void)
{
	check_map("print sum text", ST_OUTPUT_TEXT, &m2[0], "@z: 5\n");
	check_map("print avg text", ST_OUTPUT_TEXT, &m2[1], "@u[bpftrace]: 4\n\n");
	check_map(
		"print keyed hist text", ST_OUTPUT_TEXT, &m2[2],
		"@h[a]: \n"
		"[64, 128)              1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"\n"
		"@h[b]: \n"
		"[4, 8)                 2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"\n");
	check_map("print sum json", ST_OUTPUT_JSON, &m2[0],
		  "{\"type\": \"map\", \"data\": {\"@z\": 5}}\n");
	check_map("print avg json", ST_OUTPUT_JSON, &m2[1],
		  "{\"type\": \"stats\", \"data\": {\"@u\": {\"bpftrace\": 4}}}\n");
	check_map("print keyed hist json", ST_OUTPUT_JSON, &m2[2],
		  "{\"type\": \"hist\", \"data\": {\"@h\": {\"a\": [{\"min\": 64, \"max\": 127, "
		  "\"count\": 1}], \"b\": [{\"min\": 4, \"max\": 7, \"count\": 2}]}}}\n");
	check_exit(
		"keyed at exit text", ST_OUTPUT_TEXT, m2, ARRAY_SIZE(m2),
		"\n"
		"\n"
		"@e: 0\n"
		"@h[a]: \n"
		"[64, 128)              1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"\n"
		"@h[b]: \n"
		"[4, 8)                 2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"\n"
		"@l[1, x]: \n"
		"[3, 4)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"\n"
		"@l[2, y]: \n"
		"(..., 0)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[0, 1)                 0 |                                                    |\n"
		"[1, 2)                 0 |                                                    |\n"
		"[2, 3)                 0 |                                                    |\n"
		"[3, 4)                 0 |                                                    |\n"
		"[4, 5)                 0 |                                                    |\n"
		"[5, 6)                 0 |                                                    |\n"
		"[6, 7)                 0 |                                                    |\n"
		"[7, 8)                 0 |                                                    |\n"
		"[8, 9)                 0 |                                                    |\n"
		"[9, 10)                0 |                                                    |\n"
		"[10, ...)              1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"\n"
		"@s[r]: count 3, average 1, total 3\n"
		"@s[q]: count 1, average 3, total 3\n"
		"\n"
		"@u[bpftrace]: 4\n"
		"\n"
		"@z: 5\n");
	check_exit("keyed at exit json", ST_OUTPUT_JSON, m2, ARRAY_SIZE(m2),
		   "{\"type\": \"map\", \"data\": {\"@e\": 0}}\n"
		   "{\"type\": \"hist\", \"data\": {\"@h\": {\"a\": [{\"min\": 64, \"max\": 127, "
		   "\"count\": 1}], \"b\": [{\"min\": 4, \"max\": 7, \"count\": 2}]}}}\n"
		   "{\"type\": \"hist\", \"data\": {\"@l\": {\"1,x\": [{\"min\": 3, \"max\": 3, "
		   "\"count\": 1}], \"2,y\": [{\"max\": -1, \"count\": 1}, {\"min\": 0, \"max\": "
		   "0, \"count\": 0}, {\"min\": 1, \"max\": 1, \"count\": 0}, {\"min\": 2, "
		   "\"max\": 2, \"count\": 0}, {\"min\": 3, \"max\": 3, \"count\": 0}, {\"min\": "
		   "4, \"max\": 4, \"count\": 0}, {\"min\": 5, \"max\": 5, \"count\": 0}, "
		   "{\"min\": 6, \"max\": 6, \"count\": 0}, {\"min\": 7, \"max\": 7, \"count\": "
		   "0}, {\"min\": 8, \"max\": 8, \"count\": 0}, {\"min\": 9, \"max\": 9, "
		   "\"count\": 0}, {\"min\": 10, \"count\": 1}]}}}\n"
		   "{\"type\": \"stats\", \"data\": {\"@s\": {\"r\": {\"count\": 3, \"average\": "
		   "1, \"total\": 3}, \"q\": {\"count\": 1, \"average\": 3, \"total\": 3}}}}\n"
		   "{\"type\": \"stats\", \"data\": {\"@u\": {\"bpftrace\": 4}}}\n"
		   "{\"type\": \"map\", \"data\": {\"@z\": 5}}\n");
}

/*
 * BEGIN { @c[1] = count(); @h[1] = hist(3); @s[1] = stats(3); clear(@c);
 *   clear(@h); clear(@s); print(@c); print(@h); print(@s);
 *   @k["a\"b\\c\td"] = count(); print(@k); @n = count(); zero(@n);
 *   print(@n); @hz = hist(5); zero(@hz); print(@hz); exit(); }
 */
static void test_empty_and_escapes(void)
{
	static const uint64_t zero_b[ST_HIST_BUCKETS];
	static const struct st_key_val kesc[] = {S("a\"b\\c\td")};
	static const struct st_map_entry k_e = {.keys = kesc, .value = 1}, n_e = {.value = 0},
					 hz_e = {.buckets = zero_b};
	static const struct st_map_result c = {.name = "@c", .agg = ST_K_COUNT, .nr_keys = 1};
	static const struct st_map_result h = {.name = "@h", .agg = ST_K_HIST, .nr_keys = 1};
	static const struct st_map_result s = {.name = "@s", .agg = ST_K_STATS, .nr_keys = 1};
	static const struct st_map_result k = {
		.name = "@k", .agg = ST_K_COUNT, .nr_keys = 1, .entries = &k_e, .nr_entries = 1};
	static const struct st_map_result n = {
		.name = "@n", .agg = ST_K_COUNT, .entries = &n_e, .nr_entries = 1};
	static const struct st_map_result hz = {
		.name = "@hz", .agg = ST_K_HIST, .entries = &hz_e, .nr_entries = 1};

	check_map("empty count text", ST_OUTPUT_TEXT, &c, "\n");
	check_map("empty hist text", ST_OUTPUT_TEXT, &h, "\n");
	check_map("empty stats text", ST_OUTPUT_TEXT, &s, "\n\n");
	check_map("empty count json", ST_OUTPUT_JSON, &c, "");
	check_map("empty hist json", ST_OUTPUT_JSON, &h, "");
	/* Unlike bpftrace, a control byte of a key never reaches the terminal raw. */
	check_map("escaped key text", ST_OUTPUT_TEXT, &k, "@k[a\"b\\\\c\\x09d]: 1\n");
	check_map("escaped key json", ST_OUTPUT_JSON, &k,
		  "{\"type\": \"map\", \"data\": {\"@k\": {\"a\\\"b\\\\c\\td\": 1}}}\n");
	check_map("zeroed count text", ST_OUTPUT_TEXT, &n, "@n: 0\n");
	check_map("zeroed hist text", ST_OUTPUT_TEXT, &hz, "@hz: \n\n");
	check_map("zeroed hist json", ST_OUTPUT_JSON, &hz,
		  "{\"type\": \"hist\", \"data\": {\"@hz\": []}}\n");
}

/* Beyond what bpftrace 0.17 can print: its hist stops at [2G, 4G). */
static void test_hist_top(void)
{
	static const uint64_t b[ST_HIST_BUCKETS] = {[42] = 1, [65] = 1};
	static const struct st_map_entry e = {.buckets = b};
	static const struct st_map_result m = {
		.name = "@t", .agg = ST_K_HIST, .entries = &e, .nr_entries = 1};
	char *text = render(ST_OUTPUT_TEXT, &m, 1, false);
	char *json = render(ST_OUTPUT_JSON, &m, 1, false);

	ok_str("hist 2^40 label", strstr(text, "[1T, 2T)") ? "y" : "n", "y");
	ok_str("hist 2^63 label", strstr(text, "[8388608T, 16777216T)") ? "y" : "n", "y");
	ok_str("hist 2^63 json",
	       strstr(json, "{\"min\": 9223372036854775808, \"max\": 18446744073709551615, "
			    "\"count\": 1}]")
		       ? "y"
		       : "n",
	       "y");
	free(text);
	free(json);
}

static void test_attached(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	st_output_attached(f, ST_OUTPUT_TEXT, 1);
	st_output_attached(f, ST_OUTPUT_TEXT, 3);
	st_output_attached(f, ST_OUTPUT_JSON, 1);
	fclose(f);
	ok_str("attached", buf,
	       "Attaching 1 probe...\n"
	       "Attaching 3 probes...\n"
	       "{\"type\": \"attached_probes\", \"data\": {\"probes\": 1}}\n");
	free(buf);
}

/*
 * print(args) in text: a string from the application is escaped by the
 * one text rule (a backslash doubled, controls and bad bytes as \xNN),
 * not by JSON's; JSON keeps JSON's.
 */
static void test_event_escapes(void)
{
	static struct st_field fields[] = {{"s", {.label = SIDE_TYPE_STRING_UTF8, .size = 1}}};
	const struct st_event ev = {
		.provider = "p", .name = "e", .has_side = true, .fields = fields, .nr_fields = 1};
	/* The event's item (its field count), then the string's. */
	const struct st_item top = {.label = SIDE_TYPE_STRUCT, .count = 1};
	const struct st_item it = {.label = SIDE_TYPE_STRING_UTF8, .size = 16};
	const struct st_rec_hdr h = {0};
	uint8_t items[2 * ST_ITEM_HDR + 16] = {0};
	struct st_textbuf tb = {0};

	memcpy(items, &top, sizeof(top));
	memcpy(items + ST_ITEM_HDR, &it, sizeof(it));
	memcpy(items + 2 * ST_ITEM_HDR, "a\\x0a\x01\xff\n", 8);
	ok(st_format_event(&tb, ST_OUTPUT_TEXT, &ev, "side:x:p:e", &h, items, sizeof(items)) ==
		   ST_TEXT_OK,
	   "an event of one string formats");
	ok_str("print(args) text escapes", tb.s, "{ .s = \"a\\\\x0a\\x01\\xff\\x0a\" }\n");
	st_tb_free(&tb);
}

/*
 * printf of floats: the record's bits of a binary32 and a binary64 as
 * C's conversions print the values; print(args)'s JSON shows them as
 * numbers.
 */
static void test_printf_floats(void)
{
	const float f = -1.5f;
	const double d = 0.1;
	uint64_t raw[2] = {0};
	struct st_key_val vals[2];
	const char *names[] = {"f", "d"};
	const struct st_rec_hdr h = {.pid = 7, .tid = 7};
	struct st_textbuf tb = {0};
	struct st_format fmt;
	char err[128];
	uint32_t at;

	memcpy(&raw[0], &f, sizeof(f));
	memcpy(&raw[1], &d, sizeof(d));
	st_key_val_float(&vals[0], &raw[0], 32);
	st_key_val_float(&vals[1], &raw[1], 64);
	ok(!st_format_parse("%.2f %e|%-6g|%lf %A\n", &fmt, err, sizeof(err), &at) &&
		   fmt.nr_convs == 5,
	   "float conversions parse, l allowed");
	st_format_values(&tb, &fmt,
			 (const struct st_key_val[]){vals[0], vals[1], vals[0], vals[1], vals[0]},
			 false);
	ok_str("floats print as C prints them", tb.s,
	       "-1.50 1.000000e-01|-1.5  |0.100000 -0X1.8P+0\n");
	st_tb_reset(&tb);
	st_format_fields_json(&tb, "uprobe:x:f", &h, names, vals, 2);
	ok(tb.s && strstr(tb.s, "\"data\": {\"f\": -1.5, \"d\": 0.1}}"), "JSON: floats as numbers");
	st_format_free(&fmt);
	st_tb_free(&tb);
}

/*
 * printf's values: the bytes as they are (bpftrace's), the user's format
 * always; on a terminal, what of %s and %c could drive it as \xNN (a
 * width counts the bytes, before).
 */
static void test_printf_terminal(void)
{
	const struct st_key_val vals[] = {
		{.type = ST_VT_STR, .s = "a\tb\nc\x1b[2J\xff\\x0a\r\xc3\xa9"},
		{.type = ST_VT_INT, .i = 27},
		{.type = ST_VT_INT, .i = '\n'},
		{.type = ST_VT_STR, .s = "\x1b]0;x\x07"},
	};
	struct st_textbuf tb = {0};
	struct st_format fmt;
	char err[128];
	uint32_t at;

	ok(!st_format_parse("\x1b[1m<%s>%c%c|%-10s|\n", &fmt, err, sizeof(err), &at),
	   "a format with an escape sequence of the user's parses");
	st_format_values(&tb, &fmt, vals, false);
	ok_str("not a terminal: every byte as it is", tb.s,
	       "\x1b[1m<a\tb\nc\x1b[2J\xff\\x0a\r\xc3\xa9>\x1b\n|\x1b]0;x\x07    |\n");
	st_tb_reset(&tb);
	st_format_values(&tb, &fmt, vals, true);
	ok_str("a terminal: controls but newline and tab, malformed bytes as \\xNN", tb.s,
	       "\x1b[1m<a\tb\nc\\x1b[2J\\xff\\x0a\\x0d\xc3\xa9>\\x1b\n"
	       "|\\x1b]0;x\\x07    |\n");
	st_format_free(&fmt);
	st_tb_free(&tb);
}

/*
 * What an in-process engine may leave in its memory: a count of -1 and a
 * total of INT64_MIN, whose average INT64_MIN / -1 overflows (a SIGFPE
 * on x86 for a plain division). bpftrace has no such values; each prints
 * as the wrapped quotient, INT64_MIN, and the printer goes on.
 */
static const struct st_map_entry hostile_e = {.count = -1, .total = INT64_MIN};
static const struct st_key_val khostile[] = {I(1)};
static const struct st_map_entry hostile_k[] = {
	{.keys = khostile, .count = -1, .total = INT64_MIN},
};
static const struct st_map_entry hostile_v = {.value = (uint64_t)INT64_MIN};

static void test_hostile_values(void)
{
	struct st_map_result a = {
		.name = "@a", .agg = ST_K_AVG, .entries = &hostile_e, .nr_entries = 1};
	struct st_map_result s = {
		.name = "@s", .agg = ST_K_STATS, .entries = &hostile_e, .nr_entries = 1};
	struct st_map_result k = {
		.name = "@k", .agg = ST_K_AVG, .nr_keys = 1, .entries = hostile_k, .nr_entries = 1};
	struct st_map_result v = {.name = "@v",
				  .agg = ST_K_SUM,
				  .value_signed = true,
				  .entries = &hostile_v,
				  .nr_entries = 1,
				  .div = UINT64_MAX};

	check_map("avg of count -1, total INT64_MIN", ST_OUTPUT_TEXT, &a,
		  "@a: -9223372036854775808\n\n");
	check_map("stats of count -1, total INT64_MIN", ST_OUTPUT_TEXT, &s,
		  "@s: count -1, average -9223372036854775808, total -9223372036854775808\n\n");
	check_map("stats of count -1 json", ST_OUTPUT_JSON, &s,
		  "{\"type\": \"stats\", \"data\": {\"@s\": {\"count\": -1, \"average\": "
		  "-9223372036854775808, \"total\": -9223372036854775808}}}\n");
	check_map("keyed avg of count -1", ST_OUTPUT_TEXT, &k, "@k[1]: -9223372036854775808\n\n");
	a.div = UINT64_MAX;
	check_map("avg divided by -1 as a signed divisor", ST_OUTPUT_TEXT, &a,
		  "@a: -9223372036854775808\n\n");
	check_map("signed sum INT64_MIN divided by -1", ST_OUTPUT_TEXT, &v,
		  "@v: -9223372036854775808\n");
}

/* The year strftime() gives ns, or 0 when it printed nothing. */
static int strftime_year(uint64_t ns)
{
	char buf[16];

	st_strftime_ns(buf, sizeof(buf), "%Y", ns);
	return atoi(buf);
}

/*
 * Any 64-bit time prints (a record's or a map's, which a process's engine
 * may have written): taken unsigned, as bpftrace does, within 585 years
 * of the boot. INT64_MAX made the old signed sum wrap to the 18th century,
 * UINT64_MAX read as just before the boot.
 */
static void test_strftime_any_value(void)
{
	int boot = strftime_year(0), big = strftime_year(INT64_MAX),
	    past = strftime_year((uint64_t)INT64_MAX + 1), max = strftime_year(UINT64_MAX);

	CHECK(boot >= 2024 && strftime_year(1) == boot);
	/* 2^63 ns is 292.3 years. */
	CHECK(big >= boot + 292 && big <= boot + 293);
	CHECK(past >= big && past <= big + 1);
	/* 2^64 ns is 584.5 years. */
	CHECK(max >= boot + 584 && max <= boot + 585 && strftime_year(UINT64_MAX - 1) == max);
}

/*
 * A time kept with its format (strftime() as a value): the format's id in
 * the top byte, interned once per text; printed with that format, and a
 * hostile value (any top byte, an id never given) prints without one.
 */
static void test_kept_with_format(void)
{
	int a = st_intern("y%Y"), b = st_intern("%%"), again = st_intern("y%Y");
	char text[ST_KEPT_TEXT_MAX], want[32];

	CHECK(a > 0 && b > 0 && a != b && again == a);
	CHECK(!strcmp(st_interned((unsigned int)a), "y%Y") && !st_interned(0) &&
	      !st_interned(ST_INTERNED_MAX));
	st_kept_text(ST_KEPT_TIME, st_kept_with_arg(1, (unsigned int)b), text, sizeof(text));
	CHECK(!strcmp(text, "%"));
	snprintf(want, sizeof(want), "y%d", strftime_year(1));
	st_kept_text(ST_KEPT_TIME, st_kept_with_arg(1, (unsigned int)a), text, sizeof(text));
	CHECK(!strcmp(text, want));
	CHECK(st_kept_bare(st_kept_with_arg(UINT64_MAX, 3)) == ST_KEPT_VALUE_MASK &&
	      st_kept_arg(st_kept_with_arg(UINT64_MAX, 3)) == 3);
	st_kept_text(ST_KEPT_TIME, UINT64_MAX, text, sizeof(text));
	CHECK(!strcmp(text, ""));
}

int main(void)
{
	test_kept_with_format();
	test_strftime_any_value();
	test_hostile_values();
	test_printf_terminal();
	test_printf_floats();
	test_event_escapes();
	test_hist_suffixes();
	test_bars();
	test_many();
	test_keyed();
	test_empty_and_escapes();
	test_hist_top();
	test_attached();
	return unit_summary();
}
