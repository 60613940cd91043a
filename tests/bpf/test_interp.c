// SPDX-License-Identifier: MIT
/*
 * The BPF program's stack machine, opcode by opcode, without the language
 * front end: each group writes a probe configuration by hand (loads,
 * st_insn sequences, maps), loads the embedded object with it, attaches
 * sidetrace_event at this program's own SIDE probe site, fires the event
 * with known values and asserts exact map contents (harness.h, event.h).
 * test_agg.c does the same for keys and aggregations.
 *
 * Expression groups aggregate each expression into a sum map of its own:
 * the map's sum is the expression's value. Needs root (BPF, uprobes).
 */
#define _GNU_SOURCE
#include <time.h>

#include "event.h"

/* Operands of struct expr: the integer of load l, or the constant v. */
#define F(l) l, 0
#define K(v) -1, v

/* One expression: l op r (binary) or op l (unary), and its value. */
struct expr {
	const char *name;
	bool unary;
	uint8_t op;
	int l_load; /* -1: the constant l_imm */
	int64_t l_imm;
	int r_load;
	int64_t r_imm;
	int64_t want;
};

static void push_operand(struct h_prog *p, int load, int64_t imm)
{
	if (load < 0)
		CONST(p, imm);
	else
		FIELD(p, load);
}

/*
 * Loads one clause that computes every expression into a sum map of its
 * own, fires the event once, and checks each map.
 */
static void run_exprs(const char *group, const struct expr *e, size_t n)
{
	char name[160];
	bool once = true;
	struct st_val v;
	size_t i;

	h_prog_init(&prog);
	std_loads(&prog, false);
	CLAUSE(&prog, BIT(L_A) | BIT(L_B) | BIT(L_U));
	for (i = 0; i < n; i++) {
		push_operand(&prog, e[i].l_load, e[i].l_imm);
		if (!e[i].unary)
			push_operand(&prog, e[i].r_load, e[i].r_imm);
		h_emit(&prog, e[i].unary ? ST_I_UNARY : ST_I_BINARY, e[i].op, 0, 0);
		AGG(&prog, h_map(&prog, ST_K_SUM, true, 0, 0, 0, 0));
	}
	if (!h_load(&run, &prog, group))
		return;
	fire(EV_A, EV_B, EV_U, "GET");
	for (i = 0; i < n; i++) {
		v = h_flat(&run, &prog, i, 0);
		snprintf(name, sizeof(name), "%s: %s", group, e[i].name);
		h_eq(name, v.sum, e[i].want);
		once &= v.count == 1;
	}
	snprintf(name, sizeof(name), "%s: every statement ran once", group);
	ok(once, name);
	h_unload(&run);
}

static void test_arith(void)
{
	static const struct expr e[] = {
		{"-7 + 2 == -5", 0, ST_B_ADD, F(L_A), F(L_B), -5},
		{"-7 - 2 == -9", 0, ST_B_SUB, F(L_A), F(L_B), -9},
		{"-7 * 2 == -14", 0, ST_B_MUL, F(L_A), F(L_B), -14},
		{"INT64_MAX * 2 wraps to -2", 0, ST_B_MUL, K(INT64_MAX), K(2), -2},
		{"INT64_MIN - 1 wraps to INT64_MAX", 0, ST_B_SUB, K(INT64_MIN), K(1), INT64_MAX},
		{"-7 / 2 == -3 (truncates)", 0, ST_B_DIV, F(L_A), F(L_B), -3},
		{"-7 % 2 == -1 (sign of the dividend)", 0, ST_B_MOD, F(L_A), F(L_B), -1},
		{"7 / -2 == -3", 0, ST_B_DIV, K(7), K(-2), -3},
		{"7 % -2 == 1", 0, ST_B_MOD, K(7), K(-2), 1},
		{"-8 / -2 == 4", 0, ST_B_DIV, K(-8), K(-2), 4},
		{"-7 / 0 == 0", 0, ST_B_DIV, F(L_A), K(0), 0},
		{"-7 % 0 == 0", 0, ST_B_MOD, F(L_A), K(0), 0},
		{"INT64_MIN / -1 == INT64_MIN", 0, ST_B_DIV, K(INT64_MIN), K(-1), INT64_MIN},
		{"INT64_MIN % -1 == 0", 0, ST_B_MOD, K(INT64_MIN), K(-1), 0},
		{"unsigned -7 / 2", 0, ST_B_UDIV, F(L_A), F(L_B), 0x7ffffffffffffffcLL},
		{"unsigned -7 % 2 == 1", 0, ST_B_UMOD, F(L_A), F(L_B), 1},
		{"unsigned -7 / 0 == 0", 0, ST_B_UDIV, F(L_A), K(0), 0},
		{"unsigned -7 % 0 == 0", 0, ST_B_UMOD, F(L_A), K(0), 0},
		{"u32 0xffffffff is zero-extended: u + 1", 0, ST_B_ADD, F(L_U), K(1), 1LL << 32},
		{"unsigned u / 16", 0, ST_B_UDIV, F(L_U), K(16), 0x0fffffff},
	};

	run_exprs("arith", e, ARRAY_SIZE(e));
}

static void test_bits(void)
{
	static const struct expr e[] = {
		{"-7 & 0xff == 0xf9", 0, ST_B_AND, F(L_A), K(0xff), 0xf9},
		{"2 | 5 == 7", 0, ST_B_OR, F(L_B), K(5), 7},
		{"-7 ^ -7 == 0", 0, ST_B_XOR, F(L_A), F(L_A), 0},
		{"-1 ^ 0xf == -16", 0, ST_B_XOR, K(-1), K(0xf), -16},
		{"1 << 63 == INT64_MIN", 0, ST_B_SHL, K(1), K(63), INT64_MIN},
		{"1 << 65 == 2 (count mod 64)", 0, ST_B_SHL, K(1), K(65), 2},
		{"-7 << 2 == -28", 0, ST_B_SHL, F(L_A), F(L_B), -28},
		{"-1 >> 60 (logical) == 15", 0, ST_B_SHR, K(-1), K(60), 15},
		{"-7 >> 64 (logical) == -7", 0, ST_B_SHR, F(L_A), K(64), -7},
		{"INT64_MIN >> 63 (logical) == 1", 0, ST_B_SHR, K(INT64_MIN), K(63), 1},
		{"-16 >> 2 (arithmetic) == -4", 0, ST_B_SAR, K(-16), K(2), -4},
		{"-7 >> 1 (arithmetic) == -4", 0, ST_B_SAR, F(L_A), K(1), -4},
		{"INT64_MIN >> 63 (arithmetic) == -1", 0, ST_B_SAR, K(INT64_MIN), K(63), -1},
		{"-(-7) == 7", 1, ST_U_NEG, F(L_A), K(0), 7},
		{"-INT64_MIN == INT64_MIN", 1, ST_U_NEG, K(INT64_MIN), K(0), INT64_MIN},
		{"!0 == 1", 1, ST_U_LNOT, K(0), K(0), 1},
		{"!-7 == 0", 1, ST_U_LNOT, F(L_A), K(0), 0},
		{"~0 == -1", 1, ST_U_BNOT, K(0), K(0), -1},
		{"~2 == -3", 1, ST_U_BNOT, F(L_B), K(0), -3},
	};

	run_exprs("bits", e, ARRAY_SIZE(e));
}

static void test_compare(void)
{
	static const struct expr e[] = {
		{"-7 == -7", 0, ST_B_EQ, F(L_A), F(L_A), 1},
		{"-7 == 2 is 0", 0, ST_B_EQ, F(L_A), F(L_B), 0},
		{"-7 != 2", 0, ST_B_NE, F(L_A), F(L_B), 1},
		{"2 != 2 is 0", 0, ST_B_NE, F(L_B), F(L_B), 0},
		{"-7 < 2", 0, ST_B_LT, F(L_A), F(L_B), 1},
		{"2 < -7 is 0", 0, ST_B_LT, F(L_B), F(L_A), 0},
		{"2 <= 2", 0, ST_B_LE, F(L_B), F(L_B), 1},
		{"2 <= -7 is 0", 0, ST_B_LE, F(L_B), F(L_A), 0},
		{"2 > -7", 0, ST_B_GT, F(L_B), F(L_A), 1},
		{"-7 > 2 is 0", 0, ST_B_GT, F(L_A), F(L_B), 0},
		{"-7 >= -7", 0, ST_B_GE, F(L_A), F(L_A), 1},
		{"-7 >= 2 is 0", 0, ST_B_GE, F(L_A), F(L_B), 0},
		{"unsigned -7 < 2 is 0", 0, ST_B_ULT, F(L_A), F(L_B), 0},
		{"unsigned 2 < -7", 0, ST_B_ULT, F(L_B), F(L_A), 1},
		{"unsigned -7 <= -7", 0, ST_B_ULE, F(L_A), F(L_A), 1},
		{"unsigned -7 <= 2 is 0", 0, ST_B_ULE, F(L_A), F(L_B), 0},
		{"unsigned -7 > 2", 0, ST_B_UGT, F(L_A), F(L_B), 1},
		{"unsigned 2 > -7 is 0", 0, ST_B_UGT, F(L_B), F(L_A), 0},
		{"unsigned 2 >= 2", 0, ST_B_UGE, F(L_B), F(L_B), 1},
		{"unsigned 2 >= -7 is 0", 0, ST_B_UGE, F(L_B), F(L_A), 0},
		{"-7 && 2 == 1", 0, ST_B_LAND, F(L_A), F(L_B), 1},
		{"-7 && 0 == 0", 0, ST_B_LAND, F(L_A), K(0), 0},
		{"0 || 0 == 0", 0, ST_B_LOR, K(0), K(0), 0},
		{"0 || -7 == 1", 0, ST_B_LOR, K(0), F(L_A), 1},
	};

	run_exprs("compare", e, ARRAY_SIZE(e));
}

/* One string comparison: reference l (op) reference r, and its value. */
struct strcmp_case {
	const char *name;
	uint8_t op;
	uint8_t l, r;
	int64_t want;
};

/*
 * ST_I_STR with loads (vector and SDT), comm and literals; ST_I_STREQ and
 * ST_I_STRNE compare whole strings, not prefixes.
 */
static void test_strings(void)
{
	static const char *const lits[] = {"GET", "GETX", COMM, ""};
	static const struct strcmp_case c[] = {
		{"s == \"GET\"", ST_I_STREQ, L_S, REF_LIT(0), 1},
		{"s != \"GET\" is 0", ST_I_STRNE, L_S, REF_LIT(0), 0},
		{"s == \"GETX\" is 0 (no prefix match)", ST_I_STREQ, L_S, REF_LIT(1), 0},
		{"\"GETX\" == s is 0", ST_I_STREQ, REF_LIT(1), L_S, 0},
		{"s != \"GETX\"", ST_I_STRNE, L_S, REF_LIT(1), 1},
		{"s by its SDT pointer == s from the vector", ST_I_STREQ, L_SP, L_S, 1},
		{"comm == \"" COMM "\"", ST_I_STREQ, REF_COMM, REF_LIT(2), 1},
		{"comm == s is 0", ST_I_STREQ, REF_COMM, L_S, 0},
		{"\"\" == s is 0", ST_I_STREQ, REF_LIT(3), L_S, 0},
		{"\"GET\" == \"GET\"", ST_I_STREQ, REF_LIT(0), REF_LIT(0), 1},
	};
	char name[160];
	struct st_val v;
	size_t i;

	h_prog_init(&prog);
	std_loads(&prog, false);
	for (i = 0; i < ARRAY_SIZE(lits); i++)
		snprintf(prog.cfg.strs[i], ST_STR_LEN, "%s", lits[i]);
	CLAUSE(&prog, BIT(L_S) | BIT(L_SP));
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		STR(&prog, c[i].l);
		STR(&prog, c[i].r);
		h_emit(&prog, c[i].op, 0, 0, 0);
		AGG(&prog, h_map(&prog, ST_K_SUM, true, 0, 0, 0, 0));
	}
	if (!h_load(&run, &prog, "strings"))
		return;
	fire(EV_A, EV_B, EV_U, "GET");
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		v = h_flat(&run, &prog, i, 0);
		snprintf(name, sizeof(name), "strings: %s", c[i].name);
		h_eq(name, v.count == 1 ? v.sum : -1, c[i].want);
	}
	h_unload(&run);
}

/* ST_I_BUILTIN for each builtin, and the integer loads' widening. */
static void test_builtins(void)
{
	static const uint8_t ids[] = {ST_BI_PID, ST_BI_TID,   ST_BI_UID,
				      ST_BI_CPU, ST_BI_NSECS, ST_BI_PROBE};
	struct timespec t0, t1;
	int64_t v[6];
	size_t i;

	h_prog_init(&prog);
	std_loads(&prog, false);
	CLAUSE(&prog, 0);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		BUILTIN(&prog, ids[i]);
		AGG(&prog, h_map(&prog, ST_K_SUM, true, 0, 0, 0, 0));
	}
	if (!h_load(&run, &prog, "builtins"))
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fire(EV_A, EV_B, EV_U, "GET");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (i = 0; i < ARRAY_SIZE(ids); i++)
		v[i] = h_flat(&run, &prog, i, 0).sum;
	h_eq("builtins: pid is getpid()", v[0], getpid());
	h_eq("builtins: tid is gettid()", v[1], gettid());
	h_eq("builtins: uid is getuid()", v[2], getuid());
	ok(v[3] >= 0 && v[3] < run.nr_cpus, "builtins: cpu is a possible CPU");
	ok(v[4] >= t0.tv_sec * 1000000000LL + t0.tv_nsec &&
		   v[4] <= t1.tv_sec * 1000000000LL + t1.tv_nsec,
	   "builtins: nsecs is CLOCK_MONOTONIC at the event");
	h_eq("builtins: probe is the probe's index", v[5], 0);
	h_unload(&run);
}

/* Clauses 0-6 of test_control: what skips a clause, and what does not. */
static void control_skips(const uint8_t *m)
{
	/* 0: a failed load in the mask skips the clause. */
	CLAUSE(&prog, BIT(L_A) | BIT(L_BAD));
	CONST(&prog, 1);
	AGG(&prog, m[0]);
	/* 1-3: FIELD of a failed load leaves the clause where it is. */
	CLAUSE(&prog, 0);
	CONST(&prog, 1);
	AGG(&prog, m[1]);
	FIELD(&prog, L_BAD);
	AGG(&prog, m[2]);
	CONST(&prog, 1);
	AGG(&prog, m[3]);
	/* 4: so does STR of a string load that failed. */
	CLAUSE(&prog, 0);
	STR(&prog, L_BADSTR);
	STR(&prog, REF_LIT(0));
	h_emit(&prog, ST_I_STREQ, 0, 0, 0);
	AGG(&prog, m[4]);
	/* 5: the clause after them runs. */
	CLAUSE(&prog, 0);
	CONST(&prog, 1);
	AGG(&prog, m[5]);
	/* 6: an unknown opcode skips the rest of its clause. */
	CLAUSE(&prog, 0);
	h_emit(&prog, ST_NR_OPCODES, 0, 0, 0);
	CONST(&prog, 1);
	AGG(&prog, m[6]);
}

/* FILTER a (op) k. */
static void filter_a(uint8_t op, int64_t k)
{
	FIELD(&prog, L_A);
	CONST(&prog, k);
	BINARY(&prog, op);
	FILTER(&prog);
}

/* Clauses 7-9 of test_control: filters, and what a false one discards. */
static void control_filters(const uint8_t *m)
{
	/* 7: a > 0; 8: a > 0 && a < 4 as two filters. */
	CLAUSE(&prog, BIT(L_A));
	filter_a(ST_B_GT, 0);
	CONST(&prog, 1);
	AGG(&prog, m[7]);
	CLAUSE(&prog, BIT(L_A));
	filter_a(ST_B_GT, 0);
	filter_a(ST_B_LT, 4);
	CONST(&prog, 1);
	AGG(&prog, m[8]);
	/* 9: a key part written before a false filter is discarded; so is exit(). */
	CLAUSE(&prog, BIT(L_B));
	FIELD(&prog, L_B);
	KEY_INT(&prog, 0);
	CONST(&prog, 0);
	FILTER(&prog);
	EXIT(&prog);
	CLAUSE(&prog, 0);
	CONST(&prog, 1);
	AGG(&prog, m[9]);
}

/* The count of map id, without keys. */
static int64_t flat_count(uint8_t id)
{
	return h_flat(&run, &prog, id, 0).count;
}

/*
 * What skips a clause, and only that clause: a failed load in its mask, a
 * FIELD or STR of a failed load, a false FILTER, an unknown opcode. The
 * key a skipped clause wrote is discarded; an event counts its first
 * decode error only.
 */
static void test_control(void)
{
	static const int64_t as[] = {-1, 5, 3};
	uint8_t m[10];
	int64_t zero = 0, b = EV_B;
	struct st_val v;
	size_t i;

	h_prog_init(&prog);
	std_loads(&prog, true);
	snprintf(prog.cfg.strs[0], ST_STR_LEN, "GET");
	for (i = 0; i < 9; i++)
		m[i] = h_map(&prog, ST_K_COUNT, true, 0, 0, 0, 0);
	m[9] = h_map(&prog, ST_K_COUNT, true, 8, 0, 0, 0);
	control_skips(m);
	control_filters(m);
	if (!h_load(&run, &prog, "control"))
		return;
	for (i = 0; i < ARRAY_SIZE(as); i++)
		fire(as[i], EV_B, EV_U, "GET");
	h_eq("control: a failed load in the mask skips the clause", flat_count(m[0]), 0);
	h_eq("control: statements before a failed FIELD ran", flat_count(m[1]), 3);
	h_eq("control: FIELD of a failed load aggregates nothing", flat_count(m[2]), 0);
	h_eq("control: ... nor does the rest of its clause", flat_count(m[3]), 0);
	h_eq("control: STR of a failed string load skips the clause", flat_count(m[4]), 0);
	h_eq("control: the next clause runs", flat_count(m[5]), 3);
	h_eq("control: an unknown opcode skips the clause", flat_count(m[6]), 0);
	h_eq("control: FILTER a > 0", flat_count(m[7]), 2);
	h_eq("control: FILTER a > 0, FILTER a < 4", flat_count(m[8]), 1);
	ok(h_keyed(&run, &prog, m[9], &zero, 0, &v) && v.count == 3,
	   "control: a skipped clause's key part is cleared");
	ok(!h_keyed(&run, &prog, m[9], &b, 0, &v), "control: ... and never used");
	h_eq("control: exit() in a skipped clause", run.skel->bss->st_exit_requested, 0);
	h_eq("control: one label error counted per event", h_counter(&run, ST_C_ERR_LABEL), 3);
	h_eq("control: not its later index error", h_counter(&run, ST_C_ERR_INDEX), 0);
	h_unload(&run);
}

/* The state clause of test_state; m: var, if, get, add, set, strn, streq. */
static void state_clause(const uint8_t *m)
{
	uint32_t jz, jump;

	CLAUSE(&prog, BIT(L_A) | BIT(L_S));
	/* $v = a; sum($v) */
	FIELD(&prog, L_A);
	h_emit(&prog, ST_I_VAR_SET, 3, 0, 0);
	h_emit(&prog, ST_I_VAR_GET, 3, 0, 0);
	AGG(&prog, m[0]);
	/* if (0) { sum(100) } else { sum(7) } */
	CONST(&prog, 0);
	jz = prog.cfg.nr_insns;
	h_emit(&prog, ST_I_JZ, 0, 0, 0);
	CONST(&prog, 100);
	AGG(&prog, m[1]);
	jump = prog.cfg.nr_insns;
	h_emit(&prog, ST_I_JUMP, 0, 0, 0);
	prog.cfg.insns[jz].imm = prog.cfg.nr_insns;
	CONST(&prog, 7);
	AGG(&prog, m[1]);
	prog.cfg.insns[jump].imm = prog.cfg.nr_insns;
	/* sum(@add[a]) before @add[a] += 5; @add[1000] += 1; delete(@add[1000]) */
	FIELD(&prog, L_A);
	KEY_INT(&prog, 0);
	h_emit(&prog, ST_I_MAP_GET, m[3], 0, 0);
	AGG(&prog, m[2]);
	CONST(&prog, 5);
	FIELD(&prog, L_A);
	KEY_INT(&prog, 0);
	h_emit(&prog, ST_I_MAP_ADD, m[3], 0, 0);
	CONST(&prog, 1);
	CONST(&prog, 1000);
	KEY_INT(&prog, 0);
	h_emit(&prog, ST_I_MAP_ADD, m[3], 0, 0);
	CONST(&prog, 1000);
	KEY_INT(&prog, 0);
	h_emit(&prog, ST_I_MAP_DEL, m[3], 0, 0);
	/* sum(@set[a] == "GET") before @set[a] = s */
	FIELD(&prog, L_A);
	KEY_INT(&prog, 0);
	h_emit(&prog, ST_I_MAP_GET, m[4], ST_STR_REF_TMP + 1, 0);
	STR(&prog, REF_LIT(0));
	h_emit(&prog, ST_I_STREQ, 0, 0, 0);
	AGG(&prog, m[6]);
	STR(&prog, L_S);
	FIELD(&prog, L_A);
	KEY_INT(&prog, 0);
	h_emit(&prog, ST_I_MAP_SET, m[4], 0, 0);
	/* @strn[str(s, 3)] = count() */
	STR(&prog, L_S);
	h_emit(&prog, ST_I_STRN, ST_STR_REF_TMP, 3, 0);
	h_emit(&prog, ST_I_KEY_STR, 0, 0, 0);
	CONST(&prog, 0);
	AGG(&prog, m[5]);
}

/*
 * Variables, forward jumps, plain values read, added, stored, deleted
 * (strings too) and str(s, n), as the compile step emits them.
 */
static void test_state(void)
{
	char ge[ST_STR_LEN] = "GE";
	int64_t a = EV_A, gone = 1000;
	struct st_value val;
	struct st_val v;
	uint8_t m[7];
	int64_t i;

	h_prog_init(&prog);
	std_loads(&prog, false);
	snprintf(prog.cfg.strs[0], ST_STR_LEN, "GET");
	m[0] = h_map(&prog, ST_K_SUM, true, 0, 0, 0, 0);
	m[1] = h_map(&prog, ST_K_SUM, true, 0, 0, 0, 0);
	m[2] = h_map(&prog, ST_K_SUM, true, 0, 0, 0, 0);
	m[3] = h_map(&prog, ST_K_VALUE, true, 8, 0, 0, 0);
	m[4] = h_map(&prog, ST_K_VALUE, false, 8, 0, 0, 0);
	prog.maps[m[4]].flags |= ST_MAPF_STR;
	m[5] = h_map(&prog, ST_K_COUNT, false, ST_STR_LEN, 0, 0, 0);
	m[6] = h_map(&prog, ST_K_SUM, false, 0, 0, 0, 0);
	state_clause(m);
	if (!h_load(&run, &prog, "state"))
		return;
	fire(EV_A, EV_B, EV_U, "GET");
	fire(EV_A, EV_B, EV_U, "GET");
	h_eq("state: VAR_SET then VAR_GET", h_flat(&run, &prog, m[0], 0).sum, 2 * EV_A);
	h_eq("state: JZ skips the then-branch, JUMP the else-branch",
	     h_flat(&run, &prog, m[1], 0).sum, 14);
	h_eq("state: MAP_GET reads 0, then the value added", h_flat(&run, &prog, m[2], 0).sum, 5);
	ok(h_value(&run, &prog, m[3], &a, &val) && (memcpy(&i, val.b, 8), i == 10),
	   "state: MAP_ADD adds to one value for all CPUs");
	ok(!h_value(&run, &prog, m[3], &gone, &val), "state: MAP_DEL deletes the key");
	ok(h_value(&run, &prog, m[4], &a, &val) && !strcmp(val.b, "GET"),
	   "state: MAP_SET stores a string");
	h_eq("state: MAP_GET of a string: \"\" first, then the string stored",
	     h_flat(&run, &prog, m[6], 0).sum, 1);
	ok(h_keyed(&run, &prog, m[5], ge, 0, &v) && v.count == 2,
	   "state: STRN keeps n - 1 bytes, NUL-padded");
	h_unload(&run);
}

/* ST_I_EXIT sets the flag the collector polls; the event enables and disables. */
static void test_exit(void)
{
	h_prog_init(&prog);
	std_loads(&prog, false);
	CLAUSE(&prog, 0);
	EXIT(&prog);
	if (!h_load(&run, &prog, "exit"))
		return;
	ok(side_event_enabled(ev_probe), "exit: attaching enables the event");
	h_eq("exit: not requested before the event", run.skel->bss->st_exit_requested, 0);
	fire(EV_A, EV_B, EV_U, "GET");
	h_eq("exit: requested by the event", run.skel->bss->st_exit_requested, 1);
	h_unload(&run);
	ok(!side_event_enabled(ev_probe), "exit: detaching disables the event");
}

int main(void)
{
	if (!event_setup())
		return unit_summary();
	test_arith();
	test_bits();
	test_compare();
	test_strings();
	test_builtins();
	test_control();
	test_state();
	test_exit();
	return unit_summary();
}
