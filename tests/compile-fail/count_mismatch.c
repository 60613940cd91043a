/* SPDX-License-Identifier: MIT */
/* An event call with fewer arguments than the event has fields. */
// expect: the number of arguments of this event call differs
// disable: compiles
#include <side/trace.h>

side_static_event(ev, "prov", "ev", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u32("a"), side_field_string("b")));

void f(unsigned int a)
{
	side_event(ev, side_arg_list(side_arg_u32(a)));
}
