/* SPDX-License-Identifier: MIT */
/*
 * Compile-time checks of the instrumentation, at every optimization level,
 * in C and in C++. Included by side/types.h.
 *
 * Every type, field and argument form of the API expands to a
 * parenthesized tuple whose first element names a "tag", a C type that
 * stands for the SIDE type (struct side_sc_u32, an optional of
 * struct side_sc_string, ...):
 *
 *   side_type_X(...)   (TAG, {initializer of struct side_type})
 *   side_elem(T)       (TAG, pointer to a struct side_type)
 *   side_field_X(...)  (TAG, NAME, {initializer of struct side_event_field})
 *   side_arg_X(...)    ((void)sizeof(TAG), (const struct side_arg){...})
 *
 * The forms that consume lists (side_field_list users, event calls,
 * argument vectors) walk them with side/pp.h, emit the initializers and
 * check the tags: an event's fields become the parameter types of a
 * function declaration that every call site compares with its own
 * argument tags. Argument tuples are also plain C expressions (a comma
 * expression whose value is the argument), so an argument form written on
 * its own, "struct side_arg a = side_arg_u32(1);", keeps working.
 *
 * Defining SIDE_STATIC_CHECK_DISABLE (empty or 1) before a form turns its
 * checks off; SIDE_STATIC_CHECK_DISABLE_DUPLICATED_FIELDS turns off only
 * the duplicated-name check, whose cost grows with the square of the
 * number of fields. Both may be defined and undefined around single forms.
 */
#ifndef SIDE_STATIC_CHECK_H
#define SIDE_STATIC_CHECK_H

#include <side/macros.h>
#include <side/pp.h>

/* Tags: one complete, distinct type per SIDE type an argument can carry. */
#define _SIDE_SC_TAGS(X) \
	X(null) \
	X(bool) \
	X(byte) \
	X(string) \
	X(string16) \
	X(string32) \
	X(u8) \
	X(u16) \
	X(u32) \
	X(u64) \
	X(u128) \
	X(s8) \
	X(s16) \
	X(s32) \
	X(s64) \
	X(s128) \
	X(pointer) \
	X(float16) \
	X(float32) \
	X(float64) \
	X(float128) \
	X(struct) \
	X(array) \
	X(vla) \
	X(vla_visitor) \
	X(variant) \
	X(dynamic) \
	X(gather_bool) \
	X(gather_byte) \
	X(gather_integer) \
	X(gather_pointer) \
	X(gather_float) \
	X(gather_string) \
	X(gather_struct) \
	X(gather_array) \
	X(gather_vla) \
	X(raw) \
	X(begin) \
	X(variadic) \
	X(optional)
#define _SIDE_SC_DEFINE_TAG(_kind) \
	struct side_sc_##_kind { \
		char c; \
	};
_SIDE_SC_TAGS(_SIDE_SC_DEFINE_TAG)
#undef _SIDE_SC_DEFINE_TAG

#define SIDE_SC_TAG(_kind) struct side_sc_##_kind
/* An optional carries its element's tag. */
#ifdef __cplusplus
template <typename T> struct side_sc_optional_of {
};
#define SIDE_SC_TAG_OPTIONAL(...) side_sc_optional_of<__VA_ARGS__>
#else
#define SIDE_SC_TAG_OPTIONAL(...) struct side_sc_optional (*)(__VA_ARGS__)
#endif

/* Tuple helpers. */
#define SIDE_SC_EAT(...)
#define SIDE_SC_UNPAREN(...) __VA_ARGS__
#define SIDE_SC_CALL(_macro, ...) _macro(__VA_ARGS__)
#define SIDE_SC_CALL2(_macro, ...) _macro(__VA_ARGS__)
#define SIDE_SC_SKIP1(_first, ...) __VA_ARGS__
#define SIDE_SC_FIRST(_first, ...) _first

/*
 * Is _x a parenthesized group; is it empty (meaningful only when it is no
 * parenthesized group): 1 or 0.
 */
#define _SIDE_SC_SECOND(_a, _b, ...) _b
#define _SIDE_SC_IS_PROBE(...) _SIDE_SC_SECOND(__VA_ARGS__, 0, )
#define _SIDE_SC_PAREN_PROBE(...) ~, 1,
#define SIDE_SC_IS_PAREN(_x) _SIDE_SC_IS_PROBE(_SIDE_SC_PAREN_PROBE _x)
#define _SIDE_SC_EMPTY_PROBE(...) ()
#define SIDE_SC_IS_EMPTY(_x) SIDE_SC_IS_PAREN(_SIDE_SC_EMPTY_PROBE _x())

/* A list item that is not empty: a tuple, or anything else that is not blank. */
#define SIDE_SC_IS_ITEM(_x) SIDE_PP_CAT(_SIDE_SC_IS_ITEM_, SIDE_SC_IS_PAREN(_x))(_x)
#define _SIDE_SC_IS_ITEM_1(_x) 1
#define _SIDE_SC_IS_ITEM_0(_x) SIDE_PP_CAT(_SIDE_SC_NOT_, SIDE_SC_IS_EMPTY(_x))
#define _SIDE_SC_NOT_1 0
#define _SIDE_SC_NOT_0 1
/* 1 + the number of items of a list, at most 11. */
#define _SIDE_SC_ONE(_x) SIDE_PP_CAT(_SIDE_SC_ONE_, SIDE_SC_IS_ITEM(_x))
#define _SIDE_SC_ONE_1 , ~
#define _SIDE_SC_ONE_0
#define SIDE_SC_COUNT1(...) \
	SIDE_PP_CAT(SIDE_PP_CLAMP11_, SIDE_PP_NARG(~SIDE_PP_MAP(_SIDE_SC_ONE, __VA_ARGS__)))

/*
 * One list item: a tuple goes to _tuple(elements...), a non-empty item
 * that is no tuple (an argument not written with the API, say) to
 * _raw(item), whose tag "raw" matches no field, and an empty item (a
 * trailing comma) disappears.
 */
#define SIDE_SC_ITEM(_x, _tuple, _raw) \
	SIDE_PP_CAT(_SIDE_SC_ITEM_, SIDE_SC_IS_PAREN(_x))(_x, _tuple, _raw)
#define _SIDE_SC_ITEM_1(_x, _tuple, _raw) _tuple _x
#define _SIDE_SC_ITEM_0(_x, _tuple, _raw) SIDE_PP_CAT(_SIDE_SC_RAW_, SIDE_SC_IS_EMPTY(_x))(_x, _raw)
#define _SIDE_SC_RAW_1(_x, _raw)
#define _SIDE_SC_RAW_0(_x, _raw) _raw(_x)

/* Type tuples (side_type_X, side_elem). */
#define SIDE_SC_TYPE(_tag, ...) (_tag, __VA_ARGS__)
#define SIDE_SC_TYPE_TAG(_t) SIDE_SC_FIRST _t
#define SIDE_SC_TYPE_INIT(_t) SIDE_SC_SKIP1 _t
/* An element type: a side_elem() tuple, or a plain pointer to a type. */
#define SIDE_SC_ELEM_TAG(_e) SIDE_PP_CAT(_SIDE_SC_ELEM_TAG_, SIDE_SC_IS_PAREN(_e))(_e)
#define _SIDE_SC_ELEM_TAG_1(_e) SIDE_SC_FIRST _e
#define _SIDE_SC_ELEM_TAG_0(_e) SIDE_SC_TAG(raw)
#define SIDE_SC_ELEM_PTR(_e) SIDE_PP_CAT(_SIDE_SC_ELEM_PTR_, SIDE_SC_IS_PAREN(_e))(_e)
#define _SIDE_SC_ELEM_PTR_1(_e) SIDE_SC_SKIP1 _e
#define _SIDE_SC_ELEM_PTR_0(_e) _e

/* Field tuples (side_field_X). */
#define SIDE_SC_FIELD(_tag, _name, ...) (_tag, _name, __VA_ARGS__)

/* Argument tuples (side_arg_X): valid C expressions too. */
#define SIDE_SC_ARG(_tag, ...) ((void)sizeof(_tag), (const struct side_arg)__VA_ARGS__)
#define _SIDE_SC_UNSIZEOF_sizeof(...) __VA_ARGS__
#define _SIDE_SC_ARG_TAG(_first, ...) SIDE_PP_CAT(_SIDE_SC_UNSIZEOF_, SIDE_SC_EAT _first)
#define _SIDE_SC_ARG_INIT(_first, ...) SIDE_SC_EAT __VA_ARGS__
#define SIDE_SC_ARG_TAG(_a) SIDE_PP_CAT(_SIDE_SC_ARG_TAG_, SIDE_SC_IS_PAREN(_a))(_a)
#define _SIDE_SC_ARG_TAG_1(_a) _SIDE_SC_ARG_TAG _a
#define _SIDE_SC_ARG_TAG_0(_a) SIDE_SC_TAG(raw)
/* The initializer of an argument tuple, or a plain expression as is. */
#define SIDE_SC_ARG_INIT(_a) SIDE_PP_CAT(_SIDE_SC_ARG_INIT_, SIDE_SC_IS_PAREN(_a))(_a)
#define _SIDE_SC_ARG_INIT_1(_a) _SIDE_SC_ARG_INIT _a
#define _SIDE_SC_ARG_INIT_0(_a) _a

/* Lists: the initializers, with a trailing comma each. */
#define _SIDE_SC_FIELD_INIT_T(_tag, _name, ...) __VA_ARGS__,
#define _SIDE_SC_FIELD_INIT_RAW(_x) _x,
#define _SIDE_SC_FIELD_INIT(_x) SIDE_SC_ITEM(_x, _SIDE_SC_FIELD_INIT_T, _SIDE_SC_FIELD_INIT_RAW)
#define SIDE_SC_FIELD_INITS(...) SIDE_PP_MAP(_SIDE_SC_FIELD_INIT, __VA_ARGS__)

#define _SIDE_SC_ARG_INIT_T(_first, ...) SIDE_SC_EAT __VA_ARGS__,
#define _SIDE_SC_ARG_INIT_RAW(_x) _x,
#define _SIDE_SC_ARG_INIT_ITEM(_x) SIDE_SC_ITEM(_x, _SIDE_SC_ARG_INIT_T, _SIDE_SC_ARG_INIT_RAW)
#define SIDE_SC_ARG_INITS(...) SIDE_PP_MAP(_SIDE_SC_ARG_INIT_ITEM, __VA_ARGS__)

/* Lists: ", TAG" per item, for parameter lists. */
#define _SIDE_SC_FIELD_TAG_T(_tag, _name, ...) , _tag
#define _SIDE_SC_FIELD_TAG_RAW(_x) , SIDE_SC_TAG(raw)
#define _SIDE_SC_FIELD_TAG(_x) SIDE_SC_ITEM(_x, _SIDE_SC_FIELD_TAG_T, _SIDE_SC_FIELD_TAG_RAW)
#define SIDE_SC_FIELD_TAGS(...) SIDE_PP_MAP(_SIDE_SC_FIELD_TAG, __VA_ARGS__)

#define _SIDE_SC_ARG_TAG_T(...) , _SIDE_SC_ARG_TAG(__VA_ARGS__)
#define _SIDE_SC_ARG_TAG_RAW(_x) , SIDE_SC_TAG(raw)
#define _SIDE_SC_ARG_TAG_ITEM(_x) SIDE_SC_ITEM(_x, _SIDE_SC_ARG_TAG_T, _SIDE_SC_ARG_TAG_RAW)
#define SIDE_SC_ARG_TAGS(...) SIDE_PP_MAP(_SIDE_SC_ARG_TAG_ITEM, __VA_ARGS__)

/* Lists: ", NAME" per field. */
#define _SIDE_SC_FIELD_NAME_T(_tag, _name, ...) , _name
#define _SIDE_SC_FIELD_NAME_RAW(_x)
#define _SIDE_SC_FIELD_NAME(_x) SIDE_SC_ITEM(_x, _SIDE_SC_FIELD_NAME_T, _SIDE_SC_FIELD_NAME_RAW)
#define SIDE_SC_FIELD_NAMES(...) SIDE_PP_MAP(_SIDE_SC_FIELD_NAME, __VA_ARGS__)

/*
 * Checks on or off: SIDE_STATIC_CHECK_DISABLE defined empty or as 1 is off.
 * The names pasted with it are function-like, so that an empty definition
 * leaves the bare prefix unexpanded until it is called.
 */
#define _SIDE_SC_ON_SIDE_STATIC_CHECK_DISABLE() 1
#define _SIDE_SC_ON_() 0
#define _SIDE_SC_ON_1() 0
#define _SIDE_SC_ON_SIDE_STATIC_CHECK_DISABLE_DUPLICATED_FIELDS() 1
#define SIDE_SC_ON SIDE_PP_CAT(_SIDE_SC_ON_, SIDE_STATIC_CHECK_DISABLE)()
#define _SIDE_SC_DUP_ON SIDE_PP_CAT(_SIDE_SC_ON_, SIDE_STATIC_CHECK_DISABLE_DUPLICATED_FIELDS)()
#define _SIDE_SC_AND_1(_b) _b
#define _SIDE_SC_AND_0(_b) 0
#define SIDE_SC_DUP_ON SIDE_PP_CAT(_SIDE_SC_AND_, SIDE_SC_ON)(_SIDE_SC_DUP_ON)
/* _SIDE_SC_IF(cond)(tokens): tokens when cond is 1. */
#define _SIDE_SC_IF(_cond) SIDE_PP_CAT(_SIDE_SC_IF_, _cond)
#define _SIDE_SC_IF_1(...) __VA_ARGS__
#define _SIDE_SC_IF_0(...)

/*
 * Field names: a non-empty string, and no two alike in one list. In C the
 * name check sees the type of the name (NULL is no string); both compare
 * string literals with __builtin_strcmp, which compilers fold at -O0 too.
 */
#ifdef __cplusplus
constexpr bool side_sc_name_ok(const char *s)
{
	return s && *s;
}

constexpr bool side_sc_streq(const char *a, const char *b)
{
	return !a || !b ? a == b : *a != *b ? false : !*a ? true : side_sc_streq(a + 1, b + 1);
}
#define _SIDE_SC_NAME_OK(_name) side_sc_name_ok(_name)
#define _SIDE_SC_NAMES_DIFFER(_a, _b) (!side_sc_streq(_a, _b))
#else
#define _SIDE_SC_IS_STRING(_name) _Generic((_name), char * : 1, const char * : 1, default : 0)
#define _SIDE_SC_NAME_OK(_name) (_SIDE_SC_IS_STRING(_name) && sizeof(_name) > 1)
/* A NULL name is reported once, by the check above, not again here. */
#define _SIDE_SC_AS_STRING(_name) \
	_Generic((_name), char * : (_name), const char * : (_name), default : "")
#define _SIDE_SC_NAMES_DIFFER(_a, _b) \
	(__builtin_strcmp(_SIDE_SC_AS_STRING(_a), _SIDE_SC_AS_STRING(_b)) != 0)
#endif

#define _SIDE_SC_CHECK_NAME_T(_tag, _name, ...) \
	side_static_assert(_SIDE_SC_NAME_OK(_name), \
			   "SIDE: a field name must be a non-empty string, not NULL or \"\" " \
			   "(null field name)", \
			   side_null_field_name);
#define _SIDE_SC_CHECK_NAME(_x) SIDE_SC_ITEM(_x, _SIDE_SC_CHECK_NAME_T, SIDE_SC_EAT)
#define _SIDE_SC_CHECK_PAIR(_a, _b) \
	side_static_assert(_SIDE_SC_NAMES_DIFFER(_a, _b), \
			   "SIDE: two fields of this list have the same name " \
			   "(duplicated field names; see the side_field_list)", \
			   side_duplicated_field_names);
#define _SIDE_SC_CHECK_DUPS(...) \
	SIDE_SC_CALL(SIDE_PP_PAIRS, _SIDE_SC_CHECK_PAIR, \
		     SIDE_SC_CALL(SIDE_SC_SKIP1, ~SIDE_SC_FIELD_NAMES(__VA_ARGS__)))
/*
 * Declarations checking a field list (given without its parentheses),
 * ending with one that takes the caller's semicolon.
 */
#define SIDE_SC_CHECK_FIELDS(...) \
	_SIDE_SC_IF(SIDE_SC_ON) \
	(SIDE_PP_MAP(_SIDE_SC_CHECK_NAME, __VA_ARGS__)) \
		_SIDE_SC_IF(SIDE_SC_DUP_ON)(_SIDE_SC_CHECK_DUPS(__VA_ARGS__)) \
			SIDE_EXPECT_SEMICOLON()

/* The elements of an array or vla argument vector all have one type. */
#ifdef __cplusplus
template <typename A, typename B> struct side_sc_same {
	enum { value = 0 };
};
template <typename A> struct side_sc_same<A, A> {
	enum { value = 1 };
};
#define _SIDE_SC_SAME_TYPE(_a, _b) side_sc_same<_a, _b>::value
#else
#define _SIDE_SC_SAME_TYPE(_a, _b) __builtin_types_compatible_p(_a, _b)
#endif
#define _SIDE_SC_SAME_AS_T(_first, ...) &&_SIDE_SC_SAME_TYPE(_first, _SIDE_SC_ARG_TAG(__VA_ARGS__))
#define _SIDE_SC_SAME_AS(_first, _x) \
	SIDE_PP_CAT(_SIDE_SC_SAME_AS_, SIDE_SC_IS_PAREN(_x))(_first, _x)
#define _SIDE_SC_SAME_AS_1(_first, _x) SIDE_SC_CALL(_SIDE_SC_SAME_AS_T, _first, SIDE_SC_UNPAREN _x)
#define _SIDE_SC_SAME_AS_0(_first, _x)
#define _SIDE_SC_CHECK_ELEMS(...) \
	side_static_assert( \
		(1 SIDE_PP_MAPC(_SIDE_SC_SAME_AS, SIDE_SC_ARG_TAG(SIDE_SC_FIRST(__VA_ARGS__)), \
				__VA_ARGS__)), \
		"SIDE: the elements of an array or vla argument must all have the " \
		"same type (types incompatible)", \
		side_types_incompatible);
#define SIDE_SC_CHECK_ELEMS(...) \
	_SIDE_SC_IF(SIDE_SC_ON)(_SIDE_SC_CHECK_ELEMS(__VA_ARGS__)) SIDE_EXPECT_SEMICOLON()

/*
 * Event calls against the event's fields. The definition declares
 * functions whose parameter types are the tags of its fields; a call
 * compares its argument tags with them. side_declare_event() declares the
 * same names without parameters, so that a call in a file that cannot see
 * the definition compiles (its argument count is checked at link time,
 * see side/probe.h).
 *
 * C: "void f();" is compatible with any prototype of the same name, and
 * the composite of both is the prototype. C++: overloads; the definition's
 * exact match beats the catch-all "(...)" that both declare.
 */
#define _SIDE_SC_PARAMS(_variadic, ...) \
	SIDE_SC_TAG(begin) __VA_ARGS__ SIDE_PP_CAT(_SIDE_SC_VARIADIC_, _variadic)
#define _SIDE_SC_VARIADIC_0
#define _SIDE_SC_VARIADIC_1 , SIDE_SC_TAG(variadic)
#define _SIDE_SC_MSG_COUNT \
	"SIDE: the number of arguments of this event call differs from the number of " \
	"fields declared for the event (see its side_field_list)"
#define _SIDE_SC_MSG_TYPES \
	"SIDE: the type of an argument does not match the type of its field, or the call " \
	"is variadic and the event is not, or the reverse (see the side_field_list of the " \
	"event)"

#ifdef __cplusplus
struct side_sc_yes {
	enum { value = 1 };
};
struct side_sc_no {
	enum { value = 0 };
};
template <typename T> T side_sc_value();

#define _SIDE_SC_DECLARE_EVENT(_identifier) \
	side_sc_no side_sc_def__##_identifier(...); \
	side_sc_no side_sc_nf__##_identifier(...); \
	side_sc_no side_sc_sig__##_identifier(...)
#define _SIDE_SC_DEFINE_EVENT(_identifier, _nr, _variadic, ...) \
	_SIDE_SC_DECLARE_EVENT(_identifier); \
	side_sc_yes side_sc_def__##_identifier(int); \
	side_sc_yes side_sc_nf__##_identifier(char(*)[(_nr) + 1]); \
	side_sc_yes side_sc_sig__##_identifier(_SIDE_SC_PARAMS(_variadic, __VA_ARGS__))
#define _SIDE_SC_UNDEFINED(_identifier) (!decltype(side_sc_def__##_identifier(0))::value)
#define _SIDE_SC_COUNT_OK(_identifier, _nr) \
	decltype(side_sc_nf__##_identifier((char(*)[(_nr) + 1])0))::value
#define _SIDE_SC_VALUE(_tag) , side_sc_value<_tag>()
#define _SIDE_SC_VALUES(...) SIDE_SC_CALL2(SIDE_SC_SKIP1, ~SIDE_PP_MAP(_SIDE_SC_VALUE, __VA_ARGS__))
#define _SIDE_SC_TYPES_OK(_identifier, _variadic, ...) \
	decltype(side_sc_sig__##_identifier( \
		SIDE_SC_CALL(_SIDE_SC_VALUES, _SIDE_SC_PARAMS(_variadic, __VA_ARGS__))))::value
#else
/* clang-format off */
#define _SIDE_SC_DECLARE_EVENT(_identifier) \
	_Pragma("GCC diagnostic push") \
	_Pragma("GCC diagnostic ignored \"-Wpragmas\"") \
	_Pragma("GCC diagnostic ignored \"-Wunknown-warning-option\"") \
	_Pragma("GCC diagnostic ignored \"-Wstrict-prototypes\"") \
	_Pragma("GCC diagnostic ignored \"-Wdeprecated-non-prototype\"") \
	extern void side_sc_sig__##_identifier(); \
	extern const char side_sc_nf__##_identifier[]; \
	_Pragma("GCC diagnostic pop")
/* clang-format on */
#define _SIDE_SC_DEFINE_EVENT(_identifier, _nr, _variadic, ...) \
	extern void side_sc_sig__##_identifier(_SIDE_SC_PARAMS(_variadic, __VA_ARGS__)); \
	extern const char side_sc_nf__##_identifier[(_nr) + 1]
#define _SIDE_SC_UNDEFINED(_identifier) 0
#define _SIDE_SC_COUNT_OK(_identifier, _nr) \
	__builtin_types_compatible_p(__typeof__(side_sc_nf__##_identifier), const char[(_nr) + 1])
#define _SIDE_SC_TYPES_OK(_identifier, _variadic, ...) \
	__builtin_types_compatible_p(__typeof__(side_sc_sig__##_identifier), \
				     void(_SIDE_SC_PARAMS(_variadic, __VA_ARGS__)))
#endif

/* At the definition: the declarations a call compares with. */
#define SIDE_SC_DEFINE_EVENT(_identifier, _nr, _variadic, ...) \
	_SIDE_SC_DEFINE_EVENT(_identifier, _nr, _variadic, SIDE_SC_FIELD_TAGS(__VA_ARGS__))
#define SIDE_SC_DECLARE_EVENT(_identifier) _SIDE_SC_DECLARE_EVENT(_identifier)

/*
 * At a call: _nr arguments (an integer constant), the argument list after
 * them. The type check only speaks when the count is right.
 */
#define _SIDE_SC_CHECK_CALL(_identifier, _nr, _variadic, ...) \
	side_static_assert(_SIDE_SC_UNDEFINED(_identifier) || _SIDE_SC_COUNT_OK(_identifier, _nr), \
			   _SIDE_SC_MSG_COUNT, side_event_call_mismatch); \
	side_static_assert(_SIDE_SC_UNDEFINED(_identifier) || \
				   !_SIDE_SC_COUNT_OK(_identifier, _nr) || \
				   _SIDE_SC_TYPES_OK(_identifier, _variadic, __VA_ARGS__), \
			   _SIDE_SC_MSG_TYPES, side_event_call_mismatch);
#define SIDE_SC_CHECK_CALL(_identifier, _nr, _variadic, ...) \
	_SIDE_SC_IF(SIDE_SC_ON) \
	(_SIDE_SC_CHECK_CALL(_identifier, _nr, _variadic, SIDE_SC_ARG_TAGS(__VA_ARGS__)))

#endif /* SIDE_STATIC_CHECK_H */
