/* SPDX-License-Identifier: MIT */
/*
 * SIDE instrumentation API: declare typed events, call them. Every call site
 * is also a USDT probe (see side/probe.h) whose semaphore is the event's
 * enable word.
 */
#ifndef SIDE_TRACE_H
#define SIDE_TRACE_H

/* The standard headers libside's trace.h includes, which its users rely on. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <side/macros.h>
#include <side/abi/event-description.h>
#include <side/abi/type-argument.h>
#include <side/types.h>
#include <side/probe.h>

#define SIDE_EVENT_STATE_ABI_VERSION 0

struct side_event_state {
	uint32_t version; /* SIDE_EVENT_STATE_ABI_VERSION */
};

struct side_callback;

/*
 * enabled: one word tells whether anybody listens. Its low 16 bits are the
 * USDT semaphore that the kernel counts for attached uprobes; the bits above
 * count in-process tracers (SIDE_ENABLED_USER_ONE each).
 */
struct side_event_state_0 {
	struct side_event_state parent;
	uint32_t nr_callbacks;
	uintptr_t enabled;
	const struct side_callback *callbacks;
	struct side_event_description *desc;
};

#define SIDE_ENABLED_KERNEL_MASK ((uintptr_t)0xffff)
#define SIDE_ENABLED_USER_ONE ((uintptr_t)1 << 16)

/* The runtime is built with hidden visibility: its API is exported here. */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif

extern const char side_empty_callback[];

void side_call(const struct side_event_state *state, const struct side_arg_vec *side_arg_vec);
void side_call_variadic(const struct side_event_state *state,
			const struct side_arg_vec *side_arg_vec,
			const struct side_arg_dynamic_struct *var_struct);
/*
 * The same from a probe site, which says whether its fallback was
 * disarmed (side/probe.h): in_process, the process's in-process engine
 * counts the event, and no kernel probe saw it.
 */
void side_call_from_site(const struct side_event_state *state,
			 const struct side_arg_vec *side_arg_vec, int in_process);
void side_call_variadic_from_site(const struct side_event_state *state,
				  const struct side_arg_vec *side_arg_vec,
				  const struct side_arg_dynamic_struct *var_struct, int in_process);

struct side_events_register_handle;
struct side_events_register_handle *side_events_register(struct side_event_description **events,
							 uint32_t nr_events);
void side_events_unregister(struct side_events_register_handle *handle);
/*
 * Calls fn for every registered event until it returns non-zero; returns
 * that. Ours, not libside's: no macro of these headers refers to it, so a
 * program that does not call it links against either runtime.
 */
int side_for_each_event(int (*fn)(struct side_event_description *desc, void *priv), void *priv);
/*
 * An object's probe sites (side/probe.h), registered by its constructor so
 * that a forked child can repair them (userspace/lib/sites.c). Ours too.
 */
struct side_probe_sites_handle;
struct side_probe_sites_handle *side_probe_sites_register(const struct side_probe_site *begin,
							  const struct side_probe_site *end);
void side_probe_sites_unregister(struct side_probe_sites_handle *handle);

/* The in-process tracer API, with libside's names, values and semantics. */
enum side_error {
	SIDE_ERROR_OK = 0,
	SIDE_ERROR_INVAL = 1,
	SIDE_ERROR_EXIST = 2,
	SIDE_ERROR_NOMEM = 3,
	SIDE_ERROR_NOENT = 4,
	SIDE_ERROR_EXITING = 5,
};

struct side_tracer_handle;
struct side_statedump_request_handle;

typedef void (*side_tracer_callback_func)(const struct side_event_description *desc,
					  const struct side_arg_vec *side_arg_vec, void *priv,
					  void *caller_addr);
typedef void (*side_tracer_callback_variadic_func)(const struct side_event_description *desc,
						   const struct side_arg_vec *side_arg_vec,
						   const struct side_arg_dynamic_struct *var_struct,
						   void *priv, void *caller_addr);

/*
 * A key names one tracer: its callbacks, and the statedumps it asks for.
 * Callbacks registered with key 0 see every statedump.
 */
int side_tracer_request_key(uint64_t *key);
/*
 * Safe while other threads call the event: once registration returns,
 * every later call of the event reaches the callback; once unregistration
 * returns, none does and priv may be freed. Do not call them from a
 * tracer callback (they wait for the callbacks running on other threads).
 */
int side_tracer_callback_register(struct side_event_description *desc,
				  side_tracer_callback_func call, void *priv, uint64_t key);
int side_tracer_callback_variadic_register(struct side_event_description *desc,
					   side_tracer_callback_variadic_func call_variadic,
					   void *priv, uint64_t key);
int side_tracer_callback_unregister(struct side_event_description *desc,
				    side_tracer_callback_func call, void *priv, uint64_t key);
int side_tracer_callback_variadic_unregister(struct side_event_description *desc,
					     side_tracer_callback_variadic_func call_variadic,
					     void *priv, uint64_t key);

enum side_tracer_notification {
	SIDE_TRACER_NOTIFICATION_INSERT_EVENTS,
	SIDE_TRACER_NOTIFICATION_REMOVE_EVENTS,
};

/*
 * cb is called at once with INSERT for every object registered so far,
 * then for each object that registers (loads) or unregisters (unloads),
 * and with REMOVE for every object at unregistration. It runs with the
 * runtime's registry lock held and may register callbacks.
 */
struct side_tracer_handle *side_tracer_event_notification_register(
	void (*cb)(enum side_tracer_notification notif, struct side_event_description **events,
		   uint32_t nr_events, void *priv),
	void *priv);
void side_tracer_event_notification_unregister(struct side_tracer_handle *handle);

/*
 * Statedump: the application dumps its state to the tracer that asked
 * (statedump_request_key) with side_statedump_event_call(). POLLING: the
 * application runs pending requests itself; AGENT_THREAD: a thread of the
 * runtime does. Registration runs a first dump for every tracer before it
 * returns (agent thread) or queues it (polling).
 */
void side_statedump_call(const struct side_event_state *state,
			 const struct side_arg_vec *side_arg_vec, void *statedump_request_key);
void side_statedump_call_variadic(const struct side_event_state *state,
				  const struct side_arg_vec *side_arg_vec,
				  const struct side_arg_dynamic_struct *var_struct,
				  void *statedump_request_key);

enum side_statedump_mode {
	SIDE_STATEDUMP_MODE_POLLING,
	SIDE_STATEDUMP_MODE_AGENT_THREAD,
};

struct side_statedump_request_handle *
side_statedump_request_notification_register(const char *state_name,
					     void (*statedump_cb)(void *statedump_request_key),
					     enum side_statedump_mode mode);
void side_statedump_request_notification_unregister(struct side_statedump_request_handle *handle);
/* True when the (polling) handle has requests waiting. */
bool side_statedump_poll_pending_requests(struct side_statedump_request_handle *handle);
int side_statedump_run_pending_requests(struct side_statedump_request_handle *handle);
int side_tracer_statedump_request(uint64_t key);
int side_tracer_statedump_request_cancel(uint64_t key);

/* Also the runtime's constructor and destructor; may be called explicitly. */
void side_init(void);
void side_exit(void);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

/*
 * Calling an event. Disabled: one load and one branch; the arguments are
 * built only inside the branch.
 */
/*
 * Compare and branch: "cmpq $0, word" in a volatile asm whose output is
 * the flags (=@ccne), which the compiler branches on directly with "jne":
 * two instructions, no register, no stack write, and, being volatile,
 * never hoisted out of a loop, so an event enabled while a loop runs fires
 * in it. (An asm goto emits the same code, but clang++ checks every asm
 * goto of a function against every such label in it and rejects
 * functions with two events.)
 */
#define side_event_enabled(_identifier) \
	side_unlikely(({ \
		unsigned char side_on_; \
		__asm__ __volatile__("cmpq $0, %1" \
				     : "=@ccne"(side_on_) \
				     : "m"(side_event_state__##_identifier.enabled)); \
		side_on_; \
	}))

/*
 * The USDT probe fires for kernel tracers; side_call_from_site() runs the
 * in-process tracers.
 *
 * The arguments are checked against the event's fields at compile time,
 * at every optimization level (side/static-check.h), where the call can
 * see the definition; a call in another file is checked for its number of
 * arguments when the program links (side/probe.h).
 */
/* The call's arguments and their vector, on the caller's stack. */
#define _side_define_arg_vec(...) \
	const struct side_arg side_sav[] = {SIDE_SC_ARG_INITS(__VA_ARGS__)}; \
	const struct side_arg_vec side_arg_vec = { \
		.sav = SIDE_PTR_INIT(side_sav), \
		.len = SIDE_ARRAY_SIZE(side_sav), \
	}

/* A variadic call's dynamic fields (the variadic part) and attributes, var_struct. */
#define _side_define_var_struct(_attrs, ...) \
	const struct side_arg_dynamic_field side_fields[] = {__VA_ARGS__}; \
	const struct side_arg_dynamic_struct var_struct = { \
		.fields = SIDE_PTR_INIT(side_fields), \
		.len = SIDE_ARRAY_SIZE(side_fields), \
		.attributes = _attrs, \
	}

#define side_event_call(_identifier, _sav...) \
	do { \
		_side_define_arg_vec(_sav); \
		SIDE_SC_CHECK_CALL(_identifier, SIDE_ARRAY_SIZE(side_sav), 0, _sav) \
		int side_in_process; \
		_side_sdt_probe(_identifier, 0, &side_event_state__##_identifier.enabled, \
				side_sav, SIDE_SC_COUNT1(_sav), &(_identifier), &side_arg_vec, 0, \
				side_in_process); \
		side_call_from_site(&side_event_state__##_identifier.parent, &side_arg_vec, \
				    side_in_process); \
	} while (0)

#define side_event(_identifier, _sav...) \
	do { \
		if (side_event_enabled(_identifier)) \
			side_event_call(_identifier, _sav); \
	} while (0)

#define side_event_call_variadic(_identifier, _sav, _var_fields, _attr...) \
	do { \
		_side_define_arg_vec(_sav); \
		_side_define_var_struct(_side_attr_or_none(_, ##_attr), _var_fields); \
		SIDE_SC_CHECK_CALL(_identifier, SIDE_ARRAY_SIZE(side_sav), 1, _sav) \
		int side_in_process; \
		_side_sdt_probe(_identifier, 1, &side_event_state__##_identifier.enabled, \
				side_sav, SIDE_SC_COUNT1(_sav), &(_identifier), &side_arg_vec, \
				&var_struct, side_in_process); \
		side_call_variadic_from_site(&side_event_state__##_identifier.parent, \
					     &side_arg_vec, &var_struct, side_in_process); \
	} while (0)

/*
 * A statedump call reaches only the in-process tracer that asked for the
 * dump (the key): no USDT probe, since no kernel tracer asked.
 */
#define side_statedump_event_call(_identifier, _key, _sav...) \
	do { \
		_side_define_arg_vec(_sav); \
		SIDE_SC_CHECK_CALL(_identifier, SIDE_ARRAY_SIZE(side_sav), 0, _sav) \
		side_statedump_call(&side_event_state__##_identifier.parent, &side_arg_vec, _key); \
	} while (0)

#define side_statedump_event_call_variadic(_identifier, _key, _sav, _var_fields, _attr...) \
	do { \
		_side_define_arg_vec(_sav); \
		_side_define_var_struct(_side_attr_or_none(_, ##_attr), _var_fields); \
		SIDE_SC_CHECK_CALL(_identifier, SIDE_ARRAY_SIZE(side_sav), 1, _sav) \
		side_statedump_call_variadic(&side_event_state__##_identifier.parent, \
					     &side_arg_vec, &var_struct, _key); \
	} while (0)

#define side_statedump_event(_identifier, _key, _sav...) \
	do { \
		if (side_event_enabled(_identifier)) \
			side_statedump_event_call(_identifier, _key, _sav); \
	} while (0)

#define side_statedump_event_variadic(_identifier, _key, _sav, _var, _attr...) \
	do { \
		if (side_event_enabled(_identifier)) \
			side_statedump_event_call_variadic(_identifier, _key, SIDE_PARAM(_sav), \
							   SIDE_PARAM(_var), ##_attr); \
	} while (0)

#define side_event_variadic(_identifier, _sav, _var, _attr...) \
	do { \
		if (side_event_enabled(_identifier)) \
			side_event_call_variadic(_identifier, SIDE_PARAM(_sav), SIDE_PARAM(_var), \
						 ##_attr); \
	} while (0)

/*
 * Defining an event. The state holds the enable word; it must sit in
 * initialized, writable, file-backed data (never .bss) because the kernel
 * updates the semaphore through the file mapping, and in section .probes
 * because bcc and bpftrace look for USDT semaphores only there.
 *
 * Linkage by kind (static, hidden, export): the description as libside
 * gives it; the state is static for static events and hidden otherwise,
 * so that calls in other files of the same object reach it with one
 * instruction-relative load. In C++, a static event lives in an unnamed
 * namespace (C++ cannot declare a static object before defining it), and
 * the others have C linkage, as in libside.
 */
#ifdef __cplusplus
#define _SIDE_FWD_static extern
#define _SIDE_DEF_static
#define _SIDE_STATE_static
#define _SIDE_OPEN_static \
	namespace \
	{
#define _SIDE_CLOSE_static }
#define _SIDE_OPEN_C extern "C" {
#define _SIDE_CLOSE_C }
#else
#define _SIDE_FWD_static static
#define _SIDE_DEF_static static
#define _SIDE_STATE_static static
#define _SIDE_OPEN_static
#define _SIDE_CLOSE_static
#define _SIDE_OPEN_C
#define _SIDE_CLOSE_C
#endif
#define _SIDE_HIDDEN __attribute__((visibility("hidden")))
#define _SIDE_FWD_hidden extern _SIDE_HIDDEN
#define _SIDE_DEF_hidden _SIDE_HIDDEN
#define _SIDE_STATE_hidden _SIDE_HIDDEN
#define _SIDE_OPEN_hidden _SIDE_OPEN_C
#define _SIDE_CLOSE_hidden _SIDE_CLOSE_C
#define _SIDE_FWD_export extern __attribute__((visibility("default")))
#define _SIDE_DEF_export __attribute__((visibility("default")))
#define _SIDE_STATE_export _SIDE_HIDDEN
#define _SIDE_OPEN_export _SIDE_OPEN_C
#define _SIDE_CLOSE_export _SIDE_CLOSE_C
/* Other files name the event's symbols: static events have none for them. */
#define _SIDE_GLOBAL_static 0
#define _SIDE_GLOBAL_hidden 1
#define _SIDE_GLOBAL_export 1
/* C++ declares the checks' overloads outside the unnamed namespace or C block. */
#ifdef __cplusplus
#define _SIDE_SC_IN_C(...)
#define _SIDE_SC_IN_CXX(...) __VA_ARGS__
#else
#define _SIDE_SC_IN_C(...) __VA_ARGS__
#define _SIDE_SC_IN_CXX(...)
#endif

/*
 * clang warns when a section attribute comes with a redeclaration, as it
 * does after side_declare_event() or the forward declaration below.
 */
#define _SIDE_SECTION_REDECLARED_BEGIN \
	_Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wpragmas\"") \
		_Pragma("GCC diagnostic ignored \"-Wsection\"")
#define _SIDE_SECTION_REDECLARED_END _Pragma("GCC diagnostic pop")

/* side_empty_callback as the type the state stores, without a cast. */
#pragma GCC visibility push(default)
_SIDE_OPEN_C
extern const struct side_callback side_empty_callback_ __asm__("side_empty_callback");
_SIDE_CLOSE_C
#pragma GCC visibility pop

#define _side_define_event(_kind, _identifier, _provider, _event, _loglevel, _fields, _flags, \
			   _variadic, _attr...) \
	_SIDE_OPEN_##_kind static const struct side_event_field \
		side_event_fields__##_identifier[] = {SIDE_SC_FIELD_INITS _fields}; \
	side_sdt_define_names(_identifier, _SIDE_GLOBAL_##_kind, _provider, _event, \
			      SIDE_ARRAY_SIZE(side_event_fields__##_identifier), \
			      SIDE_SC_COUNT1 _fields, _variadic); \
	_SIDE_SECTION_REDECLARED_BEGIN \
	_SIDE_FWD_##_kind struct side_event_description \
		__attribute__((section("side_event_description"))) _identifier; \
	_SIDE_STATE_##_kind struct side_event_state_0 __attribute__((section(".probes"), used)) \
	side_event_state__##_identifier = { \
		.parent = {.version = SIDE_EVENT_STATE_ABI_VERSION}, \
		.nr_callbacks = 0, \
		.enabled = 0, \
		.callbacks = &side_empty_callback_, \
		.desc = &(_identifier), \
	}; \
	_SIDE_DEF_##_kind struct side_event_description \
		__attribute__((section("side_event_description"))) _identifier = { \
			.side_begin_abi_tag_0 = {}, \
			.struct_size = offsetof(struct side_event_description, end), \
			.version = SIDE_EVENT_DESCRIPTION_ABI_VERSION, \
			.state = SIDE_PTR_INIT(&side_event_state__##_identifier.parent), \
			.provider_name = SIDE_PTR_INIT(_provider), \
			.event_name = SIDE_PTR_INIT(_event), \
			.fields = {.elements = SIDE_PTR_INIT(side_event_fields__##_identifier), \
				   .length = SIDE_ARRAY_SIZE(side_event_fields__##_identifier)}, \
			.attributes = _side_attr_or_none(_, ##_attr), \
			.flags = (_flags), \
			.nr_side_type_label = _NR_SIDE_TYPE_LABEL, \
			.nr_side_attr_type = _NR_SIDE_ATTR_TYPE, \
			.loglevel = SIDE_ENUM_INIT(_loglevel), \
			.side_end_abi_tag_0 = {}, \
			.end = {}, \
	}; \
	_SIDE_SECTION_REDECLARED_END \
	static const struct side_event_description \
		__attribute__((section("side_event_description_ptr"), \
			       used)) *side_event_ptr__##_identifier = &(_identifier); \
	_SIDE_SC_IN_C(SIDE_SC_DEFINE_EVENT(_identifier, \
					   SIDE_ARRAY_SIZE(side_event_fields__##_identifier), \
					   _variadic, SIDE_SC_UNPAREN _fields);) \
	_SIDE_CLOSE_##_kind _SIDE_SC_IN_CXX( \
		SIDE_SC_DEFINE_EVENT(_identifier, \
				     SIDE_ARRAY_SIZE(side_event_fields__##_identifier), _variadic, \
				     SIDE_SC_UNPAREN _fields);) SIDE_SC_CHECK_FIELDS _fields

#define side_static_event(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(static, _identifier, _provider, _event, _loglevel, _fields, 0, 0, \
			   ##_attr)
#define side_static_event_variadic(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(static, _identifier, _provider, _event, _loglevel, _fields, \
			   SIDE_EVENT_FLAG_VARIADIC, 1, ##_attr)
#define side_hidden_event(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(hidden, _identifier, _provider, _event, _loglevel, _fields, 0, 0, \
			   ##_attr)
#define side_hidden_event_variadic(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(hidden, _identifier, _provider, _event, _loglevel, _fields, \
			   SIDE_EVENT_FLAG_VARIADIC, 1, ##_attr)
#define side_export_event(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(export, _identifier, _provider, _event, _loglevel, _fields, 0, 0, \
			   ##_attr)
#define side_export_event_variadic(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(export, _identifier, _provider, _event, _loglevel, _fields, \
			   SIDE_EVENT_FLAG_VARIADIC, 1, ##_attr)

/*
 * Declaring an event defined in another file of the same object (a hidden
 * or export event), so that this file can call it: side_declare_event() in
 * a header, the definition in one file, side_event() anywhere.
 */
#define side_declare_event(_identifier) \
	_SIDE_OPEN_C extern _SIDE_HIDDEN struct side_event_state_0 \
		side_event_state__##_identifier; \
	extern struct side_event_description _identifier; \
	_SIDE_CLOSE_C SIDE_SC_DECLARE_EVENT(_identifier)

/*
 * Registration: each object (executable or shared library) registers the
 * events of its own side_event_description_ptr section with the runtime
 * when it is loaded, so dlopen()ed libraries are seen too.
 */
extern struct side_event_description *__start_side_event_description_ptr[]
	__attribute__((weak, visibility("hidden")));
extern struct side_event_description *__stop_side_event_description_ptr[]
	__attribute__((weak, visibility("hidden")));
extern const struct side_probe_site __start_side_probe_sites[]
	__attribute__((weak, visibility("hidden")));
extern const struct side_probe_site __stop_side_probe_sites[]
	__attribute__((weak, visibility("hidden")));
int side_event_description_ptr_registered __attribute__((weak, visibility("hidden")));
struct side_events_register_handle *side_events_handle __attribute__((weak, visibility("hidden")));
struct side_probe_sites_handle *side_probe_sites_handle_
	__attribute__((weak, visibility("hidden")));

static void side_event_description_ptr_init(void) __attribute__((constructor, used));
static void side_event_description_ptr_init(void)
{
	if (side_event_description_ptr_registered++)
		return;
	/* Sites first: a tracer told of the events finds their sites (sites.c). */
	side_probe_sites_handle_ =
		side_probe_sites_register(__start_side_probe_sites, __stop_side_probe_sites);
	side_events_handle = side_events_register(__start_side_event_description_ptr,
						  __stop_side_event_description_ptr -
							  __start_side_event_description_ptr);
}

static void side_event_description_ptr_exit(void) __attribute__((destructor, used));
static void side_event_description_ptr_exit(void)
{
	if (--side_event_description_ptr_registered)
		return;
	side_events_unregister(side_events_handle);
	side_events_handle = NULL;
	side_probe_sites_unregister(side_probe_sites_handle_);
	side_probe_sites_handle_ = NULL;
}

#endif /* SIDE_TRACE_H */
