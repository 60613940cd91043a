/* SPDX-License-Identifier: MIT */
/*
 * What the BPF tests share on top of harness.h: the SIDE event they fire
 * (one probe site, fire()), the loads that read its fields, and the
 * stack-machine instructions as macros, as the compile step would emit
 * them. Included by one test program each.
 */
#ifndef SIDETRACE_TEST_BPF_EVENT_H
#define SIDETRACE_TEST_BPF_EVENT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <side/trace.h>

#include "harness.h"

side_static_event(ev_probe, "bpftest", "ev", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_s64("a"), side_field_s64("b"), side_field_u32("u"),
				  side_field_string("s"), ));

/* The task name, set at start so that the comm builtin is known. */
#define COMM "bpf_harness"

/*
 * The one probe site. The string is copied to the stack first: a
 * non-sleepable program reads only pages that are mapped already.
 */
static __attribute__((noinline)) void fire(int64_t a, int64_t b, uint32_t u, const char *s)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%s", s);
	side_event(ev_probe, side_arg_list(side_arg_s64(a), side_arg_s64(b), side_arg_u32(u),
					   side_arg_string(buf)));
}

/* Loads, in the order the groups number them. */
enum {
	L_A, /* SDT argument 0: a */
	L_B, /* SDT argument 1: b */
	L_U, /* argument vector [2], u32: u */
	L_S, /* argument vector [3], string: s */
	L_SP, /* SDT argument 3, string: s by its pointer */
	L_BAD, /* argument vector [2] read as s32: a label error */
	L_BADSTR, /* argument vector [0] read as a string: a label error */
	L_IDX, /* argument vector [9]: an index error */
};

#define BIT(l) (1U << (l))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The values most groups fire with: a, b, u (s is "GET"). */
#define EV_A (-7)
#define EV_B 2
#define EV_U 0xffffffffU

/* The loads every group has; with_bad adds the three that always fail. */
static inline void std_loads(struct h_prog *p, bool with_bad)
{
	h_load_sdt(p, L_A, 0, false);
	h_load_sdt(p, L_B, 1, false);
	h_load_vec(p, L_U, 2, SIDE_TYPE_U32, false);
	h_load_vec(p, L_S, 3, SIDE_TYPE_STRING_UTF8, true);
	h_load_sdt(p, L_SP, 3, true);
	if (!with_bad)
		return;
	h_load_vec(p, L_BAD, 2, SIDE_TYPE_S32, false);
	h_load_vec(p, L_BADSTR, 0, SIDE_TYPE_STRING_UTF8, true);
	h_load_vec(p, L_IDX, 9, SIDE_TYPE_U32, false);
}

/* Instructions, as the compile step would emit them. */
#define CLAUSE(p, mask) h_emit(p, ST_I_CLAUSE, 0, 0, mask)
#define FILTER(p) h_emit(p, ST_I_FILTER, 0, 0, 0)
#define CONST(p, v) h_emit(p, ST_I_CONST, 0, v, 0)
#define FIELD(p, l) h_emit(p, ST_I_FIELD, l, 0, 0)
#define STR(p, ref) h_emit(p, ST_I_STR, ref, 0, 0)
#define BUILTIN(p, id) h_emit(p, ST_I_BUILTIN, id, 0, 0)
#define UNARY(p, op) h_emit(p, ST_I_UNARY, op, 0, 0)
#define BINARY(p, op) h_emit(p, ST_I_BINARY, op, 0, 0)
#define KEY_INT(p, off) h_emit(p, ST_I_KEY_INT, 0, off, 0)
#define KEY_STR(p, off) h_emit(p, ST_I_KEY_STR, 0, off, 0)
#define AGG(p, map) h_emit(p, ST_I_AGG, map, 0, 0)
#define EXIT(p) h_emit(p, ST_I_EXIT, 0, 0, 0)

/* String references: loads, comm, literal i of cfg.strs. */
#define REF_COMM ST_STR_REF_COMM
#define REF_LIT(i) (ST_STR_REF_CONST + (i))

static struct h_prog prog;
static struct h_run run;

/* Names the task and finds the probe site; false: nothing can be tested. */
static inline bool event_setup(void)
{
	prctl(PR_SET_NAME, COMM);
	ok(h_find_site("bpftest", "ev"), "the probe site is in the stapsdt note");
	ok(h_site.nr_found == 1, "the event has exactly one probe site");
	return h_site.file_off;
}

#endif /* SIDETRACE_TEST_BPF_EVENT_H */
