// SPDX-License-Identifier: MIT
/*
 * Unit tests of the kernel/collector arithmetic (bpf/sidetrace_arith.h):
 * the BPF program computes buckets and encodings with these functions, the
 * collector sizes and decodes with them, so checking them here checks both
 * sides. References are computed the slow, obvious way.
 */
#include <stdint.h>
#include <stdio.h>

#include "sidetrace.h"

#include "unit.h"

/* hist() bucket by definition: the k whose range [2^(k-2), 2^(k-1)) holds v. */
static uint64_t ref_hist_bucket(int64_t v, int is_signed)
{
	uint64_t u = v, k = 2;

	if (is_signed && v < 0)
		return 0;
	if (!u)
		return 1;
	while (u > 1) {
		u >>= 1;
		k++;
	}
	return k;
}

static void test_log2_and_hist(void)
{
	int bad = 0, shift;
	uint64_t v;

	for (shift = 0; shift < 64; shift++) {
		v = 1ULL << shift;
		bad += st_log2_u64(v) != (uint64_t)shift;
		bad += shift > 1 && st_log2_u64(v - 1) != (uint64_t)shift - 1;
		bad += st_log2_u64(v | (v - 1)) != (uint64_t)shift;
		bad += st_hist_bucket(v, 0) != ref_hist_bucket(v, 0);
		bad += st_hist_bucket(v + 1, 0) != ref_hist_bucket(v + 1, 0);
	}
	ok(!bad, "log2 and hist buckets agree with the definition at every power of 2");
	ok(st_hist_bucket(0, 1) == 1 && st_hist_bucket(1, 1) == 2 && st_hist_bucket(-1, 1) == 0,
	   "hist: 0, 1 and negative values have buckets 1, 2 and 0");
	ok(st_hist_bucket(-1, 0) == ST_HIST_BUCKETS - 1,
	   "hist: an unsigned 2^64 - 1 is in the last bucket, never negative");
	ok(st_hist_bucket(INT64_MIN, 1) == 0, "hist: INT64_MIN signed is negative");
}

/* Each bucket's largest value is in it, the next value in the next bucket. */
static void test_bucket_max(void)
{
	uint64_t b, max, n = st_lhist_buckets(-5, 6, 5);
	int bad = 0;

	for (b = 0; b < ST_HIST_BUCKETS; b++) {
		max = st_hist_bucket_max(b);
		bad += st_hist_bucket(max, b == 0) != b;
		bad += b + 1 < ST_HIST_BUCKETS && st_hist_bucket(max + 1, 0) != b + 1;
	}
	ok(!bad, "hist: every bucket's max is its largest value");
	ok(st_hist_bucket_max(0) == (uint64_t)-1 && st_hist_bucket_max(2) == 1 &&
		   st_hist_bucket_max(12) == 2047 && st_hist_bucket_max(65) == UINT64_MAX,
	   "hist: bucket maxima -1, 1, 2047, 2^64 - 1");
	for (b = 0, bad = 0; b + 1 < n; b++) {
		max = st_lhist_bucket_max(b, -5, 5);
		bad += st_lhist_bucket(max, -5, 6, 5) != b;
		bad += st_lhist_bucket(max + 1, -5, 6, 5) != b + 1;
	}
	ok(!bad, "lhist(-5, 6, 5): every bucket's max is its largest value");
}

static void test_lhist(void)
{
	int64_t v;
	int bad = 0;

	/* lhist(v, 0, 100, 10): 12 buckets, < 0, [0,10) .. [90,100), >= 100. */
	ok(st_lhist_buckets(0, 100, 10) == 12, "lhist(0, 100, 10) has 12 buckets");
	ok(st_lhist_buckets(-5, 6, 5) == 4, "lhist(-5, 6, 5): a partial last step rounds down");
	for (v = -20; v < 120; v++) {
		uint64_t want = v < 0 ? 0 : v >= 100 ? 11 : (uint64_t)v / 10 + 1;

		bad += st_lhist_bucket(v, 0, 100, 10) != want;
	}
	ok(!bad, "lhist buckets of -20..119 in lhist(0, 100, 10)");
	ok(st_lhist_bucket(INT64_MAX, -100, 100, 1) == st_lhist_buckets(-100, 100, 1) - 1,
	   "lhist: the largest value is in the last bucket");
	ok(st_lhist_bucket(7, 0, 100, 0) == 0, "lhist: an unconfigured step is bucket 0");
}

static void test_minmax_encoding(void)
{
	static const int64_t vals[] = {0, 1, -1, 42, -42, INT64_MAX, INT64_MIN};
	uint64_t mn = 0, mx = 0, umx = 0, umn = 0;
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		uint64_t e;

		bad += st_max_decode(st_max_encode(vals[i], 1), 1) != (uint64_t)vals[i];
		bad += st_min_decode(st_min_encode(vals[i], 1), 1) != (uint64_t)vals[i];
		/* A zeroed value is neutral: the unsigned maximum is the aggregate. */
		e = st_min_encode(vals[i], 1);
		mn = e > mn ? e : mn;
		e = st_max_encode(vals[i], 1);
		mx = e > mx ? e : mx;
		e = st_min_encode(vals[i], 0);
		umn = e > umn ? e : umn;
		e = st_max_encode(vals[i], 0);
		umx = e > umx ? e : umx;
	}
	ok(!bad, "min and max encodings decode to the value, signed");
	ok((int64_t)st_min_decode(mn, 1) == INT64_MIN, "signed min over the values is INT64_MIN");
	ok((int64_t)st_max_decode(mx, 1) == INT64_MAX, "signed max over the values is INT64_MAX");
	ok(st_min_decode(umn, 0) == 0, "unsigned min over the values is 0");
	ok(st_max_decode(umx, 0) == UINT64_MAX, "unsigned max: -1 is 2^64 - 1");
}

static void test_key_layout(void)
{
	ok(st_key_len(ST_K_COUNT, 16) == ST_KEY_HDR + 16, "count key: header and parts");
	ok(st_key_len(ST_K_HIST, 16) == ST_KEY_HDR + 16 + 8, "hist key: header, parts, bucket");
	ok(st_key_bucket_off(16) == ST_KEY_HDR + 16, "the bucket follows the parts");
	ok(st_key_len(ST_K_LHIST, ST_KEY_PARTS_MAX) == ST_KEY_MAX,
	   "the largest lhist key fits the kernel's key limit exactly");
	ok(sizeof(struct st_key_hdr) == ST_KEY_HDR, "struct st_key_hdr is ST_KEY_HDR bytes");
}

/*
 * Division of any two values, as C's where it is defined: the collector
 * divides map values a process's engine wrote with these (averages), and
 * this test runs under UBSan, which aborts on an overflowing negation.
 */
static void test_division(void)
{
	static const int64_t vals[] = {0, 1, -1, 2, -2, 7, -7, INT64_MAX, INT64_MIN, INT64_MIN + 1};
	size_t i, j, n = sizeof(vals) / sizeof(vals[0]), bad = 0;
	int64_t a, b;

	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			a = vals[i];
			b = vals[j];
			if (!b || (a == INT64_MIN && b == -1))
				continue;
			bad += st_binary(ST_B_DIV, a, b) != a / b ||
			       st_binary(ST_B_MOD, a, b) != a % b;
		}
	}
	ok(!bad, "signed / and %% agree with C's wherever C's are defined");
	ok(st_sdiv(INT64_MIN, 1, 0) == INT64_MIN && st_sdiv(INT64_MIN, 2, 0) == INT64_MIN / 2,
	   "INT64_MIN divided: its magnitude negated back");
	ok(st_sdiv(INT64_MIN, -1, 0) == INT64_MIN, "INT64_MIN / -1 wraps, as INT64_MIN * -1 does");
	ok(st_sdiv(INT64_MIN, -1, 1) == 0, "INT64_MIN % -1 is 0");
	ok(st_sdiv(5, 0, 0) == 0 && st_sdiv(INT64_MIN, 0, 1) == 0, "by zero: 0");
}

int main(void)
{
	test_division();
	test_log2_and_hist();
	test_bucket_max();
	test_lhist();
	test_minmax_encoding();
	test_key_layout();
	return unit_summary();
}
