/* SPDX-License-Identifier: MIT */
/* A field named NULL. */
// expect: a field name must be a non-empty string
// disable: compiles
#include <stddef.h>
#include <side/trace.h>

side_static_event(ev, "prov", "ev", SIDE_LOGLEVEL_INFO, side_field_list(side_field_u32(NULL)));

void f(unsigned int a)
{
	side_event(ev, side_arg_list(side_arg_u32(a)));
}
