/* SPDX-License-Identifier: MIT */
/* A variadic event called as a plain one. */
// expect: the call is variadic and the event is not, or the reverse
// disable: compiles
#include <side/trace.h>

side_static_event_variadic(ev, "prov", "ev", SIDE_LOGLEVEL_INFO,
			   side_field_list(side_field_u32("a")));

void f(unsigned int a)
{
	side_event(ev, side_arg_list(side_arg_u32(a)));
}
