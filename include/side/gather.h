/* SPDX-License-Identifier: MIT */
/*
 * Gather types: the description says where a value lies relative to a base
 * pointer (offset, size, direct or through a pointer), and the argument is
 * only that base pointer, so a call site copies nothing. Included by
 * side/types.h.
 */
#ifndef SIDE_GATHER_H
#define SIDE_GATHER_H

#define side_type_gather_byte(_offset, _access_mode, _attr...) \
	SIDE_SC_TYPE( \
		SIDE_SC_TAG(gather_byte), \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_GATHER_BYTE), \
		 .u = {.side_gather = { \
			       .u = {.side_byte = {.offset = (uint64_t)(_offset), \
						   .access_mode = SIDE_ENUM_INIT(_access_mode), \
						   .type = {.attributes = _side_attr_or_none( \
								    _, ##_attr)}}}}}})
#define side_field_gather_byte(_name, _offset, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_byte(_offset, _access_mode, ##_attr))

/* Size of a member, for the _size arguments of gather fields. */
#define side_struct_field_sizeof(_struct, _field) sizeof(((_struct *)NULL)->_field)

#define _side_type_gather_bool(_order, _offset, _bool_size, _offset_bits, _len_bits, _access_mode, \
			       _attr...) \
	SIDE_SC_TYPE( \
		SIDE_SC_TAG(gather_bool), \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_GATHER_BOOL), \
		 .u = {.side_gather = { \
			       .u = {.side_bool = { \
					     .offset = (uint64_t)(_offset), \
					     .offset_bits = (uint16_t)(_offset_bits), \
					     .access_mode = SIDE_ENUM_INIT(_access_mode), \
					     .type = {.attributes = \
							      _side_attr_or_none(_, ##_attr), \
						      .bool_size = (uint16_t)(_bool_size), \
						      .len_bits = (uint16_t)(_len_bits), \
						      .byte_order = SIDE_ENUM_INIT(_order)}}}}}})
#define side_type_gather_bool(_offset, _bool_size, _offset_bits, _len_bits, _access_mode, \
			      _attr...) \
	_side_type_gather_bool(_SIDE_HOST, _offset, _bool_size, _offset_bits, _len_bits, \
			       _access_mode, ##_attr)
#define side_type_gather_bool_le(_offset, _bool_size, _offset_bits, _len_bits, _access_mode, \
				 _attr...) \
	_side_type_gather_bool(_SIDE_LE, _offset, _bool_size, _offset_bits, _len_bits, \
			       _access_mode, ##_attr)
#define side_type_gather_bool_be(_offset, _bool_size, _offset_bits, _len_bits, _access_mode, \
				 _attr...) \
	_side_type_gather_bool(_SIDE_BE, _offset, _bool_size, _offset_bits, _len_bits, \
			       _access_mode, ##_attr)
#define side_field_gather_bool(_name, _offset, _bool_size, _offset_bits, _len_bits, _access_mode, \
			       _attr...) \
	_side_field(_name, side_type_gather_bool(_offset, _bool_size, _offset_bits, _len_bits, \
						 _access_mode, ##_attr))
#define side_field_gather_bool_le(_name, _offset, _bool_size, _offset_bits, _len_bits, \
				  _access_mode, _attr...) \
	_side_field(_name, side_type_gather_bool_le(_offset, _bool_size, _offset_bits, _len_bits, \
						    _access_mode, ##_attr))
#define side_field_gather_bool_be(_name, _offset, _bool_size, _offset_bits, _len_bits, \
				  _access_mode, _attr...) \
	_side_field(_name, side_type_gather_bool_be(_offset, _bool_size, _offset_bits, _len_bits, \
						    _access_mode, ##_attr))

#define _side_type_gather_integer(_tag, _label, _signed, _order, _offset, _size, _offset_bits, \
				  _len_bits, _access_mode, _attr...) \
	SIDE_SC_TYPE( \
		SIDE_SC_TAG(_tag), \
		{.type = SIDE_ENUM_INIT(_label), \
		 .u = {.side_gather = { \
			       .u = {.side_integer = { \
					     .offset = (uint64_t)(_offset), \
					     .offset_bits = (uint16_t)(_offset_bits), \
					     .access_mode = SIDE_ENUM_INIT(_access_mode), \
					     .type = {.attributes = \
							      _side_attr_or_none(_, ##_attr), \
						      .integer_size = (uint16_t)(_size), \
						      .len_bits = (uint16_t)(_len_bits), \
						      .signedness = (_signed), \
						      .byte_order = SIDE_ENUM_INIT(_order)}}}}}})
#define side_type_gather_unsigned_integer(_offset, _size, _offset_bits, _len_bits, _access_mode, \
					  _attr...) \
	_side_type_gather_integer(gather_integer, SIDE_TYPE_GATHER_INTEGER, 0, _SIDE_HOST, \
				  _offset, _size, _offset_bits, _len_bits, _access_mode, ##_attr)
#define side_type_gather_signed_integer(_offset, _size, _offset_bits, _len_bits, _access_mode, \
					_attr...) \
	_side_type_gather_integer(gather_integer, SIDE_TYPE_GATHER_INTEGER, 1, _SIDE_HOST, \
				  _offset, _size, _offset_bits, _len_bits, _access_mode, ##_attr)
#define side_type_gather_unsigned_integer_le(_offset, _size, _offset_bits, _len_bits, \
					     _access_mode, _attr...) \
	_side_type_gather_integer(gather_integer, SIDE_TYPE_GATHER_INTEGER, 0, _SIDE_LE, _offset, \
				  _size, _offset_bits, _len_bits, _access_mode, ##_attr)
#define side_type_gather_signed_integer_le(_offset, _size, _offset_bits, _len_bits, _access_mode, \
					   _attr...) \
	_side_type_gather_integer(gather_integer, SIDE_TYPE_GATHER_INTEGER, 1, _SIDE_LE, _offset, \
				  _size, _offset_bits, _len_bits, _access_mode, ##_attr)
#define side_type_gather_unsigned_integer_be(_offset, _size, _offset_bits, _len_bits, \
					     _access_mode, _attr...) \
	_side_type_gather_integer(gather_integer, SIDE_TYPE_GATHER_INTEGER, 0, _SIDE_BE, _offset, \
				  _size, _offset_bits, _len_bits, _access_mode, ##_attr)
#define side_type_gather_signed_integer_be(_offset, _size, _offset_bits, _len_bits, _access_mode, \
					   _attr...) \
	_side_type_gather_integer(gather_integer, SIDE_TYPE_GATHER_INTEGER, 1, _SIDE_BE, _offset, \
				  _size, _offset_bits, _len_bits, _access_mode, ##_attr)
#define side_field_gather_unsigned_integer(_name, _offset, _size, _offset_bits, _len_bits, \
					   _access_mode, _attr...) \
	_side_field(_name, side_type_gather_unsigned_integer(_offset, _size, _offset_bits, \
							     _len_bits, _access_mode, ##_attr))
#define side_field_gather_signed_integer(_name, _offset, _size, _offset_bits, _len_bits, \
					 _access_mode, _attr...) \
	_side_field(_name, side_type_gather_signed_integer(_offset, _size, _offset_bits, \
							   _len_bits, _access_mode, ##_attr))
#define side_field_gather_unsigned_integer_le(_name, _offset, _size, _offset_bits, _len_bits, \
					      _access_mode, _attr...) \
	_side_field(_name, side_type_gather_unsigned_integer_le(_offset, _size, _offset_bits, \
								_len_bits, _access_mode, ##_attr))
#define side_field_gather_signed_integer_le(_name, _offset, _size, _offset_bits, _len_bits, \
					    _access_mode, _attr...) \
	_side_field(_name, side_type_gather_signed_integer_le(_offset, _size, _offset_bits, \
							      _len_bits, _access_mode, ##_attr))
#define side_field_gather_unsigned_integer_be(_name, _offset, _size, _offset_bits, _len_bits, \
					      _access_mode, _attr...) \
	_side_field(_name, side_type_gather_unsigned_integer_be(_offset, _size, _offset_bits, \
								_len_bits, _access_mode, ##_attr))
#define side_field_gather_signed_integer_be(_name, _offset, _size, _offset_bits, _len_bits, \
					    _access_mode, _attr...) \
	_side_field(_name, side_type_gather_signed_integer_be(_offset, _size, _offset_bits, \
							      _len_bits, _access_mode, ##_attr))

#define side_type_gather_pointer(_offset, _access_mode, _attr...) \
	_side_type_gather_integer(gather_pointer, SIDE_TYPE_GATHER_POINTER, 0, _SIDE_HOST, \
				  _offset, sizeof(uintptr_t), 0, 0, _access_mode, ##_attr)
#define side_type_gather_pointer_le(_offset, _access_mode, _attr...) \
	_side_type_gather_integer(gather_pointer, SIDE_TYPE_GATHER_POINTER, 0, _SIDE_LE, _offset, \
				  sizeof(uintptr_t), 0, 0, _access_mode, ##_attr)
#define side_type_gather_pointer_be(_offset, _access_mode, _attr...) \
	_side_type_gather_integer(gather_pointer, SIDE_TYPE_GATHER_POINTER, 0, _SIDE_BE, _offset, \
				  sizeof(uintptr_t), 0, 0, _access_mode, ##_attr)
#define side_field_gather_pointer(_name, _offset, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_pointer(_offset, _access_mode, ##_attr))
#define side_field_gather_pointer_le(_name, _offset, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_pointer_le(_offset, _access_mode, ##_attr))
#define side_field_gather_pointer_be(_name, _offset, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_pointer_be(_offset, _access_mode, ##_attr))

#define _side_type_gather_float(_order, _offset, _size, _access_mode, _attr...) \
	SIDE_SC_TYPE( \
		SIDE_SC_TAG(gather_float), \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_GATHER_FLOAT), \
		 .u = {.side_gather = { \
			       .u = {.side_float = { \
					     .offset = (uint64_t)(_offset), \
					     .access_mode = SIDE_ENUM_INIT(_access_mode), \
					     .type = {.attributes = \
							      _side_attr_or_none(_, ##_attr), \
						      .float_size = (uint16_t)(_size), \
						      .byte_order = SIDE_ENUM_INIT(_order)}}}}}})
#define side_type_gather_float(_offset, _size, _access_mode, _attr...) \
	_side_type_gather_float(_SIDE_FHOST, _offset, _size, _access_mode, ##_attr)
#define side_type_gather_float_le(_offset, _size, _access_mode, _attr...) \
	_side_type_gather_float(_SIDE_LE, _offset, _size, _access_mode, ##_attr)
#define side_type_gather_float_be(_offset, _size, _access_mode, _attr...) \
	_side_type_gather_float(_SIDE_BE, _offset, _size, _access_mode, ##_attr)
#define side_field_gather_float(_name, _offset, _size, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_float(_offset, _size, _access_mode, ##_attr))
#define side_field_gather_float_le(_name, _offset, _size, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_float_le(_offset, _size, _access_mode, ##_attr))
#define side_field_gather_float_be(_name, _offset, _size, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_float_be(_offset, _size, _access_mode, ##_attr))

#define _side_type_gather_string(_order, _unit, _offset, _access_mode, _attr...) \
	SIDE_SC_TYPE( \
		SIDE_SC_TAG(gather_string), \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_GATHER_STRING), \
		 .u = {.side_gather = { \
			       .u = {.side_string = { \
					     .offset = (uint64_t)(_offset), \
					     .access_mode = SIDE_ENUM_INIT(_access_mode), \
					     .type = {.attributes = \
							      _side_attr_or_none(_, ##_attr), \
						      .unit_size = (_unit), \
						      .byte_order = SIDE_ENUM_INIT(_order)}}}}}})
#define side_type_gather_string(_offset, _access_mode, _attr...) \
	_side_type_gather_string(_SIDE_HOST, 1, _offset, _access_mode, ##_attr)
#define side_type_gather_string16(_offset, _access_mode, _attr...) \
	_side_type_gather_string(_SIDE_HOST, 2, _offset, _access_mode, ##_attr)
#define side_type_gather_string16_le(_offset, _access_mode, _attr...) \
	_side_type_gather_string(_SIDE_LE, 2, _offset, _access_mode, ##_attr)
#define side_type_gather_string16_be(_offset, _access_mode, _attr...) \
	_side_type_gather_string(_SIDE_BE, 2, _offset, _access_mode, ##_attr)
#define side_type_gather_string32(_offset, _access_mode, _attr...) \
	_side_type_gather_string(_SIDE_HOST, 4, _offset, _access_mode, ##_attr)
#define side_type_gather_string32_le(_offset, _access_mode, _attr...) \
	_side_type_gather_string(_SIDE_LE, 4, _offset, _access_mode, ##_attr)
#define side_type_gather_string32_be(_offset, _access_mode, _attr...) \
	_side_type_gather_string(_SIDE_BE, 4, _offset, _access_mode, ##_attr)
#define side_field_gather_string(_name, _offset, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_string(_offset, _access_mode, ##_attr))
#define side_field_gather_string16(_name, _offset, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_string16(_offset, _access_mode, ##_attr))
#define side_field_gather_string16_le(_name, _offset, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_string16_le(_offset, _access_mode, ##_attr))
#define side_field_gather_string16_be(_name, _offset, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_string16_be(_offset, _access_mode, ##_attr))
#define side_field_gather_string32(_name, _offset, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_string32(_offset, _access_mode, ##_attr))
#define side_field_gather_string32_le(_name, _offset, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_string32_le(_offset, _access_mode, ##_attr))
#define side_field_gather_string32_be(_name, _offset, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_string32_be(_offset, _access_mode, ##_attr))

/*
 * The element type of a gather enum is a gather integer; the mappings are
 * named (unlike side_field_enum, which takes their address, as in libside).
 */
#define side_type_gather_enum(_mappings, _elem_type) \
	SIDE_SC_TYPE( \
		SIDE_SC_ELEM_TAG(_elem_type), \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_GATHER_ENUM), \
		 .u = {.side_gather = { \
			       .u = {.side_enum = {.mappings = _side_ref(_mappings), \
						   .elem_type = SIDE_PTR_INIT( \
							   SIDE_SC_ELEM_PTR(_elem_type))}}}}})
#define side_field_gather_enum(_name, _mappings, _elem_type) \
	_side_field(_name, side_type_gather_enum(_mappings, SIDE_PARAM(_elem_type)))

#define side_type_gather_struct(_struct_gather, _offset, _size, _access_mode) \
	SIDE_SC_TYPE( \
		SIDE_SC_TAG(gather_struct), \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_GATHER_STRUCT), \
		 .u = {.side_gather = { \
			       .u = {.side_struct = {.type = _side_ref(_struct_gather), \
						     .offset = (uint64_t)(_offset), \
						     .access_mode = SIDE_ENUM_INIT(_access_mode), \
						     .size = (uint32_t)(_size)}}}}})
#define side_field_gather_struct(_name, _struct_gather, _offset, _size, _access_mode) \
	_side_field(_name, side_type_gather_struct(SIDE_PARAM(_struct_gather), _offset, _size, \
						   _access_mode))

#define side_type_gather_array(_elem_type_gather, _length, _offset, _access_mode, _attr...) \
	SIDE_SC_TYPE( \
		SIDE_SC_TAG(gather_array), \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_GATHER_ARRAY), \
		 .u = {.side_gather = { \
			       .u = {.side_array = { \
					     .offset = (uint64_t)(_offset), \
					     .access_mode = SIDE_ENUM_INIT(_access_mode), \
					     .type = {.elem_type = SIDE_PTR_INIT(SIDE_SC_ELEM_PTR( \
							      _elem_type_gather)), \
						      .length = (uint32_t)(_length), \
						      .attributes = _side_attr_or_none( \
							      _, ##_attr)}}}}}})
#define side_field_gather_array(_name, _elem_type, _length, _offset, _access_mode, _attr...) \
	_side_field(_name, side_type_gather_array(SIDE_PARAM(_elem_type), _length, _offset, \
						  _access_mode, ##_attr))

#define side_type_gather_vla(_elem_type_gather, _offset, _access_mode, _length_type_gather, \
			     _attr...) \
	SIDE_SC_TYPE( \
		SIDE_SC_TAG(gather_vla), \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_GATHER_VLA), \
		 .u = {.side_gather = { \
			       .u = {.side_vla = { \
					     .offset = (uint64_t)(_offset), \
					     .access_mode = SIDE_ENUM_INIT(_access_mode), \
					     .type = {.elem_type = SIDE_PTR_INIT(SIDE_SC_ELEM_PTR( \
							      _elem_type_gather)), \
						      .length_type = \
							      SIDE_PTR_INIT(SIDE_SC_ELEM_PTR( \
								      _length_type_gather)), \
						      .attributes = _side_attr_or_none( \
							      _, ##_attr)}}}}}})
#define side_field_gather_vla(_name, _elem_type_gather, _offset, _access_mode, \
			      _length_type_gather, _attr...) \
	_side_field(_name, \
		    side_type_gather_vla(SIDE_PARAM(_elem_type_gather), _offset, _access_mode, \
					 SIDE_PARAM(_length_type_gather), ##_attr))

/* Gather arguments: the base pointer the description's offsets apply to. */
#define _side_arg_gather(_tag, _label, _member, _ptr) \
	SIDE_SC_ARG(SIDE_SC_TAG(_tag), {.type = SIDE_ENUM_INIT(_label), \
					.flags = 0, \
					.u = {.side_static = {._member = SIDE_PTR_INIT(_ptr)}}})
#define side_arg_gather_bool(_ptr) \
	_side_arg_gather(gather_bool, SIDE_TYPE_GATHER_BOOL, side_bool_gather_ptr, _ptr)
#define side_arg_gather_byte(_ptr) \
	_side_arg_gather(gather_byte, SIDE_TYPE_GATHER_BYTE, side_byte_gather_ptr, _ptr)
#define side_arg_gather_pointer(_ptr) \
	_side_arg_gather(gather_pointer, SIDE_TYPE_GATHER_POINTER, side_integer_gather_ptr, _ptr)
#define side_arg_gather_integer(_ptr) \
	_side_arg_gather(gather_integer, SIDE_TYPE_GATHER_INTEGER, side_integer_gather_ptr, _ptr)
#define side_arg_gather_float(_ptr) \
	_side_arg_gather(gather_float, SIDE_TYPE_GATHER_FLOAT, side_float_gather_ptr, _ptr)
#define side_arg_gather_string(_ptr) \
	_side_arg_gather(gather_string, SIDE_TYPE_GATHER_STRING, side_string_gather_ptr, _ptr)
#define side_arg_gather_struct(_ptr) \
	_side_arg_gather(gather_struct, SIDE_TYPE_GATHER_STRUCT, side_struct_gather_ptr, _ptr)
#define side_arg_gather_array(_ptr) \
	_side_arg_gather(gather_array, SIDE_TYPE_GATHER_ARRAY, side_array_gather_ptr, _ptr)
#define side_arg_gather_vla(_ptr, _length_ptr) \
	SIDE_SC_ARG(SIDE_SC_TAG(gather_vla), \
		    {.type = SIDE_ENUM_INIT(SIDE_TYPE_GATHER_VLA), \
		     .flags = 0, \
		     .u = {.side_static = {.side_vla_gather = { \
						   .ptr = SIDE_PTR_INIT(_ptr), \
						   .length_ptr = SIDE_PTR_INIT(_length_ptr)}}}})

/* A gather enum's value is read like its element, a gather integer. */
#define side_arg_gather_enum(_ptr) side_arg_gather_integer(_ptr)

#endif /* SIDE_GATHER_H */
