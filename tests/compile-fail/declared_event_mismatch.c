/* SPDX-License-Identifier: MIT */
/*
 * A call before the definition, through side_declare_event() (as from a
 * header), is checked once the definition is seen as well: the call here
 * follows both.
 */
// expect: the type of an argument does not match the type of its field
// disable: compiles
#include <side/trace.h>

side_declare_event(ev);

side_hidden_event(ev, "prov", "ev", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_string("path"), side_field_u16("status")));

void f(const char *path, unsigned int status)
{
	side_event(ev, side_arg_list(side_arg_string(path), side_arg_u32(status)));
}
