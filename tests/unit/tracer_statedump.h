/* SPDX-License-Identifier: MIT */
/*
 * Statedump checks, shared by the C and C++ tracer tests (they define
 * ev_dump, a one-string event, and include unit.h first): polling and
 * agent-thread handles, requests by key, cancellation.
 */
#ifndef TRACER_STATEDUMP_H
#define TRACER_STATEDUMP_H

#include <unistd.h>

static int dumps, dump_calls_a, dump_calls_b;

static void dump_a(const struct side_event_description *desc, const struct side_arg_vec *vec,
		   void *priv, void *caller)
{
	dump_calls_a++;
}

static void dump_b(const struct side_event_description *desc, const struct side_arg_vec *vec,
		   void *priv, void *caller)
{
	dump_calls_b++;
}

static void app_state(void *key)
{
	__atomic_add_fetch(&dumps, 1, __ATOMIC_SEQ_CST);
	side_statedump_event_call(ev_dump, key, side_arg_list(side_arg_string("state")));
}

static bool wait_dumps(int n)
{
	int i;

	for (i = 0; i < 2000 && __atomic_load_n(&dumps, __ATOMIC_SEQ_CST) < n; i++)
		usleep(1000);
	return __atomic_load_n(&dumps, __ATOMIC_SEQ_CST) == n;
}

static void test_statedump(void)
{
	struct side_statedump_request_handle *h;
	uint64_t ka, kb;

	side_tracer_request_key(&ka);
	side_tracer_request_key(&kb);
	side_tracer_callback_register(&ev_dump, dump_a, NULL, ka);
	side_tracer_callback_register(&ev_dump, dump_b, NULL, kb);

	h = side_statedump_request_notification_register("app", app_state,
							 SIDE_STATEDUMP_MODE_POLLING);
	ok(h && side_statedump_poll_pending_requests(h), "polling: first dump pending");
	ok(dumps == 0, "polling: nothing runs until the application asks");
	ok(side_statedump_run_pending_requests(h) == SIDE_ERROR_OK && dumps == 1,
	   "polling: run pending");
	ok(dump_calls_a == 1 && dump_calls_b == 1, "first dump (key 0) reaches every tracer");
	ok(!side_statedump_poll_pending_requests(h), "polling: nothing left");
	ok(side_tracer_statedump_request(0) == SIDE_ERROR_INVAL, "request with key 0: INVAL");
	ok(side_tracer_statedump_request(ka) == SIDE_ERROR_OK &&
		   side_statedump_poll_pending_requests(h),
	   "request by key");
	side_statedump_run_pending_requests(h);
	ok(dump_calls_a == 2 && dump_calls_b == 1, "a dump reaches only the tracer that asked");
	side_tracer_statedump_request(kb);
	ok(side_tracer_statedump_request_cancel(kb) == SIDE_ERROR_OK &&
		   !side_statedump_poll_pending_requests(h),
	   "cancel drops the request");
	side_statedump_request_notification_unregister(h);

	h = side_statedump_request_notification_register("agent", app_state,
							 SIDE_STATEDUMP_MODE_AGENT_THREAD);
	ok(h && dumps == 3, "agent thread: first dump done when registration returns");
	ok(side_statedump_run_pending_requests(h) == SIDE_ERROR_INVAL,
	   "agent thread: run pending is the agent's");
	ok(!side_statedump_poll_pending_requests(h), "agent thread: nothing to poll");
	side_tracer_statedump_request(kb);
	ok(wait_dumps(4) && dump_calls_b == 3 && dump_calls_a == 3,
	   "agent thread: runs a request by key");
	side_statedump_request_notification_unregister(h);
	side_tracer_statedump_request(kb);
	usleep(10000);
	ok(dumps == 4, "unregistered: no more dumps");
	side_tracer_callback_unregister(&ev_dump, dump_a, NULL, ka);
	side_tracer_callback_unregister(&ev_dump, dump_b, NULL, kb);
}

#endif /* TRACER_STATEDUMP_H */
