// SPDX-License-Identifier: MIT
/*
 * The tracer and statedump APIs from C++: a tracer written in C++ against
 * libside.so. Built as .output/tests/test_tracer_cxx.
 */
#include <side/trace.h>
#include "unit.h"

side_static_event(ev_cxx, "tracer_cxx", "tick", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u64("n")));
side_static_event(ev_dump, "tracer_cxx", "dump", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_string("what")));

namespace
{
struct Tracer {
	int calls = 0;
	int inserted = 0;

	static void on_call(const side_event_description *, const side_arg_vec *vec, void *priv,
			    void *)
	{
		static_cast<Tracer *>(priv)->calls +=
			side_ptr_get(vec->sav)[0].u.side_static.integer_value.side_u64 == 5;
	}

	static void on_events(side_tracer_notification notif, side_event_description **events,
			      uint32_t nr, void *priv)
	{
		for (uint32_t i = 0; i < nr; i++)
			if (events[i] == &ev_cxx && notif == SIDE_TRACER_NOTIFICATION_INSERT_EVENTS)
				static_cast<Tracer *>(priv)->inserted++;
	}
};
} // namespace

#include "tracer_statedump.h"

int main()
{
	Tracer t;
	uint64_t key = 0;

	ok(side_tracer_request_key(&key) == SIDE_ERROR_OK && key >= 8, "C++: key");
	side_tracer_handle *h = side_tracer_event_notification_register(Tracer::on_events, &t);
	ok(h && t.inserted == 1, "C++: notification of loaded events");
	ok(side_tracer_callback_register(&ev_cxx, Tracer::on_call, &t, key) == SIDE_ERROR_OK,
	   "C++: register");
	side_event(ev_cxx, side_arg_list(side_arg_u64(5)));
	ok(t.calls == 1, "C++: callback called");
	ok(side_tracer_callback_unregister(&ev_cxx, Tracer::on_call, &t, key) == SIDE_ERROR_OK,
	   "C++: unregister");
	side_event(ev_cxx, side_arg_list(side_arg_u64(5)));
	ok(t.calls == 1, "C++: no call after unregister");
	side_tracer_event_notification_unregister(h);
	test_statedump();
	return unit_summary();
}
