// SPDX-License-Identifier: MIT
/*
 * libside runtime: the registry of loaded events and the tracers that
 * want to hear of them. Each object (executable, shared library) registers
 * the events of its side_event_description_ptr section from a constructor
 * and unregisters them from a destructor (side/trace.h), so a tracer's
 * notification callback sees objects come and go with dlopen/dlclose.
 */
/* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "rcu.h"

struct side_events_register_handle {
	struct side_events_register_handle *next, **pprev;
	struct side_event_description **events;
	uint32_t nr_events;
};

struct side_tracer_handle {
	struct side_tracer_handle *next, **pprev;
	void (*cb)(enum side_tracer_notification notif, struct side_event_description **events,
		   uint32_t nr_events, void *priv);
	void *priv;
};

pthread_mutex_t side_event_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
bool side_initialized;
bool side_finalized;

/* Both lists keep their order of registration: tracers hear of objects in load order. */
static struct side_events_register_handle *side_handles;
static struct side_tracer_handle *side_tracers;

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
		fprintf(stderr,
			"libside: event description with a null or empty %s name, ignored\n",
			!provider || !*provider ? "provider" : "event");
		return -1;
	}
	return 0;
}

/*
 * Duplicated field names make a field unreachable by name for every tracer.
 * The compiler catches them at the call sites of optimized builds; this
 * covers the rest (events without call sites, -O0, nested structs).
 */
#define SIDE_CHECK_MAX_DEPTH 8

static void side_check_field_names(const struct side_event_description *desc,
				   const struct side_event_field *fields, uint32_t nr,
				   const char *where, int depth)
{
	uint32_t i, j;

	if (!fields || depth > SIDE_CHECK_MAX_DEPTH)
		return;
	for (i = 0; i < nr; i++) {
		const char *name = side_ptr_get(fields[i].field_name);
		const struct side_type *type = &fields[i].side_type;

		if (!name) {
			fprintf(stderr, "libside: event %s:%s: %s field %u has a null name\n",
				side_ptr_get(desc->provider_name), side_ptr_get(desc->event_name),
				where, i);
			continue;
		}
		for (j = i + 1; j < nr; j++) {
			const char *other = side_ptr_get(fields[j].field_name);

			if (other && !strcmp(name, other))
				fprintf(stderr,
					"libside: event %s:%s: %s fields %u and %u have the same "
					"name \"%s\"\n",
					side_ptr_get(desc->provider_name),
					side_ptr_get(desc->event_name), where, i, j, name);
		}
		if (type->type.v == SIDE_TYPE_STRUCT && side_ptr_get(type->u.side_struct)) {
			const struct side_type_struct *st = side_ptr_get(type->u.side_struct);

			side_check_field_names(desc, side_ptr_get(st->fields.elements),
					       st->fields.length, "nested struct", depth + 1);
		}
	}
}

static void side_notify(struct side_tracer_handle *t, enum side_tracer_notification notif,
			struct side_events_register_handle *h)
{
	t->cb(notif, h->events, h->nr_events, t->priv);
}

struct side_events_register_handle *side_events_register(struct side_event_description **events,
							 uint32_t nr_events)
{
	struct side_events_register_handle *handle;
	struct side_tracer_handle *t;
	uint32_t i;

	if (side_finalized)
		return NULL;
	side_init();
	for (i = 0; i < nr_events; i++) {
		if (side_check_description(events[i]))
			continue;
		side_check_field_names(events[i], side_ptr_get(events[i]->fields.elements),
				       events[i]->fields.length, "top-level", 0);
	}
	handle = calloc(1, sizeof(*handle));
	if (!handle)
		return NULL;
	handle->events = events;
	handle->nr_events = nr_events;
	pthread_mutex_lock(&side_event_lock);
	side_list_append(side_handles, handle);
	for (t = side_tracers; t; t = t->next)
		side_notify(t, SIDE_TRACER_NOTIFICATION_INSERT_EVENTS, handle);
	pthread_mutex_unlock(&side_event_lock);
	return handle;
}

/* The object is unloading: tracers hear it, then its events lose their callbacks. */
void side_events_unregister(struct side_events_register_handle *handle)
{
	struct side_tracer_handle *t;
	uint32_t i;

	if (!handle || side_finalized)
		return;
	pthread_mutex_lock(&side_event_lock);
	side_list_unlink(handle);
	for (t = side_tracers; t; t = t->next)
		side_notify(t, SIDE_TRACER_NOTIFICATION_REMOVE_EVENTS, handle);
	for (i = 0; i < handle->nr_events; i++)
		if (handle->events[i] && !side_check_description(handle->events[i]))
			side_event_remove_callbacks(handle->events[i]);
	pthread_mutex_unlock(&side_event_lock);
	free(handle);
}

struct side_tracer_handle *side_tracer_event_notification_register(
	void (*cb)(enum side_tracer_notification notif, struct side_event_description **events,
		   uint32_t nr_events, void *priv),
	void *priv)
{
	struct side_events_register_handle *h;
	struct side_tracer_handle *t;

	if (side_finalized || !cb)
		return NULL;
	side_init();
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->cb = cb;
	t->priv = priv;
	pthread_mutex_lock(&side_event_lock);
	side_list_append(side_tracers, t);
	for (h = side_handles; h; h = h->next)
		side_notify(t, SIDE_TRACER_NOTIFICATION_INSERT_EVENTS, h);
	pthread_mutex_unlock(&side_event_lock);
	return t;
}

void side_tracer_event_notification_unregister(struct side_tracer_handle *t)
{
	struct side_events_register_handle *h;

	if (!t || side_finalized)
		return;
	pthread_mutex_lock(&side_event_lock);
	for (h = side_handles; h; h = h->next)
		side_notify(t, SIDE_TRACER_NOTIFICATION_REMOVE_EVENTS, h);
	side_list_unlink(t);
	pthread_mutex_unlock(&side_event_lock);
	free(t);
}

int side_for_each_event(int (*fn)(struct side_event_description *desc, void *priv), void *priv)
{
	struct side_events_register_handle *h;
	uint32_t i;
	int ret = 0;

	pthread_mutex_lock(&side_event_lock);
	for (h = side_handles; h && !ret; h = h->next)
		for (i = 0; i < h->nr_events && !ret; i++)
			if (h->events[i])
				ret = fn(h->events[i], priv);
	pthread_mutex_unlock(&side_event_lock);
	return ret;
}

/*
 * Lazy as well as a constructor: an object's constructor may register its
 * events before the runtime's own constructor has run.
 */
static void side_init_once(void)
{
	side_sites_init();
	side_rcu_init();
	__atomic_store_n(&side_initialized, true, __ATOMIC_RELEASE);
	/* Last: it may wait for an attach, whose engine calls side_init(). */
	st_agent_start();
}

__attribute__((constructor)) void side_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	if (!__atomic_load_n(&side_initialized, __ATOMIC_ACQUIRE))
		pthread_once(&once, side_init_once);
}

/*
 * At exit: the objects still registered are unregistered (tracers hear
 * it), then nothing registers any more. No other thread is expected to
 * use the API at this point, as in libside.
 */
__attribute__((destructor)) void side_exit(void)
{
	if (side_finalized)
		return;
	while (side_handles)
		side_events_unregister(side_handles);
	side_finalized = true;
}
