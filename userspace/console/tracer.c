// SPDX-License-Identifier: MIT
/*
 * libside-console-tracer.so: prints every event of the process on stdout,
 * in libside's console tracer format. Loaded with LD_PRELOAD or linked, it
 * registers for event notifications from its constructor: each object's
 * events are described when they are inserted, and a callback on each
 * prints its calls until the object is removed.
 */
#include "print.h"

static struct side_tracer_handle *tracer_handle;
static uint64_t tracer_key;

static void tracer_call(const struct side_event_description *desc,
			const struct side_arg_vec *side_arg_vec, void *priv, void *caller_addr)
{
	print_event(desc, side_arg_vec, NULL);
}

static void tracer_call_variadic(const struct side_event_description *desc,
				 const struct side_arg_vec *side_arg_vec,
				 const struct side_arg_dynamic_struct *var_struct, void *priv,
				 void *caller_addr)
{
	print_event(desc, side_arg_vec, var_struct);
}

static void tracer_warn_unknown(struct side_event_description *ev)
{
	const char *p = side_ptr_get(ev->provider_name), *e = side_ptr_get(ev->event_name);

	if (ev->struct_size !=
	    side_offsetofend(struct side_event_description, side_event_description_orig_abi_last))
		printf("Warning: Event %s.%s description contains fields unknown to the tracer\n",
		       p, e);
}

static void tracer_warn_new_types(struct side_event_description *ev)
{
	const char *p = side_ptr_get(ev->provider_name), *e = side_ptr_get(ev->event_name);

	if (ev->nr_side_type_label > _NR_SIDE_TYPE_LABEL)
		printf("Warning: event %s:%s may contain unknown field types (%u unknown types)\n",
		       p, e, ev->nr_side_type_label - _NR_SIDE_TYPE_LABEL);
	if (ev->nr_side_attr_type > _NR_SIDE_ATTR_TYPE)
		printf("Warning: event %s:%s may contain unknown attribute types (%u unknown "
		       "types)\n",
		       p, e, ev->nr_side_attr_type - _NR_SIDE_ATTR_TYPE);
}

static int tracer_follow(struct side_event_description *ev, bool insert)
{
	bool variadic = ev->flags & SIDE_EVENT_FLAG_VARIADIC;

	if (insert && variadic)
		return side_tracer_callback_variadic_register(ev, tracer_call_variadic, NULL,
							      tracer_key);
	if (insert)
		return side_tracer_callback_register(ev, tracer_call, NULL, tracer_key);
	if (variadic)
		return side_tracer_callback_variadic_unregister(ev, tracer_call_variadic, NULL,
								tracer_key);
	return side_tracer_callback_unregister(ev, tracer_call, NULL, tracer_key);
}

static void tracer_event_notification(enum side_tracer_notification notif,
				      struct side_event_description **events, uint32_t nr_events,
				      void *priv)
{
	bool insert = notif == SIDE_TRACER_NOTIFICATION_INSERT_EVENTS;
	uint32_t i;

	printf("----------------------------------------------------------\n");
	printf("Tracer notified of events %s\n", insert ? "inserted" : "removed");
	for (i = 0; i < nr_events; i++) {
		struct side_event_description *ev = events[i];

		if (!ev)
			continue;
		if (ev->version != SIDE_EVENT_DESCRIPTION_ABI_VERSION) {
			printf("Error: event description ABI version (%u) does not match the "
			       "version supported by the tracer (%u)\n",
			       ev->version, SIDE_EVENT_DESCRIPTION_ABI_VERSION);
			return;
		}
		printf("provider: %s, event: %s\n", side_ptr_get(ev->provider_name),
		       side_ptr_get(ev->event_name));
		tracer_warn_unknown(ev);
		if (insert) {
			tracer_warn_new_types(ev);
			print_description(ev);
		}
		if (tracer_follow(ev, insert))
			abort();
	}
	printf("----------------------------------------------------------\n");
}

__attribute__((constructor)) static void tracer_init(void)
{
	warn_private_runtime();
	if (side_tracer_request_key(&tracer_key))
		abort();
	tracer_handle = side_tracer_event_notification_register(tracer_event_notification, NULL);
	if (!tracer_handle)
		abort();
}

__attribute__((destructor)) static void tracer_exit(void)
{
	side_tracer_event_notification_unregister(tracer_handle);
}
