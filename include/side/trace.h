/* SPDX-License-Identifier: MIT */
/*
 * SIDE instrumentation API: declare typed events, call them. Every call site
 * is also a USDT probe (see side/probe.h) whose semaphore is the event's
 * enable word.
 */
#ifndef SIDE_TRACE_H
#define SIDE_TRACE_H

#include <stdint.h>
#include <stddef.h>
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

struct side_events_register_handle;
struct side_events_register_handle *side_events_register(struct side_event_description **events,
							 uint32_t nr_events);
void side_events_unregister(struct side_events_register_handle *handle);
/* Calls fn for every registered event until it returns non-zero; returns that. */
int side_for_each_event(int (*fn)(struct side_event_description *desc, void *priv), void *priv);

#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

/*
 * Calling an event. Disabled: one load and one branch; the arguments are
 * built only inside the branch.
 */
/*
 * Compare and branch in one asm goto: "cmpq $0, word; jne" (two
 * instructions, no register, no stack write), and, being volatile, never
 * hoisted out of a loop, so an event enabled while a loop runs fires in it.
 */
#define side_event_enabled(_identifier) \
	side_unlikely(({ \
		__label__ side_enabled_; \
		int side_on_ = 0; \
		__asm__ goto("cmpq $0, %0\n\tjne %l[side_enabled_]" \
			     : \
			     : "m"(side_event_state__##_identifier.enabled) \
			     : "cc" \
			     : side_enabled_); \
		if (0) { \
		side_enabled_: \
			side_on_ = 1; \
		} \
		side_on_; \
	}))

/*
 * Argument checks against the declared fields.
 *
 * - Count: a _Static_assert, at every optimization level.
 * - Types and duplicated field names: the optimizer folds the comparison of
 *   the constant field descriptions with the argument labels; a call that
 *   survives folding fails the build with the messages below (gcc and clang,
 *   -O1 and above, first SIDE_CHECK_MAX_FIELDS fields).
 * - Without optimization (-O0) the types are checked once per call site at
 *   run time, the first time the event fires, with a message on stderr
 *   naming the file, line, argument and field (side_check_call()).
 * - Duplicated names of events without call sites, and of nested struct
 *   fields, are reported on stderr when the runtime registers the events.
 */
#define SIDE_CHECK_MAX_FIELDS 16

extern void side_error_argument_type_does_not_match_field(void)
	__attribute__((error("SIDE: an argument's type does not match the type of its field "
			     "(see side_field_list of the event)")));
extern void side_error_duplicated_field_name(void)
	__attribute__((error("SIDE: two fields of this event have the same name "
			     "(see side_field_list of the event)")));

static inline __attribute__((always_inline)) int side_label_compatible(uint16_t field, uint16_t arg)
{
	if (field == arg)
		return 1;
	if (field == SIDE_TYPE_ENUM || field == SIDE_TYPE_ENUM_BITMAP)
		return (arg >= SIDE_TYPE_U8 && arg <= SIDE_TYPE_S128) || arg == SIDE_TYPE_ARRAY ||
		       arg == SIDE_TYPE_VLA ||
		       /* libside's bitmaps also come as a byte (side_type_byte elements). */
		       (field == SIDE_TYPE_ENUM_BITMAP && arg == SIDE_TYPE_BYTE);
	if (field == SIDE_TYPE_GATHER_ENUM)
		return arg == SIDE_TYPE_GATHER_INTEGER;
	if (field == SIDE_TYPE_DYNAMIC)
		return arg >= SIDE_TYPE_DYNAMIC_NULL;
	return 0;
}

/* The runtime is built with hidden visibility: its API is exported here. */
#pragma GCC visibility push(default)
#ifdef __cplusplus
extern "C" {
#endif
void side_check_call(const struct side_event_description *desc,
		     const struct side_arg_vec *side_arg_vec, const char *file, int line);
#ifdef __cplusplus
}
#endif
#pragma GCC visibility pop

#ifdef __OPTIMIZE__
static inline __attribute__((always_inline)) void
side_check_arg_type(const struct side_event_field *fields, uint32_t nr_fields,
		    const struct side_arg *sav, uint32_t nr_args, uint32_t i)
{
	int ok;

	if (i >= nr_fields || i >= nr_args)
		return;
	/* A call inside __builtin_constant_p() counts as a side effect: never constant. */
	ok = side_label_compatible(fields[i].side_type.type.v, sav[i].type.v);
	if (__builtin_constant_p(ok) && !ok)
		side_error_argument_type_does_not_match_field();
}

/*
 * gcc folds the strcmp, clang the comparison of the merged literals; either
 * one suffices.
 */
static inline __attribute__((always_inline)) void
side_check_name_pair(const struct side_event_field *fields, uint32_t nr_fields, uint32_t i,
		     uint32_t j)
{
	const char *x, *y;

	if (j >= nr_fields)
		return;
	x = side_ptr_get(fields[i].field_name);
	y = side_ptr_get(fields[j].field_name);
	if ((__builtin_constant_p(x == y) && x == y) ||
	    (__builtin_constant_p(__builtin_strcmp(x, y)) && !__builtin_strcmp(x, y)))
		side_error_duplicated_field_name();
}

static inline __attribute__((always_inline)) void
side_check_names(const struct side_event_field *fields, uint32_t nr_fields)
{
	/* Unrolled by hand: folding must not depend on the loop unroller. */
#define _SIDE_PAIRS(i) \
	side_check_name_pair(fields, nr_fields, i, i + 1); \
	side_check_name_pair(fields, nr_fields, i, i + 2); \
	side_check_name_pair(fields, nr_fields, i, i + 3); \
	side_check_name_pair(fields, nr_fields, i, i + 4); \
	side_check_name_pair(fields, nr_fields, i, i + 5); \
	side_check_name_pair(fields, nr_fields, i, i + 6); \
	side_check_name_pair(fields, nr_fields, i, i + 7); \
	side_check_name_pair(fields, nr_fields, i, i + 8); \
	side_check_name_pair(fields, nr_fields, i, i + 9); \
	side_check_name_pair(fields, nr_fields, i, i + 10); \
	side_check_name_pair(fields, nr_fields, i, i + 11); \
	side_check_name_pair(fields, nr_fields, i, i + 12); \
	side_check_name_pair(fields, nr_fields, i, i + 13); \
	side_check_name_pair(fields, nr_fields, i, i + 14); \
	side_check_name_pair(fields, nr_fields, i, i + 15)
	_SIDE_PAIRS(0);
	_SIDE_PAIRS(1);
	_SIDE_PAIRS(2);
	_SIDE_PAIRS(3);
	_SIDE_PAIRS(4);
	_SIDE_PAIRS(5);
	_SIDE_PAIRS(6);
	_SIDE_PAIRS(7);
	_SIDE_PAIRS(8);
	_SIDE_PAIRS(9);
	_SIDE_PAIRS(10);
	_SIDE_PAIRS(11);
	_SIDE_PAIRS(12);
	_SIDE_PAIRS(13);
	_SIDE_PAIRS(14);
#undef _SIDE_PAIRS
}

static inline __attribute__((always_inline)) void
side_check_types(const struct side_event_field *fields, uint32_t nr_fields,
		 const struct side_arg *sav, uint32_t nr_args)
{
	side_check_arg_type(fields, nr_fields, sav, nr_args, 0);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 1);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 2);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 3);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 4);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 5);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 6);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 7);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 8);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 9);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 10);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 11);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 12);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 13);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 14);
	side_check_arg_type(fields, nr_fields, sav, nr_args, 15);
}

#define _side_check_args_folded(_identifier, _sav, _vec) \
	do { \
		side_check_types(side_event_fields__##_identifier, \
				 SIDE_ARRAY_SIZE(side_event_fields__##_identifier), _sav, \
				 SIDE_ARRAY_SIZE(_sav)); \
		side_check_names(side_event_fields__##_identifier, \
				 SIDE_ARRAY_SIZE(side_event_fields__##_identifier)); \
	} while (0)
#else
#define _side_check_args_folded(_identifier, _sav, _vec) \
	do { \
		static int side_checked_; \
		if (!__atomic_exchange_n(&side_checked_, 1, __ATOMIC_RELAXED)) \
			side_check_call(&(_identifier), _vec, __FILE__, __LINE__); \
	} while (0)
#endif

#define _side_check_args(_identifier, _sav, _vec) \
	do { \
		_Static_assert(SIDE_ARRAY_SIZE(_sav) == \
				       SIDE_ARRAY_SIZE(side_event_fields__##_identifier), \
			       "SIDE: the number of arguments of this event call differs from " \
			       "the number of fields declared for the event"); \
		_side_check_args_folded(_identifier, _sav, _vec); \
	} while (0)

/*
 * The USDT probe fires for kernel tracers; side_call() runs the in-process
 * tracers. The call also keeps the enclosing function out of leaf status,
 * which the 5-byte probe instruction needs (side/probe.h).
 */
/* The call's arguments and their vector, on the caller's stack. */
#define _side_define_arg_vec(...) \
	const struct side_arg side_sav[] = {__VA_ARGS__}; \
	const struct side_arg_vec side_arg_vec = { \
		.sav = SIDE_PTR_INIT(side_sav), \
		.len = SIDE_ARRAY_SIZE(side_sav), \
	}

#define side_event_call(_identifier, _sav) \
	do { \
		_side_define_arg_vec(SIDE_PARAM(_sav)); \
		_side_check_args(_identifier, side_sav, &side_arg_vec); \
		side_sdt_probe(_identifier, &side_event_state__##_identifier.enabled, side_sav, \
			       &(_identifier), &side_arg_vec); \
		side_call(&side_event_state__##_identifier.parent, &side_arg_vec); \
	} while (0)

#define side_event(_identifier, _sav) \
	do { \
		if (side_event_enabled(_identifier)) \
			side_event_call(_identifier, SIDE_PARAM(_sav)); \
	} while (0)

#define side_event_call_variadic(_identifier, _sav, _var_fields, _attr...) \
	do { \
		_side_define_arg_vec(SIDE_PARAM(_sav)); \
		const struct side_arg_dynamic_field side_fields[] = {_var_fields}; \
		const struct side_arg_dynamic_struct var_struct = { \
			.fields = SIDE_PTR_INIT(side_fields), \
			.len = SIDE_ARRAY_SIZE(side_fields), \
			.attributes = _side_attr_or_none(_, ##_attr), \
		}; \
		_side_check_args(_identifier, side_sav, &side_arg_vec); \
		side_sdt_probe_variadic(_identifier, &side_event_state__##_identifier.enabled, \
					side_sav, &(_identifier), &side_arg_vec, &var_struct); \
		side_call_variadic(&side_event_state__##_identifier.parent, &side_arg_vec, \
				   &var_struct); \
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
 */
#define _side_define_event(_linkage, _identifier, _provider, _event, _loglevel, _fields, _flags, \
			   _attr...) \
	_side_sdt_define_names(_identifier, _provider, _event); \
	static const struct side_event_field side_event_fields__##_identifier[] = _fields; \
	_linkage struct side_event_description __attribute__((section("side_event_description"))) \
	_identifier; \
	static struct side_event_state_0 __attribute__((section(".probes"), used)) \
	side_event_state__##_identifier = { \
		.parent = {.version = SIDE_EVENT_STATE_ABI_VERSION}, \
		.nr_callbacks = 0, \
		.enabled = 0, \
		.callbacks = (const struct side_callback *)&side_empty_callback[0], \
		.desc = &(_identifier), \
	}; \
	_linkage struct side_event_description __attribute__((section("side_event_description"))) \
	_identifier = { \
		.struct_size = offsetof(struct side_event_description, end), \
		.version = SIDE_EVENT_DESCRIPTION_ABI_VERSION, \
		.state = SIDE_PTR_INIT(&side_event_state__##_identifier.parent), \
		.provider_name = SIDE_PTR_INIT(_provider), \
		.event_name = SIDE_PTR_INIT(_event), \
		.fields = \
			{ \
				.elements = SIDE_PTR_INIT(side_event_fields__##_identifier), \
				.length = SIDE_ARRAY_SIZE(side_event_fields__##_identifier), \
			}, \
		.attributes = _side_attr_or_none(_, ##_attr), \
		.flags = (_flags), \
		.nr_side_type_label = _NR_SIDE_TYPE_LABEL, \
		.nr_side_attr_type = _NR_SIDE_ATTR_TYPE, \
		.loglevel = SIDE_ENUM_INIT(_loglevel), \
	}; \
	static const struct side_event_description \
		__attribute__((section("side_event_description_ptr"), \
			       used)) *side_event_ptr__##_identifier = &(_identifier)

#define side_static_event(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(static, _identifier, _provider, _event, _loglevel, SIDE_PARAM(_fields), \
			   0, ##_attr)
#define side_static_event_variadic(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(static, _identifier, _provider, _event, _loglevel, SIDE_PARAM(_fields), \
			   SIDE_EVENT_FLAG_VARIADIC, ##_attr)
#define side_hidden_event(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(__attribute__((visibility("hidden"))), _identifier, _provider, _event, \
			   _loglevel, SIDE_PARAM(_fields), 0, ##_attr)
#define side_hidden_event_variadic(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(__attribute__((visibility("hidden"))), _identifier, _provider, _event, \
			   _loglevel, SIDE_PARAM(_fields), SIDE_EVENT_FLAG_VARIADIC, ##_attr)
#define side_export_event(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(__attribute__((visibility("default"))), _identifier, _provider, _event, \
			   _loglevel, SIDE_PARAM(_fields), 0, ##_attr)
#define side_export_event_variadic(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(__attribute__((visibility("default"))), _identifier, _provider, _event, \
			   _loglevel, SIDE_PARAM(_fields), SIDE_EVENT_FLAG_VARIADIC, ##_attr)
#define side_declare_event(_identifier) extern struct side_event_description _identifier

/*
 * Registration: each object (executable or shared library) registers the
 * events of its own side_event_description_ptr section with the runtime
 * when it is loaded, so dlopen()ed libraries are seen too.
 */
extern struct side_event_description *__start_side_event_description_ptr[]
	__attribute__((weak, visibility("hidden")));
extern struct side_event_description *__stop_side_event_description_ptr[]
	__attribute__((weak, visibility("hidden")));
int side_event_description_ptr_registered __attribute__((weak, visibility("hidden")));
struct side_events_register_handle *side_events_handle __attribute__((weak, visibility("hidden")));

static void side_event_description_ptr_init(void) __attribute__((constructor, used));
static void side_event_description_ptr_init(void)
{
	if (side_event_description_ptr_registered++)
		return;
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
}

#endif /* SIDE_TRACE_H */
