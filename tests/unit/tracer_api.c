// SPDX-License-Identifier: MIT
/*
 * The in-process tracer API against the runtime (libside.so, as a tracer
 * meets it): keys, callbacks plain and variadic, the enable word's user
 * and kernel bits, insert/remove notifications as libkv.so is dlopen()ed
 * and dlclose()d, registration while 4 threads emit, statedump in polling
 * and agent-thread modes. Built as .output/tests/test_tracer.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <side/trace.h>
#include "unit.h"

side_static_event(ev_plain, "tracer_test", "plain", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u32("n")));
side_static_event_variadic(ev_var, "tracer_test", "variadic", SIDE_LOGLEVEL_INFO,
			   side_field_list(side_field_u32("n")));
side_static_event(ev_conc, "tracer_test", "concurrent", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u32("n")));
side_static_event(ev_dump, "tracer_test", "dump", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_string("what")));

struct counter {
	int calls;
	uint32_t last;
	uint32_t var_len;
};

static void count_call(const struct side_event_description *desc, const struct side_arg_vec *vec,
		       void *priv, void *caller)
{
	struct counter *c = priv;

	c->calls++;
	c->last = side_ptr_get(vec->sav)[0].u.side_static.integer_value.side_u32;
}

static void count_variadic(const struct side_event_description *desc,
			   const struct side_arg_vec *vec,
			   const struct side_arg_dynamic_struct *var, void *priv, void *caller)
{
	struct counter *c = priv;

	c->calls++;
	c->var_len = var->len;
}

static uintptr_t user_bits(uintptr_t enabled)
{
	return enabled / SIDE_ENABLED_USER_ONE;
}

static void test_keys_and_callbacks(void)
{
	struct counter a = {}, b = {};
	uint64_t k1, k2;

	ok(!side_tracer_request_key(&k1) && !side_tracer_request_key(&k2) && k1 >= 8 && k2 > k1,
	   "keys: distinct, above the reserved range");
	side_event(ev_plain, side_arg_list(side_arg_u32(1)));
	ok(!side_tracer_callback_register(&ev_plain, count_call, &a, k1), "register");
	ok(side_tracer_callback_register(&ev_plain, count_call, &a, k1) == SIDE_ERROR_EXIST,
	   "register twice: EXIST");
	ok(side_tracer_callback_variadic_register(&ev_plain, count_variadic, &a, k1) ==
		   SIDE_ERROR_INVAL,
	   "variadic callback on a plain event: INVAL");
	ok(side_tracer_callback_register(&ev_plain, NULL, &a, k1) == SIDE_ERROR_INVAL,
	   "NULL callback: INVAL");
	ok(!side_tracer_callback_register(&ev_plain, count_call, &b, k2), "second callback");
	ok(user_bits(side_event_state__ev_plain.enabled) == 2, "enable word: 2 user tracers");
	side_event(ev_plain, side_arg_list(side_arg_u32(7)));
	ok(a.calls == 1 && b.calls == 1 && a.last == 7, "both callbacks see the call");
	ok(!side_tracer_callback_unregister(&ev_plain, count_call, &a, k1), "unregister");
	ok(side_tracer_callback_unregister(&ev_plain, count_call, &a, k1) == SIDE_ERROR_NOENT,
	   "unregister twice: NOENT");
	side_event(ev_plain, side_arg_list(side_arg_u32(8)));
	ok(a.calls == 1 && b.calls == 2, "unregistered callback no longer called");
	ok(!side_tracer_callback_unregister(&ev_plain, count_call, &b, k2), "unregister last");
	ok(side_event_state__ev_plain.enabled == 0, "enable word back to 0");
}

static void test_variadic_and_kernel_bits(void)
{
	struct counter v = {};

	ok(side_tracer_callback_register(&ev_var, count_call, &v, 0) == SIDE_ERROR_INVAL,
	   "plain callback on a variadic event: INVAL");
	ok(!side_tracer_callback_variadic_register(&ev_var, count_variadic, &v, 0),
	   "variadic register");
	/* What the kernel does when a uprobe attaches: the low 16 bits. */
	__atomic_add_fetch(&side_event_state__ev_var.enabled, 1, __ATOMIC_SEQ_CST);
	side_event_variadic(ev_var, side_arg_list(side_arg_u32(3)),
			    side_arg_list(side_arg_dynamic_field("x", side_arg_dynamic_u32(1)),
					  side_arg_dynamic_field("y", side_arg_dynamic_u32(2))));
	ok(v.calls == 1 && v.var_len == 2, "variadic callback gets the dynamic fields");
	ok(!side_tracer_callback_variadic_unregister(&ev_var, count_variadic, &v, 0),
	   "variadic unregister");
	ok(side_event_state__ev_var.enabled == 1, "kernel bits kept after unregistration");
	side_event_variadic(ev_var, side_arg_list(side_arg_u32(3)), side_arg_list());
	ok(v.calls == 1, "kernel bits only: no in-process call");
	__atomic_sub_fetch(&side_event_state__ev_var.enabled, 1, __ATOMIC_SEQ_CST);
}

/* Notifications: what was inserted and removed, by event name. */
struct seen {
	int inserted, removed;
	const char *want;
	struct side_event_description *found;
	struct counter calls;
};

static void on_events(enum side_tracer_notification notif, struct side_event_description **events,
		      uint32_t nr, void *priv)
{
	struct seen *s = priv;
	uint32_t i;

	for (i = 0; i < nr; i++) {
		if (!events[i] || strcmp(side_ptr_get(events[i]->event_name), s->want))
			continue;
		if (notif == SIDE_TRACER_NOTIFICATION_INSERT_EVENTS) {
			s->inserted++;
			s->found = events[i];
			side_tracer_callback_register(events[i], count_call, &s->calls, 0);
		} else {
			s->removed++;
			side_tracer_callback_unregister(events[i], count_call, &s->calls, 0);
		}
	}
}

static void test_notifications_dlopen(const char *libkv)
{
	struct seen own = {.want = "plain"}, kv = {.want = "get"};
	struct side_tracer_handle *h1, *h2;
	int (*kv_get)(const char *, uint32_t *);
	void (*kv_put)(const char *, uint32_t);
	uint32_t size;
	void *lib;

	h1 = side_tracer_event_notification_register(on_events, &own);
	ok(h1 && own.inserted == 1, "notification: events already loaded are inserted at once");
	h2 = side_tracer_event_notification_register(on_events, &kv);
	ok(kv.inserted == 0, "libkv not loaded yet");
	lib = dlopen(libkv, RTLD_NOW);
	ok(lib != NULL, "dlopen libkv.so");
	if (!lib) {
		printf("# %s\n", dlerror());
		return;
	}
	ok(kv.inserted == 1 && kv.found, "dlopen: kv:get inserted");
	kv_get = (int (*)(const char *, uint32_t *))dlsym(lib, "kv_get");
	kv_put = (void (*)(const char *, uint32_t))dlsym(lib, "kv_put");
	kv_put("a", 3);
	kv_get("a", &size);
	ok(kv.calls.calls == 1, "callback registered on insert sees the library's event");
	dlclose(lib);
	ok(kv.removed == 1, "dlclose: kv:get removed");
	side_tracer_event_notification_unregister(h2);
	ok(kv.removed == 1, "libkv gone: nothing more to remove");
	side_tracer_event_notification_unregister(h1);
	ok(own.removed == 1, "unregistering the tracer removes what it was told of");
	ok(side_event_state__ev_plain.enabled == 0, "its callbacks are gone");
}

/*
 * 4 threads emit while the main thread registers and unregisters. phase
 * % 4 says where the main thread is: 0 nothing registered, 1 registering,
 * 2 registered (registration returned), 3 unregistering. An emit that
 * began and ended in phase 2 must reach the callback; one in phase 0 must
 * not.
 */
#define EMITTERS 4
static int phase;
static int stop;
static __thread int hits;
static int lost, spurious;

struct magic {
	int alive;
};

static void conc_call(const struct side_event_description *desc, const struct side_arg_vec *vec,
		      void *priv, void *caller)
{
	struct magic *m = priv;

	if (__atomic_load_n(&m->alive, __ATOMIC_RELAXED) != 0x5a5a)
		__atomic_add_fetch(&spurious, 1, __ATOMIC_RELAXED);
	hits++;
}

static void *emitter(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		int p = __atomic_load_n(&phase, __ATOMIC_ACQUIRE), before = hits;

		side_event(ev_conc, side_arg_list(side_arg_u32(p)));
		if (__atomic_load_n(&phase, __ATOMIC_ACQUIRE) != p)
			continue;
		if (p % 4 == 2 && hits == before)
			__atomic_add_fetch(&lost, 1, __ATOMIC_RELAXED);
		if (p % 4 == 0 && hits != before)
			__atomic_add_fetch(&spurious, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void test_concurrent(void)
{
	pthread_t t[EMITTERS];
	int i, rounds = 300, errs = 0;

	for (i = 0; i < EMITTERS; i++)
		pthread_create(&t[i], NULL, emitter, NULL);
	for (i = 0; i < rounds; i++) {
		struct magic *m = malloc(sizeof(*m));

		m->alive = 0x5a5a;
		__atomic_add_fetch(&phase, 1, __ATOMIC_RELEASE);
		errs += side_tracer_callback_register(&ev_conc, conc_call, m, 0) != 0;
		__atomic_add_fetch(&phase, 1, __ATOMIC_RELEASE);
		usleep(200);
		__atomic_add_fetch(&phase, 1, __ATOMIC_RELEASE);
		errs += side_tracer_callback_unregister(&ev_conc, conc_call, m, 0) != 0;
		__atomic_add_fetch(&phase, 1, __ATOMIC_RELEASE);
		usleep(50);
		/* Freed and poisoned: a late call would see it. */
		m->alive = 0;
		free(m);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < EMITTERS; i++)
		pthread_join(t[i], NULL);
	ok(errs == 0, "concurrent: 300 registrations and unregistrations succeed");
	ok(lost == 0, "concurrent: no call lost after registration returned");
	ok(spurious == 0, "concurrent: no call after unregistration returned");
	if (lost || spurious)
		printf("# lost %d, spurious %d\n", lost, spurious);
}

#include "tracer_statedump.h"

int main(int argc, char **argv)
{
	char libkv[4096];
	const char *slash = strrchr(argv[0], '/');

	(void)argc;
	snprintf(libkv, sizeof(libkv), "%.*s/../examples/libkv.so",
		 slash ? (int)(slash - argv[0]) : 1, slash ? argv[0] : ".");
	test_keys_and_callbacks();
	test_variadic_and_kernel_bits();
	test_notifications_dlopen(libkv);
	test_concurrent();
	test_statedump();
	return unit_summary();
}
