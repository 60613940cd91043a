// SPDX-License-Identifier: MIT
/*
 * The BPF program's keys and aggregations, without the language front
 * end, as test_interp.c does for the other opcodes: ST_I_KEY_INT and
 * ST_I_KEY_STR into st_aggr keys, ST_I_AGG into every aggregation kind,
 * with and without keys, hist and lhist buckets, min and max of negative
 * values as signed and unsigned. Needs root (BPF, uprobes).
 */
#include "event.h"

/* Key parts: an integer, then a NUL-padded string. */
struct int_str_key {
	int64_t i;
	char s[ST_STR_LEN];
};

/* Checks map id's count under key (i, s). */
static void key_count(uint8_t id, int64_t i, const char *s, int64_t want, const char *name)
{
	struct int_str_key k = {.i = i};
	struct st_val v;

	snprintf(k.s, sizeof(k.s), "%s", s);
	h_eq(name, h_keyed(&run, &prog, id, &k, 0, &v) ? v.count : -1, want);
}

/* test_keys' program, into maps m[0..5]. */
static void keys_prog(const uint8_t *m)
{
	/* @0[a, s] = count(); @1[comm] = sum(b); @2[pid] = count() */
	CLAUSE(&prog, BIT(L_A) | BIT(L_B) | BIT(L_S));
	FIELD(&prog, L_A);
	KEY_INT(&prog, 0);
	STR(&prog, L_S);
	KEY_STR(&prog, 8);
	CONST(&prog, 1);
	AGG(&prog, m[0]);
	STR(&prog, REF_COMM);
	KEY_STR(&prog, 0);
	FIELD(&prog, L_B);
	AGG(&prog, m[1]);
	BUILTIN(&prog, ST_BI_PID);
	KEY_INT(&prog, 0);
	CONST(&prog, 1);
	AGG(&prog, m[2]);
	/* @3 with a part beyond the key's bytes, then before them. */
	CLAUSE(&prog, BIT(L_A));
	FIELD(&prog, L_A);
	KEY_INT(&prog, ST_KEY_PARTS_MAX - 7);
	CONST(&prog, 1);
	AGG(&prog, m[3]);
	CLAUSE(&prog, BIT(L_A));
	FIELD(&prog, L_A);
	KEY_INT(&prog, -8);
	CONST(&prog, 1);
	AGG(&prog, m[3]);
	/* @4[a, s] then @4[b] alone: the string part must be cleared by then. */
	CLAUSE(&prog, BIT(L_A) | BIT(L_B) | BIT(L_S));
	FIELD(&prog, L_A);
	KEY_INT(&prog, 0);
	STR(&prog, L_S);
	KEY_STR(&prog, 8);
	CONST(&prog, 1);
	AGG(&prog, m[4]);
	FIELD(&prog, L_B);
	KEY_INT(&prog, 0);
	CONST(&prog, 1);
	AGG(&prog, m[4]);
	/* @5["lit"]: a literal as a key part. */
	CLAUSE(&prog, 0);
	STR(&prog, REF_LIT(0));
	KEY_STR(&prog, 0);
	CONST(&prog, 1);
	AGG(&prog, m[5]);
}

/*
 * ST_I_KEY_INT and ST_I_KEY_STR build st_aggr keys: integer and string
 * parts, comm, builtins; a part out of the key's bounds skips the clause;
 * ST_I_AGG clears the key for the next statement.
 */
static void test_keys(void)
{
	static const struct {
		int64_t a, b;
		const char *s;
	} evs[] = {{1, 10, "GET"}, {1, 20, "PUT"}, {2, 30, "GET"}, {1, 40, "GET"}};
	char comm[ST_STR_LEN] = COMM, lit[ST_STR_LEN] = "lit";
	int64_t pid = getpid();
	uint8_t m[6];
	struct st_val v;
	size_t i;

	h_prog_init(&prog);
	std_loads(&prog, false);
	m[0] = h_map(&prog, ST_K_COUNT, true, sizeof(struct int_str_key), 0, 0, 0);
	m[1] = h_map(&prog, ST_K_SUM, true, ST_STR_LEN, 0, 0, 0);
	m[2] = h_map(&prog, ST_K_COUNT, true, 8, 0, 0, 0);
	m[3] = h_map(&prog, ST_K_COUNT, true, 8, 0, 0, 0);
	m[4] = h_map(&prog, ST_K_COUNT, true, sizeof(struct int_str_key), 0, 0, 0);
	m[5] = h_map(&prog, ST_K_COUNT, true, ST_STR_LEN, 0, 0, 0);
	snprintf(prog.cfg.strs[0], ST_STR_LEN, "lit");
	keys_prog(m);
	if (!h_load(&run, &prog, "keys"))
		return;
	for (i = 0; i < ARRAY_SIZE(evs); i++)
		fire(evs[i].a, evs[i].b, EV_U, evs[i].s);
	key_count(m[0], 1, "GET", 2, "keys: [1, \"GET\"] counts 2");
	key_count(m[0], 1, "PUT", 1, "keys: [1, \"PUT\"] counts 1");
	key_count(m[0], 2, "GET", 1, "keys: [2, \"GET\"] counts 1");
	key_count(m[0], 2, "PUT", -1, "keys: [2, \"PUT\"] is absent");
	ok(h_keyed(&run, &prog, m[1], comm, 0, &v) && v.sum == 100 && v.count == 4,
	   "keys: [comm] sums b: 100 in 4 events");
	ok(h_keyed(&run, &prog, m[2], &pid, 0, &v) && v.count == 4, "keys: [pid] counts 4");
	key_count(m[4], 1, "GET", 2, "keys: a statement's key: [1, \"GET\"]");
	for (i = 0; i < ARRAY_SIZE(evs); i++)
		key_count(m[4], evs[i].b, "", 1,
			  "keys: the next statement's key has no string left");
	ok(h_keyed(&run, &prog, m[5], lit, 0, &v) && v.count == 4, "keys: [\"lit\"]");
	/* 3 + 1 + 1 + (3 + 4) + 1: @3 has none. */
	h_eq("keys: parts out of bounds add no entry", h_keyed_entries(&run), 13);
	h_unload(&run);
}

/* Key part of the keyed maps of test_agg. */
static const int64_t agg_part = 7;

/* Count of bucket i of map id, with or without keys; absent is 0. */
static int64_t bucket_count(uint8_t id, uint32_t i)
{
	struct st_val v;

	if (prog.maps[id].flags & ST_MAPF_FLAT)
		return h_flat(&run, &prog, id, i).count;
	return h_keyed(&run, &prog, id, &agg_part, i, &v) ? v.count : 0;
}

/* Checks each bucket of map id against want[nr] (counts by bucket). */
static void check_buckets(const char *group, uint8_t id, const int64_t *want, uint32_t nr)
{
	char name[160];
	bool others = true;
	uint32_t i;

	for (i = 0; i < nr; i++) {
		if (!want[i]) {
			others &= !bucket_count(id, i);
			continue;
		}
		snprintf(name, sizeof(name), "%s: bucket %u", group, i);
		h_eq(name, bucket_count(id, i), want[i]);
	}
	snprintf(name, sizeof(name), "%s: no other bucket counts", group);
	ok(others, name);
}

/* The value of map id (flat, or keyed by agg_part), bucket 0. */
static struct st_val agg_val(uint8_t id)
{
	struct st_val v = {0};

	if (prog.maps[id].flags & ST_MAPF_FLAT)
		return h_flat(&run, &prog, id, 0);
	h_keyed(&run, &prog, id, &agg_part, 0, &v);
	return v;
}

/* The kinds of test_agg's maps, without keys then keyed by agg_part. */
static const struct {
	uint8_t kind;
	bool is_signed, keyed;
} agg_maps[] = {
	{ST_K_COUNT, 1, 0}, {ST_K_SUM, 1, 0},	{ST_K_AVG, 1, 0},  {ST_K_MIN, 1, 0},
	{ST_K_MAX, 1, 0},   {ST_K_STATS, 1, 0}, {ST_K_HIST, 1, 0}, {ST_K_LHIST, 1, 0},
	{ST_K_MIN, 0, 0},   {ST_K_MAX, 0, 0},	{ST_K_HIST, 0, 0}, {ST_K_HIST, 1, 1},
	{ST_K_LHIST, 1, 1}, {ST_K_MIN, 1, 1},	{ST_K_MAX, 1, 1},  {ST_K_SUM, 1, 1},
};

/* Checks the kinds that keep count, sum, min and max; m: agg_maps' ids. */
static void check_values(const uint8_t *m)
{
	struct st_val v;

	h_eq("agg: count() counts 5", agg_val(m[0]).count, 5);
	v = agg_val(m[1]);
	ok(v.count == 5 && v.sum == 1025, "agg: sum() is 1025 in 5");
	v = agg_val(m[2]);
	ok(v.count == 5 && v.sum == 1025, "agg: avg() keeps count 5 and sum 1025");
	h_eq("agg: signed min() is -5", st_min_decode(agg_val(m[3]).min, 1), -5);
	h_eq("agg: signed max() is 1024", st_max_decode(agg_val(m[4]).max, 1), 1024);
	v = agg_val(m[5]);
	ok(v.count == 5 && v.sum == 1025 && !v.min && !v.max,
	   "agg: stats() keeps count and sum, no min or max");
	h_eq("agg: unsigned min() of -5 and 0 is 0", st_min_decode(agg_val(m[8]).min, 0), 0);
	h_eq("agg: unsigned max() is -5 as 2^64 - 5", st_max_decode(agg_val(m[9]).max, 0), -5);
	h_eq("agg: keyed signed min() is -5", st_min_decode(agg_val(m[13]).min, 1), -5);
	h_eq("agg: keyed signed max() is 1024", st_max_decode(agg_val(m[14]).max, 1), 1024);
	v = agg_val(m[15]);
	ok(v.count == 5 && v.sum == 1025, "agg: keyed sum() is 1025 in 5");
}

/* Sum of bucket i of map id, with or without keys; absent is 0. */
static int64_t bucket_sum(uint8_t id, uint32_t i)
{
	struct st_val v;

	if (prog.maps[id].flags & ST_MAPF_FLAT)
		return h_flat(&run, &prog, id, i).sum;
	return h_keyed(&run, &prog, id, &agg_part, i, &v) ? v.sum : 0;
}

/*
 * A hist or lhist bucket keeps the sum of its values (the Prometheus
 * histogram's _sum): -5 is alone below 0, 1 and 5 share [0, 10) in lhist.
 */
static void check_bucket_sums(const uint8_t *m)
{
	h_eq("agg: signed hist() bucket 0 sums -5", bucket_sum(m[6], 0), -5);
	h_eq("agg: signed hist() bucket 12 sums 1024", bucket_sum(m[6], 12), 1024);
	h_eq("agg: keyed signed hist() bucket 4 sums 5", bucket_sum(m[11], 4), 5);
	h_eq("agg: lhist(0, 100, 10) bucket 1 sums 0 + 1 + 5", bucket_sum(m[7], 1), 6);
	h_eq("agg: keyed lhist(0, 100, 10) bucket 11 sums 1024", bucket_sum(m[12], 11), 1024);
}

/*
 * ST_I_AGG into every aggregation kind, without keys (st_flat slots) and
 * with keys (st_aggr, the bucket after the key part), of -5, 0, 1, 5 and
 * 1024. hist buckets: 0 negative, 1 zero, k >= 2 [2^(k-2), 2^(k-1));
 * lhist(0, 100, 10): 0 below 0, i in 1..10 [10(i-1), 10i), 11 from 100.
 */
static void test_agg(void)
{
	static const int64_t as[] = {-5, 0, 1, 5, 1024};
	int64_t hist[ST_HIST_BUCKETS] = {[0] = 1, [1] = 1, [2] = 1, [4] = 1, [12] = 1};
	int64_t uhist[ST_HIST_BUCKETS] = {[1] = 1, [2] = 1, [4] = 1, [12] = 1, [65] = 1};
	int64_t lhist[12] = {[0] = 1, [1] = 3, [11] = 1};
	uint8_t m[ARRAY_SIZE(agg_maps)];
	size_t i;

	h_prog_init(&prog);
	std_loads(&prog, false);
	CLAUSE(&prog, BIT(L_A) | BIT(L_B));
	for (i = 0; i < ARRAY_SIZE(agg_maps); i++) {
		m[i] = h_map(&prog, agg_maps[i].kind, agg_maps[i].is_signed,
			     agg_maps[i].keyed ? 8 : 0, 0, 100, 10);
		if (agg_maps[i].keyed) {
			FIELD(&prog, L_B);
			KEY_INT(&prog, 0);
		}
		FIELD(&prog, L_A);
		AGG(&prog, m[i]);
	}
	if (!h_load(&run, &prog, "agg"))
		return;
	for (i = 0; i < ARRAY_SIZE(as); i++)
		fire(as[i], agg_part, EV_U, "GET");
	check_values(m);
	check_buckets("agg: signed hist()", m[6], hist, ST_HIST_BUCKETS);
	check_buckets("agg: lhist(0, 100, 10)", m[7], lhist, 12);
	check_buckets("agg: unsigned hist()", m[10], uhist, ST_HIST_BUCKETS);
	check_buckets("agg: keyed signed hist()", m[11], hist, ST_HIST_BUCKETS);
	check_buckets("agg: keyed lhist(0, 100, 10)", m[12], lhist, 12);
	check_bucket_sums(m);
	h_unload(&run);
}

int main(void)
{
	if (!event_setup())
		return unit_summary();
	test_keys();
	test_agg();
	return unit_summary();
}
