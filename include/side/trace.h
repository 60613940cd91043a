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
	uint32_t version;	/* SIDE_EVENT_STATE_ABI_VERSION */
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

#ifdef __cplusplus
extern "C" {
#endif

extern const char side_empty_callback[];

void side_call(const struct side_event_state *state,
	       const struct side_arg_vec *side_arg_vec);
void side_call_variadic(const struct side_event_state *state,
			const struct side_arg_vec *side_arg_vec,
			const struct side_arg_dynamic_struct *var_struct);

struct side_events_register_handle;
struct side_events_register_handle *
side_events_register(struct side_event_description **events, uint32_t nr_events);
void side_events_unregister(struct side_events_register_handle *handle);

#ifdef __cplusplus
}
#endif

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
 * Argument checks against the declared fields. The count is checked by the
 * compiler in every build; types where the optimizer can see both sides
 * (a call that survives folding fails the build with the message below).
 */
extern void side_error_argument_type_does_not_match_field(void)
	__attribute__((error("SIDE: an argument's type does not match the type of its field "
			     "(see side_field_list of the event)")));

static inline __attribute__((always_inline)) int
side_label_compatible(uint16_t field, uint16_t arg)
{
	if (field == arg)
		return 1;
	if (field == SIDE_TYPE_ENUM || field == SIDE_TYPE_ENUM_BITMAP)
		return (arg >= SIDE_TYPE_U8 && arg <= SIDE_TYPE_S128) ||
		       arg == SIDE_TYPE_ARRAY || arg == SIDE_TYPE_VLA;
	if (field == SIDE_TYPE_DYNAMIC)
		return arg >= SIDE_TYPE_DYNAMIC_NULL;
	return 0;
}

#ifdef __OPTIMIZE__
#define _side_check_arg_type(_identifier, _sav, i) \
	do { \
		if ((i) < SIDE_ARRAY_SIZE(_sav) && \
		    (i) < SIDE_ARRAY_SIZE(side_event_fields__##_identifier)) { \
			const uint16_t f_ = side_event_fields__##_identifier \
				[(i) < SIDE_ARRAY_SIZE(side_event_fields__##_identifier) ? (i) : 0] \
				.side_type.type.v; \
			const uint16_t a_ = (_sav)[(i) < SIDE_ARRAY_SIZE(_sav) ? (i) : 0].type.v; \
			if (__builtin_constant_p(side_label_compatible(f_, a_)) && \
			    !side_label_compatible(f_, a_)) \
				side_error_argument_type_does_not_match_field(); \
		} \
	} while (0)
#else
#define _side_check_arg_type(_identifier, _sav, i) do { } while (0)
#endif

#define _side_check_args(_identifier, _sav) \
	do { \
		_Static_assert(SIDE_ARRAY_SIZE(_sav) == \
				       SIDE_ARRAY_SIZE(side_event_fields__##_identifier), \
			       "SIDE: the number of arguments of this event call differs from " \
			       "the number of fields declared for the event"); \
		_side_check_arg_type(_identifier, _sav, 0); \
		_side_check_arg_type(_identifier, _sav, 1); \
		_side_check_arg_type(_identifier, _sav, 2); \
		_side_check_arg_type(_identifier, _sav, 3); \
		_side_check_arg_type(_identifier, _sav, 4); \
		_side_check_arg_type(_identifier, _sav, 5); \
		_side_check_arg_type(_identifier, _sav, 6); \
		_side_check_arg_type(_identifier, _sav, 7); \
		_side_check_arg_type(_identifier, _sav, 8); \
		_side_check_arg_type(_identifier, _sav, 9); \
		_side_check_arg_type(_identifier, _sav, 10); \
		_side_check_arg_type(_identifier, _sav, 11); \
		_side_check_arg_type(_identifier, _sav, 12); \
		_side_check_arg_type(_identifier, _sav, 13); \
		_side_check_arg_type(_identifier, _sav, 14); \
		_side_check_arg_type(_identifier, _sav, 15); \
	} while (0)

/*
 * The USDT probe fires for kernel tracers; side_call() runs the in-process
 * tracers. The call also keeps the enclosing function out of leaf status,
 * which the 5-byte probe instruction needs (side/probe.h).
 */
#define side_event_call(_identifier, _sav) \
	do { \
		const struct side_arg side_sav[] = { _sav }; \
		const struct side_arg_vec side_arg_vec = { \
			.sav = SIDE_PTR_INIT(side_sav), \
			.len = SIDE_ARRAY_SIZE(side_sav), \
		}; \
		_side_check_args(_identifier, side_sav); \
		side_sdt_probe(_identifier, &side_event_state__##_identifier.enabled, \
			       side_sav, &(_identifier), &side_arg_vec); \
		side_call(&side_event_state__##_identifier.parent, &side_arg_vec); \
	} while (0)

#define side_event(_identifier, _sav) \
	do { \
		if (side_event_enabled(_identifier)) \
			side_event_call(_identifier, SIDE_PARAM(_sav)); \
	} while (0)

#define side_event_call_variadic(_identifier, _sav, _var_fields, _attr...) \
	do { \
		const struct side_arg side_sav[] = { _sav }; \
		const struct side_arg_vec side_arg_vec = { \
			.sav = SIDE_PTR_INIT(side_sav), \
			.len = SIDE_ARRAY_SIZE(side_sav), \
		}; \
		const struct side_arg_dynamic_field side_fields[] = { _var_fields }; \
		const struct side_arg_dynamic_struct var_struct = { \
			.fields = SIDE_PTR_INIT(side_fields), \
			.len = SIDE_ARRAY_SIZE(side_fields), \
			.attributes = _side_attr_or_none(_, ##_attr), \
		}; \
		_side_check_args(_identifier, side_sav); \
		side_sdt_probe_variadic(_identifier, \
					&side_event_state__##_identifier.enabled, side_sav, \
					&(_identifier), &side_arg_vec, &var_struct); \
		side_call_variadic(&side_event_state__##_identifier.parent, &side_arg_vec, \
				   &var_struct); \
	} while (0)

#define side_event_variadic(_identifier, _sav, _var, _attr...) \
	do { \
		if (side_event_enabled(_identifier)) \
			side_event_call_variadic(_identifier, SIDE_PARAM(_sav), \
						 SIDE_PARAM(_var), ##_attr); \
	} while (0)

/*
 * Defining an event. The state holds the enable word; it must sit in
 * initialized, writable, file-backed data (never .bss) because the kernel
 * updates the semaphore through the file mapping, and in section .probes
 * because bcc and bpftrace look for USDT semaphores only there.
 */
#define _side_define_event(_linkage, _identifier, _provider, _event, _loglevel, _fields, \
			   _flags, _attr...) \
	_side_sdt_define_names(_identifier, _provider, _event); \
	static const struct side_event_field side_event_fields__##_identifier[] = _fields; \
	_linkage struct side_event_description \
		__attribute__((section("side_event_description"))) _identifier; \
	static struct side_event_state_0 \
		__attribute__((section(".probes"), used)) \
		side_event_state__##_identifier = { \
		.parent = { .version = SIDE_EVENT_STATE_ABI_VERSION }, \
		.nr_callbacks = 0, \
		.enabled = 0, \
		.callbacks = (const struct side_callback *)&side_empty_callback[0], \
		.desc = &(_identifier), \
	}; \
	_linkage struct side_event_description \
		__attribute__((section("side_event_description"))) _identifier = { \
		.struct_size = offsetof(struct side_event_description, end), \
		.version = SIDE_EVENT_DESCRIPTION_ABI_VERSION, \
		.state = SIDE_PTR_INIT(&side_event_state__##_identifier.parent), \
		.provider_name = SIDE_PTR_INIT(_provider), \
		.event_name = SIDE_PTR_INIT(_event), \
		.fields = { \
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
		__attribute__((section("side_event_description_ptr"), used)) \
		*side_event_ptr__##_identifier = &(_identifier)

#define side_static_event(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(static, _identifier, _provider, _event, _loglevel, \
			   SIDE_PARAM(_fields), 0, ##_attr)
#define side_static_event_variadic(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(static, _identifier, _provider, _event, _loglevel, \
			   SIDE_PARAM(_fields), SIDE_EVENT_FLAG_VARIADIC, ##_attr)
#define side_hidden_event(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(__attribute__((visibility("hidden"))), _identifier, _provider, \
			   _event, _loglevel, SIDE_PARAM(_fields), 0, ##_attr)
#define side_hidden_event_variadic(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(__attribute__((visibility("hidden"))), _identifier, _provider, \
			   _event, _loglevel, SIDE_PARAM(_fields), SIDE_EVENT_FLAG_VARIADIC, ##_attr)
#define side_export_event(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(__attribute__((visibility("default"))), _identifier, _provider, \
			   _event, _loglevel, SIDE_PARAM(_fields), 0, ##_attr)
#define side_export_event_variadic(_identifier, _provider, _event, _loglevel, _fields, _attr...) \
	_side_define_event(__attribute__((visibility("default"))), _identifier, _provider, \
			   _event, _loglevel, SIDE_PARAM(_fields), SIDE_EVENT_FLAG_VARIADIC, ##_attr)
#define side_declare_event(_identifier) \
	extern struct side_event_description _identifier

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
struct side_events_register_handle *side_events_handle
	__attribute__((weak, visibility("hidden")));

static void side_event_description_ptr_init(void) __attribute__((constructor, used));
static void side_event_description_ptr_init(void)
{
	if (side_event_description_ptr_registered++)
		return;
	side_events_handle = side_events_register(
		__start_side_event_description_ptr,
		__stop_side_event_description_ptr - __start_side_event_description_ptr);
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
