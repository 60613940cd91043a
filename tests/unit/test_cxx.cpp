// SPDX-License-Identifier: MIT
/*
 * The instrumentation API from C++ (built with g++ and with clang++, see
 * the Makefile): every group of the API (basic types, attributes, struct,
 * array, vla, visitor, enum, bitmap, variant, optional, dynamic and
 * variadic fields, gather types, declared events) in a class's methods and
 * in templates. Each event fires once disabled (silent) and once enabled;
 * a small tracer renders the argument vector from the description alone.
 * Also checks that the descriptions are constant-initialized: C++ must not
 * move them to .bss with a constructor, where neither sidetrace list nor
 * the kernel's semaphore update could see them.
 */
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <side/trace.h>

extern "C" {
#include "unit.h"
}

namespace
{

std::string out;
int nr_calls;

std::string int_of(const side_type_integer &t, const side_integer_value &v)
{
	long long s = 0;
	unsigned long long u = 0;

	switch (t.integer_size) {
	case 1:
		s = v.side_s8, u = v.side_u8;
		break;
	case 2:
		s = v.side_s16, u = v.side_u16;
		break;
	case 4:
		s = v.side_s32, u = v.side_u32;
		break;
	default:
		s = v.side_s64, u = v.side_u64;
	}
	return t.signedness ? std::to_string(s) : std::to_string(u);
}

std::string render(const side_type &t, const side_arg &a);

std::string render_vec(const side_type &elem, const side_arg_vec *v)
{
	std::string s = "[";
	const side_arg *sav = side_ptr_get(v->sav);

	for (uint32_t i = 0; i < v->len; i++)
		s += (i ? " " : "") + render(elem, sav[i]);
	return s + "]";
}

std::string render_dynamic(const side_arg &a)
{
	const side_arg_dynamic &d = a.u.side_dynamic;

	switch (a.type.v) {
	case SIDE_TYPE_DYNAMIC_INTEGER:
		return int_of(d.side_integer.type, d.side_integer.value);
	case SIDE_TYPE_DYNAMIC_STRING:
		return std::string("\"") + (const char *)(uintptr_t)d.side_string.value + "\"";
	case SIDE_TYPE_DYNAMIC_NULL:
		return "null";
	default:
		return "dyn" + std::to_string(a.type.v);
	}
}

/* A gather type read at base: integers, and structs of them. */
std::string render_gather(const side_type &t, const char *base)
{
	if (t.type.v == SIDE_TYPE_GATHER_INTEGER) {
		const side_type_gather_integer &g = t.u.side_gather.u.side_integer;
		side_integer_value iv = {};

		std::memcpy(&iv, base + g.offset, g.type.integer_size);
		return int_of(g.type, iv);
	}
	if (t.type.v != SIDE_TYPE_GATHER_STRUCT)
		return "gather" + std::to_string(t.type.v);
	const side_type_gather_struct &g = t.u.side_gather.u.side_struct;
	const side_type_struct *st = side_ptr_get(g.type);
	const side_event_field *f = side_ptr_get(st->fields.elements);
	std::string s = "{";

	for (uint32_t i = 0; i < st->fields.length; i++)
		s += std::string(i ? " " : "") + side_ptr_get(f[i].field_name) + "=" +
		     render_gather(f[i].side_type, base + g.offset);
	return s + "}";
}

std::string render(const side_type &t, const side_arg &a)
{
	const side_arg_static &v = a.u.side_static;

	if (t.type.v == SIDE_TYPE_DYNAMIC)
		return render_dynamic(a);
	switch (a.type.v) {
	case SIDE_TYPE_NULL:
		return "null";
	case SIDE_TYPE_BOOL:
		return v.bool_value.side_bool8 ? "true" : "false";
	case SIDE_TYPE_U8:
	case SIDE_TYPE_U16:
	case SIDE_TYPE_U32:
	case SIDE_TYPE_U64:
	case SIDE_TYPE_S8:
	case SIDE_TYPE_S16:
	case SIDE_TYPE_S32:
	case SIDE_TYPE_S64: {
		/* An enum's element type says how to read the value. */
		const side_type *it = &t;
		if (t.type.v == SIDE_TYPE_ENUM)
			it = side_ptr_get(t.u.side_enum.elem_type);
		if (t.type.v == SIDE_TYPE_ENUM_BITMAP)
			it = side_ptr_get(t.u.side_enum_bitmap.elem_type);
		return int_of(it->u.side_integer, v.integer_value);
	}
	case SIDE_TYPE_FLOAT_BINARY64:
		return std::to_string((int)v.float_value.side_float_binary64);
	case SIDE_TYPE_STRING_UTF8:
		return std::string("\"") + (const char *)side_ptr_get(v.string_value) + "\"";
	case SIDE_TYPE_STRUCT: {
		const side_type_struct *st = side_ptr_get(t.u.side_struct);
		const side_event_field *f = side_ptr_get(st->fields.elements);
		const side_arg_vec *sv = side_ptr_get(v.side_struct);
		const side_arg *sav = side_ptr_get(sv->sav);
		std::string s = "{";

		for (uint32_t i = 0; i < sv->len; i++)
			s += std::string(i ? " " : "") + side_ptr_get(f[i].field_name) + "=" +
			     render(f[i].side_type, sav[i]);
		return s + "}";
	}
	case SIDE_TYPE_ARRAY:
		return render_vec(*side_ptr_get(side_ptr_get(t.u.side_array)->elem_type),
				  side_ptr_get(v.side_array));
	case SIDE_TYPE_VLA:
		return render_vec(*side_ptr_get(side_ptr_get(t.u.side_vla)->elem_type),
				  side_ptr_get(v.side_vla));
	case SIDE_TYPE_OPTIONAL: {
		const side_arg_optional *o = side_ptr_get(v.side_optional);
		if (o->selector != SIDE_OPTIONAL_ENABLED)
			return "absent";
		return render(*side_ptr_get(side_ptr_get(t.u.side_optional)->elem_type),
			      o->side_static);
	}
	case SIDE_TYPE_VARIANT: {
		const side_arg_variant *va = side_ptr_get(v.side_variant);
		const side_type_variant *tv = side_ptr_get(t.u.side_variant);
		const side_variant_option *opt = side_ptr_get(tv->options.elements);
		int64_t sel = va->selector.u.side_static.integer_value.side_s64;

		for (uint32_t i = 0; i < tv->options.length; i++)
			if (sel >= opt[i].range_begin && sel <= opt[i].range_end)
				return render(opt[i].side_type, va->option);
		return "no option";
	}
	case SIDE_TYPE_GATHER_INTEGER:
		return render_gather(t, (const char *)side_ptr_get(v.side_integer_gather_ptr));
	case SIDE_TYPE_GATHER_STRUCT:
		return render_gather(t, (const char *)side_ptr_get(v.side_struct_gather_ptr));
	default:
		return "type" + std::to_string(a.type.v);
	}
}

void record(const side_event_state *state, const side_arg_vec *vec,
	    const side_arg_dynamic_struct *var)
{
	const side_event_description *desc =
		reinterpret_cast<const side_event_state_0 *>(state)->desc;
	const side_event_field *f = side_ptr_get(desc->fields.elements);
	const side_arg *sav = side_ptr_get(vec->sav);

	nr_calls++;
	out = std::string(side_ptr_get(desc->provider_name)) + ":" + side_ptr_get(desc->event_name);
	if (vec->len != desc->fields.length)
		out += " <argument count>";
	for (uint32_t i = 0; i < vec->len && i < desc->fields.length; i++)
		out += std::string(" ") + side_ptr_get(f[i].field_name) + "=" +
		       render(f[i].side_type, sav[i]);
	if (var) {
		const side_arg_dynamic_field *df = side_ptr_get(var->fields);
		for (uint32_t i = 0; i < var->len; i++)
			out += std::string(" ") + side_ptr_get(df[i].field_name) + "=" +
			       render_dynamic(df[i].elem);
		if (var->attributes.length)
			out += " +attr";
	}
}

void record_call(const side_event_state *state, const side_arg_vec *vec, int in_process)
{
	record(state, vec, nullptr);
	side_call_from_site(state, vec, in_process);
}

void record_call_variadic(const side_event_state *state, const side_arg_vec *vec,
			  const side_arg_dynamic_struct *var, int in_process)
{
	record(state, vec, var);
	side_call_variadic_from_site(state, vec, var, in_process);
}

} // namespace

/* The calls below go through the recorders, which then call the runtime. */
#define side_call_from_site record_call
#define side_call_variadic_from_site record_call_variadic

namespace
{

/* Fires fn disabled (it must not call), then enabled; returns the rendering. */
template <typename F> std::string fire(side_event_state_0 &state, F fn)
{
	nr_calls = 0;
	fn();
	if (nr_calls)
		return "<called while disabled>";
	state.enabled = SIDE_ENABLED_USER_ONE;
	fn();
	state.enabled = 0;
	return nr_calls == 1 ? out : "<not called once>";
}

void expect(const char *name, const std::string &got, const char *want)
{
	ok(got == want, name);
	if (got != want)
		std::printf("     got: %s\n    want: %s\n", got.c_str(), want);
}

} // namespace

#define FIRE(_event, ...) fire(side_event_state__##_event, [&]() { __VA_ARGS__; })

/* Basic types and attributes. */
side_static_event(ev_basic, "cxx", "basic", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u8("u8"), side_field_s16("s16"), side_field_u32("u32"),
				  side_field_s64("s64",
						 side_attr_list(side_attr("unit",
									  side_attr_string("ns")))),
				  side_field_bool("ok"), side_field_string("str"),
				  side_field_double("d"), side_field_null("n"), ),
		  side_attr_list(side_attr("version", side_attr_u32(2))));

/* Compound types. */
static side_define_struct(point_type, side_field_list(side_field_s32("x"), side_field_s32("y")));
static side_define_array(pair_type, side_elem(side_type_u16()), 2);
side_define_enum(color_labels, side_enum_mapping_list(side_enum_mapping_value("red", 0),
						      side_enum_mapping_value("green", 1)));
side_define_enum_bitmap(flag_labels,
			side_enum_bitmap_mapping_list(side_enum_bitmap_mapping_value("a", 0),
						      side_enum_bitmap_mapping_value("b", 1)));
side_static_event(
	ev_compound, "cxx", "compound", SIDE_LOGLEVEL_INFO,
	side_field_list(side_field_struct("p", point_type), side_field_array("pair", pair_type),
			side_field_vla("ids", side_elem(side_type_u32()),
				       side_length(side_type_u32())),
			side_field_enum("color", &color_labels, side_elem(side_type_u8())),
			side_field_enum_bitmap("flags", &flag_labels, side_elem(side_type_u32()))));

/* Variant and optional. */
static side_define_variant(num_or_str, side_type_u32(),
			   side_option_list(side_option(0, side_type_s64()),
					    side_option(1, side_type_string())));
static side_define_optional(maybe_u32, side_elem(side_type_u32()));
side_static_event(
	ev_choice, "cxx", "choice", SIDE_LOGLEVEL_INFO,
	side_field_list(side_field_variant("v", num_or_str), side_field_optional("o", maybe_u32),
			side_field_optional_literal("o2", side_elem(side_type_string()))));

/* Dynamic and variadic. */
side_static_event(ev_dynamic, "cxx", "dynamic", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_dynamic("d")));
side_static_event_variadic(ev_variadic, "cxx", "variadic", SIDE_LOGLEVEL_INFO,
			   side_field_list(side_field_string("msg")));

/* Gather: the values stay in the application's own structure. */
struct sample {
	uint32_t a;
	int16_t b;
};
static side_define_struct(
	sample_gather,
	side_field_list(side_field_gather_unsigned_integer("a", offsetof(sample, a), 4, 0, 0,
							   SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_signed_integer("b", offsetof(sample, b), 2, 0, 0,
							 SIDE_TYPE_GATHER_ACCESS_DIRECT)));
side_static_event(
	ev_gather, "cxx", "gather", SIDE_LOGLEVEL_INFO,
	side_field_list(side_field_gather_unsigned_integer("a", offsetof(sample, a), 4, 0, 0,
							   SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_struct("s", sample_gather, 0, sizeof(sample),
						 SIDE_TYPE_GATHER_ACCESS_DIRECT)));

/* Declared first (as a header would), defined after, called from a class. */
side_declare_event(ev_declared);
side_hidden_event(ev_declared, "cxx", "declared", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u64("id"), side_field_string("who")));

namespace
{

class service
{
      public:
	explicit service(const char *name) : name_(name)
	{
	}
	void handle(uint64_t id) const
	{
		side_event(ev_declared, side_arg_list(side_arg_u64(id), side_arg_string(name_)));
	}

      private:
	const char *name_;
};

/* A template emitting one event for any integer type. */
template <typename T> void emit_u32(T v)
{
	side_event(ev_dynamic, side_arg_list(side_arg_dynamic_u32(v)));
}

} // namespace

int main()
{
	uint32_t u32 = 7;

	expect("basic types",
	       FIRE(ev_basic,
		    side_event(ev_basic,
			       side_arg_list(side_arg_u8(200), side_arg_s16(-3), side_arg_u32(u32),
					     side_arg_s64(-40000000000LL), side_arg_bool(true),
					     side_arg_string("text"), side_arg_double(2.5),
					     side_arg_null()))),
	       "cxx:basic u8=200 s16=-3 u32=7 s64=-40000000000 ok=true str=\"text\" d=2 n=null");
	expect("struct, array, vla, enum, bitmap",
	       FIRE(
		       ev_compound,
		       if (side_event_enabled(ev_compound)) {
			       side_arg_define_struct(
				       p, side_arg_list(side_arg_s32(-1), side_arg_s32(2)));
			       side_arg_define_array(
				       pair, side_arg_list(side_arg_u16(3), side_arg_u16(4)));
			       side_arg_define_vla(ids,
						   side_arg_list(side_arg_u32(5), side_arg_u32(6),
								 side_arg_u32(7)));
			       side_event_call(ev_compound,
					       side_arg_list(side_arg_struct(p),
							     side_arg_array(pair),
							     side_arg_vla(ids), side_arg_u8(1),
							     side_arg_u32(3)));
		       }),
	       "cxx:compound p={x=-1 y=2} pair=[3 4] ids=[5 6 7] color=1 flags=3");
	expect("variant and optional",
	       FIRE(
		       ev_choice,
		       if (side_event_enabled(ev_choice)) {
			       side_arg_define_variant(v, side_arg_u32(1), side_arg_string("one"));
			       side_arg_define_optional(o, side_arg_u32(9), SIDE_OPTIONAL_ENABLED);
			       side_arg_define_optional(o2, side_arg_string("x"),
							SIDE_OPTIONAL_DISABLED);
			       side_event_call(ev_choice, side_arg_list(side_arg_variant(v),
									side_arg_optional(o),
									side_arg_optional(o2)));
		       }),
	       "cxx:choice v=\"one\" o=9 o2=absent");
	expect("dynamic field from a template", FIRE(ev_dynamic, emit_u32(11u)),
	       "cxx:dynamic d=11");
	expect("dynamic attributes in a function",
	       FIRE(ev_dynamic,
		    side_event(ev_dynamic, side_arg_list(side_arg_dynamic_string(
						   "s", side_dynamic_attr_list(side_attr(
								"k", side_attr_u8(1))))))),
	       "cxx:dynamic d=\"s\"");
	expect("variadic",
	       FIRE(ev_variadic,
		    side_event_variadic(
			    ev_variadic, side_arg_list(side_arg_string("hello")),
			    side_arg_list(
				    side_arg_dynamic_field("n", side_arg_dynamic_s64(-5)),
				    side_arg_dynamic_field("who", side_arg_dynamic_string("me"))),
			    side_dynamic_attr_list(side_attr("lang", side_attr_string("c++"))))),
	       "cxx:variadic msg=\"hello\" n=-5 who=\"me\" +attr");
	sample smp = {42, -7};
	expect("gather",
	       FIRE(ev_gather, side_event(ev_gather, side_arg_list(side_arg_gather_integer(&smp.a),
								   side_arg_gather_struct(&smp)))),
	       "cxx:gather a=42 s={a=42 b=-7}");
	service svc("svc");
	expect("declared event called from a method", FIRE(ev_declared, svc.handle(5)),
	       "cxx:declared id=5 who=\"svc\"");

	/* Constant initialization: the description says what it is before any code runs. */
	ok(ev_basic.struct_size == offsetof(side_event_description, end) &&
		   ev_basic.fields.length == 8 &&
		   side_ptr_get(ev_basic.state) == &side_event_state__ev_basic.parent,
	   "descriptions are complete");
	ok(side_event_state__ev_basic.desc == &ev_basic && !side_event_state__ev_basic.enabled,
	   "state points to its description");
	return unit_summary();
}
