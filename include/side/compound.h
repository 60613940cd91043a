/* SPDX-License-Identifier: MIT */
/*
 * SIDE compound types: element types, struct, array and vla, their
 * definitions, fields and call-site arguments. Included by side/types.h, after the basic types
 * it builds on.
 */
#ifndef SIDE_COMPOUND_H
#define SIDE_COMPOUND_H

/*
 * Element and length types are passed by address: side_elem(side_type_u32()).
 * A one-element array literal decays to that address (C++ refuses the
 * address of a non-array compound literal).
 */
#define side_elem(_type) \
	SIDE_SC_TYPE(SIDE_SC_TYPE_TAG(_type), \
		     _SIDE_LITERAL(const struct side_type, SIDE_SC_TYPE_INIT(_type)))
#define side_length(_type) side_elem(_type)

/*
 * Compound types: struct. side_struct_literal() is an unnamed definition,
 * usable wherever a definition's name is (side_type_struct(side_struct_literal(...))).
 */
#define _side_type_struct_init(_fields, _attr...) \
	{ \
		.fields = _side_fields_ref(_fields), .attributes = _side_attr_or_none(_, ##_attr) \
	}
#define side_struct_literal(_fields, _attr...) \
	(*_SIDE_LITERAL(const struct side_type_struct, _side_type_struct_init(_fields, ##_attr)))
/* Its field names are checked like an event's. */
#define side_define_struct(_identifier, _fields, _attr...) \
	const struct side_type_struct _identifier = _side_type_struct_init(_fields, ##_attr); \
	SIDE_SC_CHECK_FIELDS _fields
#define side_type_struct(_struct) \
	SIDE_SC_TYPE(SIDE_SC_TAG(struct), {.type = SIDE_ENUM_INIT(SIDE_TYPE_STRUCT), \
					   .u = {.side_struct = _side_ref(_struct)}})
#define side_field_struct(_name, _struct) _side_field(_name, side_type_struct(SIDE_PARAM(_struct)))
#define side_arg_struct(_vec) \
	SIDE_SC_ARG(SIDE_SC_TAG(struct), {.type = SIDE_ENUM_INIT(SIDE_TYPE_STRUCT), \
					  .flags = 0, \
					  .u = {.side_static = {.side_struct = _side_ref(_vec)}}})

/* Compound types: array and vla */
#define _side_type_array_init(_elem_type, _length, _attr...) \
	{ \
		.elem_type = SIDE_PTR_INIT(SIDE_SC_ELEM_PTR(_elem_type)), \
		.length = (uint32_t)(_length), .attributes = _side_attr_or_none(_, ##_attr) \
	}
#define side_define_array(_identifier, _elem_type, _length, _attr...) \
	const struct side_type_array _identifier = \
		_side_type_array_init(SIDE_PARAM(_elem_type), _length, ##_attr)
#define _side_type_array_1(_array) \
	SIDE_SC_TYPE(SIDE_SC_TAG(array), {.type = SIDE_ENUM_INIT(SIDE_TYPE_ARRAY), \
					  .u = {.side_array = _side_ref(_array)}})
#define _side_type_array_inline(_elem_type, _length, _attr...) \
	SIDE_SC_TYPE(SIDE_SC_TAG(array), \
		     {.type = SIDE_ENUM_INIT(SIDE_TYPE_ARRAY), \
		      .u = {.side_array = SIDE_PTR_INIT(_SIDE_LITERAL( \
				    const struct side_type_array, \
				    _side_type_array_init(_elem_type, _length, ##_attr)))}})
/* An expanded attribute list counts as several arguments. */
#define _side_type_array_2 _side_type_array_inline
#define _side_type_array_3 _side_type_array_inline
#define _side_type_array_4 _side_type_array_inline
#define _side_type_array_5 _side_type_array_inline
/* side_type_array(definition) or side_type_array(elem_type, length [, attr]) */
#define side_type_array(...) SIDE_CAT(_side_type_array_, _SIDE_NARG(__VA_ARGS__))(__VA_ARGS__)
#define side_field_array(_name, ...) _side_field(_name, side_type_array(__VA_ARGS__))
#define side_arg_array(_vec) \
	SIDE_SC_ARG(SIDE_SC_TAG(array), {.type = SIDE_ENUM_INIT(SIDE_TYPE_ARRAY), \
					 .flags = 0, \
					 .u = {.side_static = {.side_array = _side_ref(_vec)}}})

#define _side_type_vla_init(_elem_type, _length_type, _attr...) \
	{ \
		.elem_type = SIDE_PTR_INIT(SIDE_SC_ELEM_PTR(_elem_type)), \
		.length_type = SIDE_PTR_INIT(SIDE_SC_ELEM_PTR(_length_type)), \
		.attributes = _side_attr_or_none(_, ##_attr) \
	}
#define side_define_vla(_identifier, _elem_type, _length_type, _attr...) \
	const struct side_type_vla _identifier = \
		_side_type_vla_init(SIDE_PARAM(_elem_type), SIDE_PARAM(_length_type), ##_attr)
#define _side_type_vla_1(_vla) \
	SIDE_SC_TYPE(SIDE_SC_TAG(vla), \
		     {.type = SIDE_ENUM_INIT(SIDE_TYPE_VLA), .u = {.side_vla = _side_ref(_vla)}})
#define _side_type_vla_inline(_elem_type, _length_type, _attr...) \
	SIDE_SC_TYPE(SIDE_SC_TAG(vla), \
		     {.type = SIDE_ENUM_INIT(SIDE_TYPE_VLA), \
		      .u = {.side_vla = SIDE_PTR_INIT(_SIDE_LITERAL( \
				    const struct side_type_vla, \
				    _side_type_vla_init(_elem_type, _length_type, ##_attr)))}})
#define _side_type_vla_2 _side_type_vla_inline
#define _side_type_vla_3 _side_type_vla_inline
#define _side_type_vla_4 _side_type_vla_inline
#define _side_type_vla_5 _side_type_vla_inline
/* side_type_vla(definition) or side_type_vla(elem_type, length_type [, attr]) */
#define side_type_vla(...) SIDE_CAT(_side_type_vla_, _SIDE_NARG(__VA_ARGS__))(__VA_ARGS__)
#define side_field_vla(_name, ...) _side_field(_name, side_type_vla(__VA_ARGS__))
#define side_arg_vla(_vec) \
	SIDE_SC_ARG(SIDE_SC_TAG(vla), {.type = SIDE_ENUM_INIT(SIDE_TYPE_VLA), \
				       .flags = 0, \
				       .u = {.side_static = {.side_vla = _side_ref(_vec)}}})

/* Argument vectors for struct, array and vla arguments. */
#define side_arg_define_vec(_identifier, _sav...) \
	const struct side_arg _identifier##_vec[] = {SIDE_SC_ARG_INITS(_sav)}; \
	const struct side_arg_vec _identifier = { \
		.sav = SIDE_PTR_INIT(_identifier##_vec), \
		.len = SIDE_ARRAY_SIZE(_identifier##_vec), \
	}
#define side_arg_define_struct(_identifier, _sav...) side_arg_define_vec(_identifier, _sav)
/* The elements of an array or a vla have one type. */
#define side_arg_define_array(_identifier, _sav...) \
	side_arg_define_vec(_identifier, _sav); \
	SIDE_SC_CHECK_ELEMS(_sav)
#define side_arg_define_vla(_identifier, _sav...) \
	side_arg_define_vec(_identifier, _sav); \
	SIDE_SC_CHECK_ELEMS(_sav)

/*
 * VLA visitor: the application walks its own container on demand.
 * side_vla_visitor_literal() is an unnamed definition, usable by name.
 */
#define _side_vla_visitor_init(_elem_type, _length_type, _visitor, _attr...) \
	{ \
		.elem_type = SIDE_PTR_INIT(SIDE_SC_ELEM_PTR(_elem_type)), \
		.length_type = SIDE_PTR_INIT(SIDE_SC_ELEM_PTR(_length_type)), \
		.visitor = SIDE_PTR_INIT(_visitor), .attributes = _side_attr_or_none(_, ##_attr) \
	}
#define side_vla_visitor_literal(_elem_type, _length_type, _visitor, _attr...) \
	(*_SIDE_LITERAL(const struct side_type_vla_visitor, \
			_side_vla_visitor_init(SIDE_PARAM(_elem_type), SIDE_PARAM(_length_type), \
					       _visitor, ##_attr)))
#define side_define_vla_visitor(_identifier, _elem_type, _length_type, _visitor, _attr...) \
	const struct side_type_vla_visitor _identifier = _side_vla_visitor_init( \
		SIDE_PARAM(_elem_type), SIDE_PARAM(_length_type), _visitor, ##_attr)
/* Adapts a visitor taking the application's context type to side_visitor_func. */
#define side_define_static_vla_visitor(_identifier, _elem_type, _length_type, _func, _type, \
				       _attr...) \
	static enum side_visitor_status side_vla_visitor_func__##_identifier( \
		const struct side_tracer_visitor_ctx *tracer_ctx, void *app_ctx) \
	{ \
		return _func(tracer_ctx, (_type *)app_ctx); \
	} \
	static side_define_vla_visitor(_identifier, SIDE_PARAM(_elem_type), \
				       SIDE_PARAM(_length_type), \
				       side_vla_visitor_func__##_identifier, ##_attr)
#define side_type_vla_visitor(_vla_visitor) \
	SIDE_SC_TYPE(SIDE_SC_TAG(vla_visitor), \
		     {.type = SIDE_ENUM_INIT(SIDE_TYPE_VLA_VISITOR), \
		      .u = {.side_vla_visitor = _side_ref(_vla_visitor)}})
#define side_field_vla_visitor(_name, _vla_visitor) \
	_side_field(_name, side_type_vla_visitor(SIDE_PARAM(_vla_visitor)))
#define side_arg_define_vla_visitor(_identifier, _ctx) \
	struct side_arg_vla_visitor _identifier = { \
		.app_ctx = SIDE_PTR_INIT(_ctx), \
		.cached_arg = SIDE_PTR_INIT(NULL), \
	}
#define side_arg_vla_visitor(_visitor) \
	SIDE_SC_ARG(SIDE_SC_TAG(vla_visitor), \
		    {.type = SIDE_ENUM_INIT(SIDE_TYPE_VLA_VISITOR), \
		     .flags = 0, \
		     .u = {.side_static = {.side_vla_visitor = _side_ref(_visitor)}}})
#define side_visit_dynamic_arg(_what, _expr...) _what(_expr)
#define side_visit_dynamic_field(_what, _name, _expr...) side_arg_dynamic_field(_name, _what(_expr))

/* Variant: a selector value chooses one of the option types. */
#define side_option_range(_begin, _end, _type) \
	{ \
		.range_begin = (int64_t)(_begin), .range_end = (int64_t)(_end), \
		.side_type = SIDE_SC_TYPE_INIT(_type) \
	}
#define side_option(_value, _type) side_option_range(_value, _value, SIDE_PARAM(_type))
#define side_option_list(...) \
	{ \
		.elements = SIDE_PTR_INIT( \
			_SIDE_LITERAL(const struct side_variant_option, __VA_ARGS__)), \
		.length = _SIDE_LITERAL_LEN(const struct side_variant_option, __VA_ARGS__) \
	}
#define side_define_variant(_identifier, _selector, _options, _attr...) \
	const struct side_type_variant _identifier = {.options = _options, \
						      .selector = SIDE_SC_TYPE_INIT(_selector), \
						      .attributes = \
							      _side_attr_or_none(_, ##_attr)}
#define side_type_variant(_variant) \
	SIDE_SC_TYPE(SIDE_SC_TAG(variant), {.type = SIDE_ENUM_INIT(SIDE_TYPE_VARIANT), \
					    .u = {.side_variant = _side_ref(_variant)}})
#define side_field_variant(_name, _variant) \
	_side_field(_name, side_type_variant(SIDE_PARAM(_variant)))
#define side_arg_define_variant(_identifier, _selector_val, _option) \
	const struct side_arg_variant _identifier = {.selector = SIDE_SC_ARG_INIT(_selector_val), \
						     .option = SIDE_SC_ARG_INIT(_option)}
#define side_arg_variant(_variant) \
	SIDE_SC_ARG(SIDE_SC_TAG(variant), \
		    {.type = SIDE_ENUM_INIT(SIDE_TYPE_VARIANT), \
		     .flags = 0, \
		     .u = {.side_static = {.side_variant = _side_ref(_variant)}}})

/*
 * Optional: a value that may be absent. The definitions also name the
 * element's tag (side_sc_optional__<identifier>), so that a field and its
 * argument are compared by what they hold.
 */
enum {
	SIDE_OPTIONAL_DISABLED = 0,
	SIDE_OPTIONAL_ENABLED = 1,
};
#define _side_type_optional_init(_elem_type, _attr...) \
	{ \
		.elem_type = SIDE_PTR_INIT(SIDE_SC_ELEM_PTR(_elem_type)), \
		.attributes = _side_attr_or_none(_, ##_attr) \
	}
#define side_define_optional(_identifier, _elem_type, _attr...) \
	const struct side_type_optional _identifier = \
		_side_type_optional_init(SIDE_PARAM(_elem_type), ##_attr); \
	typedef SIDE_SC_ELEM_TAG(_elem_type) side_sc_optional__##_identifier
#define _side_type_optional(_tag, _ptr) \
	SIDE_SC_TYPE(SIDE_SC_TAG_OPTIONAL(_tag), \
		     {.type = SIDE_ENUM_INIT(SIDE_TYPE_OPTIONAL), .u = {.side_optional = _ptr}})
#define side_type_optional(_optional) \
	_side_type_optional(side_sc_optional__##_optional, _side_ref(_optional))
#define side_field_optional(_name, _optional) _side_field(_name, side_type_optional(_optional))
#define side_field_optional_literal(_name, _elem_type, _attr...) \
	_side_field(_name, \
		    _side_type_optional(SIDE_SC_ELEM_TAG(_elem_type), \
					SIDE_PTR_INIT(_SIDE_LITERAL( \
						const struct side_type_optional, \
						_side_type_optional_init(_elem_type, ##_attr)))))
#define side_arg_define_optional(_identifier, _value, _selector) \
	const struct side_arg_optional _identifier = {.side_static = SIDE_SC_ARG_INIT(_value), \
						      .selector = (uint8_t)(_selector)}; \
	typedef SIDE_SC_ARG_TAG(_value) side_sc_optional__##_identifier
#define side_arg_optional(_optional) \
	SIDE_SC_ARG(SIDE_SC_TAG_OPTIONAL(side_sc_optional__##_optional), \
		    {.type = SIDE_ENUM_INIT(SIDE_TYPE_OPTIONAL), \
		     .flags = 0, \
		     .u = {.side_static = {.side_optional = _side_ref(_optional)}}})

/*
 * Enumerations: the argument is the underlying integer (its tag is the
 * element type's). The mappings are passed by address
 * (side_field_enum("e", &mappings, elem)), as in libside.
 */
#define side_enum_mapping_range(_label, _begin, _end) \
	{ \
		.range_begin = (int64_t)(_begin), .range_end = (int64_t)(_end), .label = { \
			.p = SIDE_PTR_INIT(_label), \
			.unit_size = 1, \
			.byte_order = SIDE_ENUM_INIT(SIDE_TYPE_BYTE_ORDER_HOST) \
		} \
	}
#define side_enum_mapping_value(_label, _value) side_enum_mapping_range(_label, _value, _value)
#define side_enum_mapping_list(...) \
	{ \
		.elements = \
			SIDE_PTR_INIT(_SIDE_LITERAL(const struct side_enum_mapping, __VA_ARGS__)), \
		.length = _SIDE_LITERAL_LEN(const struct side_enum_mapping, __VA_ARGS__) \
	}
#define side_define_enum(_identifier, _mappings, _attr...) \
	const struct side_enum_mappings _identifier = { \
		.mappings = _mappings, .attributes = _side_attr_or_none(_, ##_attr)}
#define side_type_enum(_mappings, _elem_type) \
	SIDE_SC_TYPE( \
		SIDE_SC_ELEM_TAG(_elem_type), \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_ENUM), \
		 .u = {.side_enum = {.mappings = SIDE_PTR_INIT(_mappings), \
				     .elem_type = SIDE_PTR_INIT(SIDE_SC_ELEM_PTR(_elem_type))}}})
#define side_field_enum(_name, _mappings, _elem_type) \
	_side_field(_name, side_type_enum(_mappings, SIDE_PARAM(_elem_type)))

#define side_enum_bitmap_mapping_range(_label, _begin, _end) \
	{ \
		.range_begin = (uint64_t)(_begin), .range_end = (uint64_t)(_end), .label = { \
			.p = SIDE_PTR_INIT(_label), \
			.unit_size = 1, \
			.byte_order = SIDE_ENUM_INIT(SIDE_TYPE_BYTE_ORDER_HOST) \
		} \
	}
#define side_enum_bitmap_mapping_value(_label, _value) \
	side_enum_bitmap_mapping_range(_label, _value, _value)
#define side_enum_bitmap_mapping_list(...) \
	{ \
		.elements = SIDE_PTR_INIT( \
			_SIDE_LITERAL(const struct side_enum_bitmap_mapping, __VA_ARGS__)), \
		.length = _SIDE_LITERAL_LEN(const struct side_enum_bitmap_mapping, __VA_ARGS__) \
	}
#define side_define_enum_bitmap(_identifier, _mappings, _attr...) \
	const struct side_enum_bitmap_mappings _identifier = { \
		.mappings = _mappings, .attributes = _side_attr_or_none(_, ##_attr)}
#define side_type_enum_bitmap(_mappings, _elem_type) \
	SIDE_SC_TYPE(SIDE_SC_ELEM_TAG(_elem_type), \
		     {.type = SIDE_ENUM_INIT(SIDE_TYPE_ENUM_BITMAP), \
		      .u = {.side_enum_bitmap = { \
				    .mappings = SIDE_PTR_INIT(_mappings), \
				    .elem_type = SIDE_PTR_INIT(SIDE_SC_ELEM_PTR(_elem_type))}}})
#define side_field_enum_bitmap(_name, _mappings, _elem_type) \
	_side_field(_name, side_type_enum_bitmap(_mappings, SIDE_PARAM(_elem_type)))

#endif /* SIDE_COMPOUND_H */
