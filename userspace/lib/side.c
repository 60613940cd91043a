// SPDX-License-Identifier: MIT
/*
 * libside runtime: the registry of loaded events and the out-of-line call
 * path taken when an event is enabled. In-process tracer callbacks (a later
 * issue) hang off each event state's callbacks array; with none registered
 * side_call() returns at once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <side/trace.h>

const char side_empty_callback[sizeof(void *) * 4] __attribute__((aligned(16)));

struct side_events_register_handle {
	struct side_events_register_handle *next;
	struct side_event_description **events;
	uint32_t nr_events;
};

static pthread_mutex_t side_lock = PTHREAD_MUTEX_INITIALIZER;
static struct side_events_register_handle *side_handles;

/* Names outside [A-Za-z0-9_] cannot be USDT names as written. */
static int side_usdt_name_ok(const char *s)
{
	for (; *s; s++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	}
	return 1;
}

/* Returns 0 when the description can be read by this runtime. */
static int side_check_description(const struct side_event_description *desc)
{
	const char *provider, *event;

	if (!desc) {
		fprintf(stderr, "libside: null event description pointer, ignored\n");
		return -1;
	}
	if (desc->version != SIDE_EVENT_DESCRIPTION_ABI_VERSION ||
	    desc->struct_size < offsetof(struct side_event_description, end)) {
		fprintf(stderr,
			"libside: event description ABI version %u (size %u) cannot be read "
			"by this runtime (version %u), ignored\n",
			desc->version, desc->struct_size, SIDE_EVENT_DESCRIPTION_ABI_VERSION);
		return -1;
	}
	provider = side_ptr_get(desc->provider_name);
	event = side_ptr_get(desc->event_name);
	if (!provider || !event || !*provider || !*event) {
		fprintf(stderr, "libside: event description with a null or empty %s name, ignored\n",
			!provider || !*provider ? "provider" : "event");
		return -1;
	}
	if (!side_usdt_name_ok(provider) || !side_usdt_name_ok(event))
		fprintf(stderr,
			"libside: event %s:%s: names outside [A-Za-z0-9_] are kept verbatim in "
			"its USDT notes; USDT tools may not be able to name it\n",
			provider, event);
	return 0;
}

struct side_events_register_handle *
side_events_register(struct side_event_description **events, uint32_t nr_events)
{
	struct side_events_register_handle *handle;
	uint32_t i;

	for (i = 0; i < nr_events; i++)
		side_check_description(events[i]);
	handle = calloc(1, sizeof(*handle));
	if (!handle)
		return NULL;
	handle->events = events;
	handle->nr_events = nr_events;
	pthread_mutex_lock(&side_lock);
	handle->next = side_handles;
	side_handles = handle;
	pthread_mutex_unlock(&side_lock);
	return handle;
}

void side_events_unregister(struct side_events_register_handle *handle)
{
	struct side_events_register_handle **p;

	if (!handle)
		return;
	pthread_mutex_lock(&side_lock);
	for (p = &side_handles; *p; p = &(*p)->next) {
		if (*p == handle) {
			*p = handle->next;
			break;
		}
	}
	pthread_mutex_unlock(&side_lock);
	free(handle);
}

void side_call(const struct side_event_state *state, const struct side_arg_vec *side_arg_vec)
{
	const struct side_event_state_0 *s = (const struct side_event_state_0 *)state;

	(void)side_arg_vec;
	/* Only the kernel semaphore is set: nothing to do in process. */
	if (!(__atomic_load_n(&s->enabled, __ATOMIC_RELAXED) & ~SIDE_ENABLED_KERNEL_MASK))
		return;
}

void side_call_variadic(const struct side_event_state *state,
			const struct side_arg_vec *side_arg_vec,
			const struct side_arg_dynamic_struct *var_struct)
{
	(void)var_struct;
	side_call(state, side_arg_vec);
}
