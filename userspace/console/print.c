// SPDX-License-Identifier: MIT
/*
 * The console tracer's basic values: strings, attributes, integers (every
 * size, byte order and display base), bools, floats, enum labels.
 */
#include <iconv.h>
#include <limits.h>
#include <string.h>
#include "print.h"

void push_nesting(struct print_ctx *ctx)
{
	if (++ctx->nesting >= CONSOLE_MAX_NESTING) {
		fprintf(stderr, "ERROR: Nesting too deep.\n");
		abort();
	}
	ctx->item_nr[ctx->nesting] = 0;
}

void pop_nesting(struct print_ctx *ctx)
{
	ctx->item_nr[ctx->nesting] = 0;
	if (ctx->nesting-- <= 0) {
		fprintf(stderr, "ERROR: Nesting underflow.\n");
		abort();
	}
}

void before_elem(struct print_ctx *ctx)
{
	printf(ctx->item_nr[ctx->nesting] ? ", { " : " { ");
}

void after_item(struct print_ctx *ctx)
{
	printf(" }");
	ctx->item_nr[ctx->nesting]++;
}

void before_field(struct print_ctx *ctx, const char *name, const char *sep)
{
	if (ctx->item_nr[ctx->nesting])
		printf(",");
	printf(" %s%s { ", name, sep);
}

static size_t units_with_nul(const void *p, uint8_t unit_size)
{
	size_t n = 0;

	if (unit_size == 2)
		while (((const uint16_t *)p)[n])
			n++;
	else
		while (((const uint32_t *)p)[n])
			n++;
	return n + 1;
}

size_t string_size(const void *p, uint8_t unit_size)
{
	if (unit_size == 1)
		return strlen(p) + 1;
	if (unit_size != 2 && unit_size != 4) {
		fprintf(stderr, "Unknown string unit size %u\n", unit_size);
		abort();
	}
	return units_with_nul(p, unit_size) * unit_size;
}

/* UTF-16 and UTF-32 are printed as UTF-8, as libside does with iconv. */
void print_string(const void *p, uint8_t unit_size, enum side_type_label_byte_order bo)
{
	const char *from;
	size_t in_left, out_left, out_size;
	char *in = (char *)p, *out, *buf;
	iconv_t cd;

	if (unit_size == 1) {
		printf("\"%s\"", (const char *)p);
		return;
	}
	if (unit_size != 2 && unit_size != 4) {
		fprintf(stderr, "Unknown string unit size %u\n", unit_size);
		abort();
	}
	if (unit_size == 2)
		from = bo == SIDE_TYPE_BYTE_ORDER_LE ? "UTF-16LE" : "UTF-16BE";
	else
		from = bo == SIDE_TYPE_BYTE_ORDER_LE ? "UTF-32LE" : "UTF-32BE";
	in_left = units_with_nul(p, unit_size) * unit_size;
	/* UTF-8 needs at most 4 bytes for each 2-byte or 4-byte unit. */
	out_size = in_left * 2 + 1;
	buf = out = calloc(1, out_size);
	out_left = out_size;
	cd = iconv_open("UTF-8", from);
	if (!buf || cd == (iconv_t)-1 || iconv(cd, &in, &in_left, &out, &out_left) == (size_t)-1) {
		perror("iconv");
		abort();
	}
	iconv_close(cd);
	printf("\"%s\"", buf);
	free(buf);
}

static void print_attr_value(const struct side_attr_value *v)
{
	const union side_integer_value *i = &v->u.integer_value;

	switch (side_enum_get(v->type)) {
	case SIDE_ATTR_TYPE_BOOL:
		printf("%s", v->u.bool_value ? "true" : "false");
		break;
	case SIDE_ATTR_TYPE_U8:
		printf("%" PRIu8, i->side_u8);
		break;
	case SIDE_ATTR_TYPE_U16:
		printf("%" PRIu16, i->side_u16);
		break;
	case SIDE_ATTR_TYPE_U32:
		printf("%" PRIu32, i->side_u32);
		break;
	case SIDE_ATTR_TYPE_U64:
		printf("%" PRIu64, i->side_u64);
		break;
	case SIDE_ATTR_TYPE_S8:
		printf("%" PRId8, i->side_s8);
		break;
	case SIDE_ATTR_TYPE_S16:
		printf("%" PRId16, i->side_s16);
		break;
	case SIDE_ATTR_TYPE_S32:
		printf("%" PRId32, i->side_s32);
		break;
	case SIDE_ATTR_TYPE_S64:
		printf("%" PRId64, i->side_s64);
		break;
	case SIDE_ATTR_TYPE_U128:
	case SIDE_ATTR_TYPE_S128:
		if (i->side_u128_split[SIDE_INTEGER128_SPLIT_HIGH])
			printf("0x%" PRIx64 "%016" PRIx64,
			       i->side_u128_split[SIDE_INTEGER128_SPLIT_HIGH],
			       i->side_u128_split[SIDE_INTEGER128_SPLIT_LOW]);
		else
			printf("0x%" PRIx64, i->side_u128_split[SIDE_INTEGER128_SPLIT_LOW]);
		break;
	case SIDE_ATTR_TYPE_FLOAT_BINARY32:
		printf("%g", (double)v->u.float_value.side_float_binary32);
		break;
	case SIDE_ATTR_TYPE_FLOAT_BINARY64:
		printf("%g", v->u.float_value.side_float_binary64);
		break;
	case SIDE_ATTR_TYPE_STRING:
		print_string(side_ptr_get(v->u.string_value.p), v->u.string_value.unit_size,
			     side_enum_get(v->u.string_value.byte_order));
		break;
	case SIDE_ATTR_TYPE_NULL:
		printf("<NULL TYPE>");
		break;
	default:
		fprintf(stderr, "ERROR: <UNKNOWN ATTRIBUTE TYPE>");
		abort();
	}
}

void print_attributes(const char *prefix, const char *sep, const struct side_attr *attr,
		      uint32_t nr)
{
	uint32_t i;

	if (!nr)
		return;
	printf("%s%s [", prefix, sep);
	for (i = 0; i < nr; i++) {
		printf("%s{ key%s ", i ? ", " : " ", sep);
		print_string(side_ptr_get(attr[i].key.p), attr[i].key.unit_size,
			     side_enum_get(attr[i].key.byte_order));
		printf(", value%s ", sep);
		print_attr_value(&attr[i].value);
		printf(" }");
	}
	printf(" ]");
}

void print_type_header(const char *prefix, const char *sep, const struct side_attr *attr,
		       uint32_t nr)
{
	print_attributes("attr", sep, attr, nr);
	printf("%s%s%s ", nr ? ", " : "", prefix, sep);
}

static uint64_t swap_if(uint64_t v, int size, bool reverse)
{
	if (!reverse)
		return v;
	switch (size) {
	case 2:
		return __builtin_bswap16(v);
	case 4:
		return __builtin_bswap32(v);
	case 8:
		return __builtin_bswap64(v);
	}
	return v;
}

union int_value load_integer(const struct side_type_integer *type,
			     const union side_integer_value *value, uint16_t offset_bits,
			     uint16_t *len_bits_out)
{
	bool reverse = side_enum_get(type->byte_order) != SIDE_TYPE_BYTE_ORDER_HOST;
	uint16_t len_bits = type->len_bits ? type->len_bits : type->integer_size * CHAR_BIT;
	union int_value v = {};
	uint64_t raw;

	if (type->integer_size == 16) {
		int lo = reverse ? SIDE_INTEGER128_SPLIT_HIGH : SIDE_INTEGER128_SPLIT_LOW;

		v.u[SIDE_INTEGER128_SPLIT_LOW] = swap_if(value->side_u128_split[lo], 8, reverse);
		v.u[SIDE_INTEGER128_SPLIT_HIGH] = swap_if(value->side_u128_split[!lo], 8, reverse);
		goto cleanup;
	}
	switch (type->integer_size) {
	case 1:
		raw = type->signedness ? (uint64_t)value->side_s8 : value->side_u8;
		break;
	case 2:
		raw = swap_if(value->side_u16, 2, reverse);
		raw = type->signedness ? (uint64_t)(int16_t)raw : raw;
		break;
	case 4:
		raw = swap_if(value->side_u32, 4, reverse);
		raw = type->signedness ? (uint64_t)(int32_t)raw : raw;
		break;
	case 8:
		raw = swap_if(value->side_u64, 8, reverse);
		break;
	default:
		abort();
	}
	/* A gather bit field: its bits start offset_bits up in the unit. */
	if (len_bits + offset_bits > type->integer_size * CHAR_BIT)
		abort();
	raw >>= offset_bits;
	v.u[SIDE_INTEGER128_SPLIT_LOW] = raw;
	if (type->signedness && (int64_t)raw < 0)
		v.u[SIDE_INTEGER128_SPLIT_HIGH] = ~0ULL;
	if (len_bits < 64) {
		v.u[SIDE_INTEGER128_SPLIT_LOW] &= (1ULL << len_bits) - 1;
		v.u[SIDE_INTEGER128_SPLIT_HIGH] = 0;
		/* Sign-extend a signed bit field. */
		if (type->signedness && (v.u[SIDE_INTEGER128_SPLIT_LOW] >> (len_bits - 1)) & 1) {
			v.u[SIDE_INTEGER128_SPLIT_LOW] |= ~((1ULL << len_bits) - 1);
			v.u[SIDE_INTEGER128_SPLIT_HIGH] = ~0ULL;
		}
	}
cleanup:
	if (len_bits_out)
		*len_bits_out = len_bits;
	return v;
}

static enum display_base attr_base(const struct side_attr *attr, uint32_t nr, enum display_base def)
{
	uint32_t i;

	for (i = 0; i < nr; i++) {
		const struct side_attr_value *v = &attr[i].value;
		int64_t base;

		if (attr[i].key.unit_size != 1 ||
		    strcmp(side_ptr_get(attr[i].key.p), "std.integer.base"))
			continue;
		/* The attribute holds its own width: narrow it as its type says. */
		base = v->u.integer_value.side_s64;
		switch (side_enum_get(v->type)) {
		case SIDE_ATTR_TYPE_U8:
		case SIDE_ATTR_TYPE_S8:
			base = v->u.integer_value.side_u8;
			break;
		case SIDE_ATTR_TYPE_U16:
		case SIDE_ATTR_TYPE_S16:
			base = v->u.integer_value.side_u16;
			break;
		case SIDE_ATTR_TYPE_U32:
		case SIDE_ATTR_TYPE_S32:
			base = v->u.integer_value.side_u32;
			break;
		default:
			break;
		}
		switch (base) {
		case 2:
			return BASE_2;
		case 8:
			return BASE_8;
		case 10:
			return BASE_10;
		case 16:
			return BASE_16;
		}
		fprintf(stderr, "Unexpected integer display base: %" PRId64 "\n", base);
		abort();
	}
	return def;
}

static void print_u128(unsigned __int128 v, unsigned base)
{
	char buf[130];
	int i = sizeof(buf) - 1;

	buf[i] = 0;
	do {
		buf[--i] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	printf("%s", buf + i);
}

void print_integer(const char *sep, const struct side_type_integer *type,
		   const union side_integer_value *value, uint16_t offset_bits,
		   enum display_base def)
{
	const struct side_attr *attr = side_array_elements(&type->attributes);
	uint32_t nr = side_array_length(&type->attributes);
	uint16_t len_bits;
	union int_value v = load_integer(type, value, offset_bits, &len_bits);
	unsigned __int128 u = (unsigned __int128)v.u[SIDE_INTEGER128_SPLIT_HIGH] << 64 |
			      v.u[SIDE_INTEGER128_SPLIT_LOW];
	enum display_base base = attr_base(attr, nr, def);
	int bit;

	print_type_header("value", sep, attr, nr);
	/* Other bases than 10 show the bits of the field only. */
	if (base != BASE_10 && len_bits < 128)
		u &= ((unsigned __int128)1 << len_bits) - 1;
	switch (base) {
	case BASE_2:
		printf("0b");
		for (bit = len_bits - 1; bit >= 0; bit--)
			putchar((u >> bit) & 1 ? '1' : '0');
		break;
	case BASE_8:
		printf("0o");
		print_u128(u, 8);
		break;
	case BASE_16:
		printf("0x");
		print_u128(u, 16);
		break;
	case BASE_10:
		if (type->signedness && (__int128)u < 0) {
			putchar('-');
			u = -u;
		}
		print_u128(u, 10);
		break;
	}
}

void print_bool(const char *sep, const struct side_type_bool *type,
		const union side_bool_value *value, uint16_t offset_bits)
{
	bool reverse = side_enum_get(type->byte_order) != SIDE_TYPE_BYTE_ORDER_HOST;
	uint16_t len_bits = type->len_bits ? type->len_bits : type->bool_size * CHAR_BIT;
	uint64_t v;

	switch (type->bool_size) {
	case 1:
		v = value->side_bool8;
		break;
	case 2:
		v = swap_if(value->side_bool16, 2, reverse);
		break;
	case 4:
		v = swap_if(value->side_bool32, 4, reverse);
		break;
	case 8:
		v = swap_if(value->side_bool64, 8, reverse);
		break;
	default:
		abort();
	}
	if (len_bits + offset_bits > type->bool_size * CHAR_BIT)
		abort();
	v >>= offset_bits;
	if (len_bits < 64)
		v &= (1ULL << len_bits) - 1;
	print_type_header("value", sep, side_array_elements(&type->attributes),
			  side_array_length(&type->attributes));
	printf("%s", v ? "true" : "false");
}

void print_float(const char *sep, const struct side_type_float *type,
		 const union side_float_value *value)
{
	bool reverse = side_enum_get(type->byte_order) != SIDE_TYPE_FLOAT_WORD_ORDER_HOST;
	union {
		uint32_t u;
		float f;
	} f32;
	union {
		uint64_t u;
		double f;
	} f64;

	print_type_header("value", sep, side_array_elements(&type->attributes),
			  side_array_length(&type->attributes));
	switch (type->float_size) {
	case 4:
		f32.f = value->side_float_binary32;
		f32.u = swap_if(f32.u, 4, reverse);
		printf("%g", (double)f32.f);
		break;
	case 8:
		f64.f = value->side_float_binary64;
		f64.u = swap_if(f64.u, 8, reverse);
		printf("%g", f64.f);
		break;
#if defined(__HAVE_FLOAT16) && __HAVE_FLOAT16
	case 2: {
		union {
			uint16_t u;
			_Float16 f;
		} f16 = {.f = value->side_float_binary16};

		f16.u = swap_if(f16.u, 2, reverse);
		printf("%g", (double)f16.f);
		break;
	}
#endif
#if defined(__HAVE_FLOAT128) && __HAVE_FLOAT128
	case 16: {
		union {
			unsigned char b[16];
			_Float128 f;
		} f128 = {.f = value->side_float_binary128};
		int i;

		for (i = 0; reverse && i < 8; i++) {
			unsigned char c = f128.b[i];

			f128.b[i] = f128.b[15 - i];
			f128.b[15 - i] = c;
		}
		printf("%Lg", (long double)f128.f);
		break;
	}
#endif
	default:
		fprintf(stderr, "ERROR: Unsupported binary%u float type\n", type->float_size * 8);
		abort();
	}
}

void print_enum_labels(const struct side_enum_mappings *mappings, union int_value v)
{
	const struct side_enum_mapping *m;
	uint32_t n = 0;

	printf(", labels: [ ");
	side_for_each_element_in_array(m, &mappings->mappings)
	{
		if (v.s[SIDE_INTEGER128_SPLIT_LOW] < m->range_begin ||
		    v.s[SIDE_INTEGER128_SPLIT_LOW] > m->range_end)
			continue;
		printf("%s", n++ ? ", " : "");
		print_string(side_ptr_get(m->label.p), m->label.unit_size,
			     side_enum_get(m->label.byte_order));
	}
	if (!n)
		printf("<NO LABEL>");
	printf(" ]");
}
