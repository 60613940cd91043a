/* SPDX-License-Identifier: MIT */
/* The elements of an array argument vector must all have one type. */
// expect: the elements of an array or vla argument must all have the same type
// disable: compiles
#include <side/trace.h>

static side_define_array(pair, side_elem(side_type_u32()), 2);
side_static_event(ev, "prov", "ev", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_array("pair", pair)));

void f(unsigned int a, unsigned long b)
{
	side_arg_define_array(v, side_arg_list(side_arg_u32(a), side_arg_u64(b)));

	side_event(ev, side_arg_list(side_arg_array(v)));
}
