// SPDX-License-Identifier: MIT
/*
 * Call shapes for the disabled-cost bench, each three ways: uninstrumented
 * (shape_<name>__plain), a disabled side_event() (__side) and a disabled
 * <sys/sdt.h> probe behind its semaphore (__sdt), the reference. Run under
 * callgrind, a function's own instruction and data-write counts minus its
 * plain twin's, per call, are the disabled cost (bench/disabled_cost.sh).
 * The C++ method shape is in disabled_cost_cxx.cc.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdlib.h>
#include <sys/sdt.h>
#include <side/trace.h>

/*
 * The reference's semaphore test reads the semaphore each time (volatile):
 * a plain read lets gcc -O3 hoist it out of a loop (unswitching), and a
 * probe enabled while that loop runs would never fire in it.
 */
#define SDT_SEMA(_name) \
	unsigned short bench_##_name##_semaphore __attribute__((section(".probes"))) = 0
#define SDT_ON(_name) __builtin_expect(*(volatile unsigned short *)&bench_##_name##_semaphore, 0)
#define NOINLINE __attribute__((noinline))
/* Unrolling would hide the per-iteration difference being measured. */
#define NO_UNROLL _Pragma("GCC unroll 1")

static volatile unsigned long sink;

/* loop: the bench's original loop, the event unconditional. */
side_static_event(ev_loop, "bench", "op", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_u64("i"), side_field_string("name"),
				  side_field_s32("delta")));
SDT_SEMA(op);

NOINLINE void shape_loop__plain(unsigned long n)
{
	NO_UNROLL for (unsigned long i = 0; i < n; i++) sink += i;
}

NOINLINE void shape_loop__side(unsigned long n)
{
	NO_UNROLL for (unsigned long i = 0; i < n; i++)
	{
		side_event(ev_loop, side_arg_list(side_arg_u64(i), side_arg_string("op"),
						  side_arg_s32(-(int)i)));
		sink += i;
	}
}

NOINLINE void shape_loop__sdt(unsigned long n)
{
	NO_UNROLL for (unsigned long i = 0; i < n; i++)
	{
		if (SDT_ON(op))
			STAP_PROBE3(bench, op, i, "op", -(int)i);
		sink += i;
	}
}

/*
 * ifloop: the shape, the event behind the application's own test
 * (always true here, unknown to the compiler) on loaded values.
 */
side_static_event(ev_ifloop, "bench", "ifloop", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_u64("value"), side_field_string("name"),
				  side_field_s32("delta")));
SDT_SEMA(ifloop);
unsigned long shape_data[16] = {3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33};

NOINLINE void shape_ifloop__plain(unsigned long n, unsigned long limit)
{
	NO_UNROLL for (unsigned long i = 0; i < n; i++)
	{
		unsigned long v = shape_data[i & 15];

		if (v > limit)
			sink += v;
	}
}

NOINLINE void shape_ifloop__side(unsigned long n, unsigned long limit)
{
	NO_UNROLL for (unsigned long i = 0; i < n; i++)
	{
		unsigned long v = shape_data[i & 15];

		if (v > limit) {
			side_event(ev_ifloop,
				   side_arg_list(side_arg_u64(v), side_arg_string("ifloop"),
						 side_arg_s32((int)(v - i))));
			sink += v;
		}
	}
}

NOINLINE void shape_ifloop__sdt(unsigned long n, unsigned long limit)
{
	NO_UNROLL for (unsigned long i = 0; i < n; i++)
	{
		unsigned long v = shape_data[i & 15];

		if (v > limit) {
			if (SDT_ON(ifloop))
				STAP_PROBE3(bench, ifloop, v, "ifloop", (int)(v - i));
			sink += v;
		}
	}
}

/* fields10: a function whose whole work is one 10-field event. */
side_static_event(ev_fields10, "bench", "fields10", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_u64("a"), side_field_s64("b"), side_field_u32("c"),
				  side_field_s32("d"), side_field_u16("e"), side_field_s16("f"),
				  side_field_u8("g"), side_field_bool("h"), side_field_string("i"),
				  side_field_pointer("j")));
SDT_SEMA(fields10);

#define FIELDS10_PARAMS \
	unsigned long a, long b, unsigned int c, int d, unsigned short e, short f, \
		unsigned char g, int h, const char *s, const void *p

NOINLINE void shape_fields10__plain(FIELDS10_PARAMS)
{
	sink += a + (unsigned long)p;
}

NOINLINE void shape_fields10__side(FIELDS10_PARAMS)
{
	side_event(ev_fields10,
		   side_arg_list(side_arg_u64(a), side_arg_s64(b), side_arg_u32(c), side_arg_s32(d),
				 side_arg_u16(e), side_arg_s16(f), side_arg_u8(g), side_arg_bool(h),
				 side_arg_string(s), side_arg_pointer(p)));
	sink += a + (unsigned long)p;
}

NOINLINE void shape_fields10__sdt(FIELDS10_PARAMS)
{
	if (SDT_ON(fields10))
		STAP_PROBE10(bench, fields10, a, b, c, d, e, f, g, h, s, p);
	sink += a + (unsigned long)p;
}

/* nested: a struct holding a struct, and a vla of u32, libside's way. */
static side_define_struct(st_inner, side_field_list(side_field_u32("x"), side_field_s64("y")));
static side_define_struct(st_outer, side_field_list(side_field_struct("inner", st_inner),
						    side_field_u64("id")));
static side_define_vla(vla_u32, side_elem(side_type_u32()), side_elem(side_type_u32()));
side_static_event(ev_nested, "bench", "nested", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_struct("outer", st_outer),
				  side_field_vla("values", vla_u32)));
SDT_SEMA(nested);

struct rec {
	unsigned int x;
	long y;
	unsigned long id;
	unsigned int v[3];
};

NOINLINE void shape_nested__plain(const struct rec *r)
{
	sink += r->id;
}

NOINLINE void shape_nested__side(const struct rec *r)
{
	if (side_event_enabled(ev_nested)) {
		side_arg_define_struct(inner,
				       side_arg_list(side_arg_u32(r->x), side_arg_s64(r->y)));
		side_arg_define_struct(outer,
				       side_arg_list(side_arg_struct(inner), side_arg_u64(r->id)));
		side_arg_define_vla(values,
				    side_arg_list(side_arg_u32(r->v[0]), side_arg_u32(r->v[1]),
						  side_arg_u32(r->v[2])));
		side_event_call(ev_nested,
				side_arg_list(side_arg_struct(outer), side_arg_vla(values)));
	}
	sink += r->id;
}

NOINLINE void shape_nested__sdt(const struct rec *r)
{
	if (SDT_ON(nested))
		STAP_PROBE6(bench, nested, r->x, r->y, r->id, r->v[0], r->v[1], r->v[2]);
	sink += r->id;
}

/* variadic: one static field, two dynamic ones. */
side_static_event_variadic(ev_variadic, "bench", "variadic", SIDE_LOGLEVEL_DEBUG,
			   side_field_list(side_field_string("msg")));
SDT_SEMA(variadic);

NOINLINE void shape_variadic__plain(const char *msg, const char *user, long attempt)
{
	sink += (unsigned long)attempt;
}

NOINLINE void shape_variadic__side(const char *msg, const char *user, long attempt)
{
	side_event_variadic(
		ev_variadic, side_arg_list(side_arg_string(msg)),
		side_arg_list(side_arg_dynamic_field("user", side_arg_dynamic_string(user)),
			      side_arg_dynamic_field("attempt", side_arg_dynamic_s64(attempt))));
	sink += (unsigned long)attempt;
}

NOINLINE void shape_variadic__sdt(const char *msg, const char *user, long attempt)
{
	if (SDT_ON(variadic))
		STAP_PROBE3(bench, variadic, msg, user, attempt);
	sink += (unsigned long)attempt;
}

#define CALLS(_n, _call) \
	do { \
		NO_UNROLL for (unsigned long i = 0; i < (_n); i++) _call; \
	} while (0)
#define RUN_ALL(_name, _args...) \
	do { \
		CALLS(n, shape_##_name##__plain(_args)); \
		CALLS(n, shape_##_name##__side(_args)); \
		CALLS(n, shape_##_name##__sdt(_args)); \
	} while (0)

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	/* Arguments from the command line, which no call can constant-fold. */
	unsigned int k = (unsigned int)argc;
	struct rec r = {k, -2, 3, {4, k, 6}};
	const char *who = argc > 2 ? argv[2] : argv[0];

	shape_loop__plain(n);
	shape_loop__side(n);
	shape_loop__sdt(n);
	shape_ifloop__plain(n, 1);
	shape_ifloop__side(n, 1);
	shape_ifloop__sdt(n, 1);
	RUN_ALL(fields10, i, -(long)i, k, -(int)k, (unsigned short)k, (short)k, (unsigned char)k,
		(int)k, who, &r);
	RUN_ALL(nested, &r);
	RUN_ALL(variadic, argv[0], who, (long)i);
	return 0;
}
