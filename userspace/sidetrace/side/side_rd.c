// SPDX-License-Identifier: MIT
/* Bounded reads of SIDE description data, and attributes as text (side_rd.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "events/events.h"
#include "side/side_rd.h"
#include "util/textbuf.h"

void rd_fail(struct rd *rd, const char *fmt, ...)
{
	va_list ap;

	if (rd->nr_errors++)
		return;
	va_start(ap, fmt);
	vsnprintf(rd->err, sizeof(rd->err), fmt, ap);
	va_end(ap);
}

bool rd_read(struct rd *rd, uint64_t addr, void *buf, size_t len, const char *what)
{
	if (st_elf_read(rd->e, addr, buf, len))
		return true;
	rd_fail(rd, "%s at 0x%" PRIx64 " is outside the file", what, addr);
	return false;
}

/* Read a pointer slot; a null pointer is a failure too. */
bool rd_ptr(struct rd *rd, uint64_t slot, uint64_t *v, const char *what)
{
	if (!st_elf_read_ptr(rd->e, slot, v)) {
		rd_fail(rd, "%s pointer at 0x%" PRIx64 " is outside the file", what, slot);
		return false;
	}
	if (!*v) {
		rd_fail(rd, "%s pointer at 0x%" PRIx64 " is null", what, slot);
		return false;
	}
	return true;
}

char *rd_str(struct rd *rd, uint64_t slot, unsigned int unit_size, const char *what)
{
	uint64_t p;
	char *s;

	if (!rd_ptr(rd, slot, &p, what))
		return NULL;
	s = st_elf_read_str(rd->e, p, unit_size, ST_MAX_NAME);
	if (!s)
		rd_fail(rd,
			"%s at 0x%" PRIx64 " is unreadable, unterminated or longer than %d units",
			what, p, ST_MAX_NAME);
	return s;
}

/* struct side_type_raw_string at addr. */
char *rd_raw_string(struct rd *rd, uint64_t addr, const char *what)
{
	struct side_type_raw_string rs;

	if (!rd_read(rd, addr, &rs, sizeof(rs), what))
		return NULL;
	return rd_str(rd, addr + offsetof(struct side_type_raw_string, p), rs.unit_size, what);
}

/* IEEE 754 binary16 to double, for attribute display. */
static double half_to_double(uint16_t h)
{
	int exp = (h >> 10) & 0x1f;
	double m = h & 0x3ff;
	double v;

	if (exp == 0)
		v = m / 1024.0 / 16384.0;
	else if (exp == 31)
		v = m ? __builtin_nan("") : __builtin_inf();
	else
		v = (1.0 + m / 1024.0) * __builtin_ldexp(1.0, exp - 15);
	return (h & 0x8000) ? -v : v;
}

static void rd_attr_value(struct rd *rd, struct st_textbuf *tb, uint64_t addr,
			  const struct side_attr_value *v)
{
	const union side_integer_value *i = &v->u.integer_value;
	uint64_t lo = i->side_u128_split[SIDE_INTEGER128_SPLIT_LOW];
	uint64_t hi = i->side_u128_split[SIDE_INTEGER128_SPLIT_HIGH];
	char *s;
	float f;
	double d;
	uint16_t h;

	switch (v->type.v) {
	case SIDE_ATTR_TYPE_NULL:
		st_tb_puts(tb, "null");
		break;
	case SIDE_ATTR_TYPE_BOOL:
		st_tb_puts(tb, v->u.bool_value ? "true" : "false");
		break;
	case SIDE_ATTR_TYPE_U8:
		st_tb_printf(tb, "%u", i->side_u8);
		break;
	case SIDE_ATTR_TYPE_U16:
		st_tb_printf(tb, "%u", i->side_u16);
		break;
	case SIDE_ATTR_TYPE_U32:
		st_tb_printf(tb, "%" PRIu32, i->side_u32);
		break;
	case SIDE_ATTR_TYPE_U64:
		st_tb_printf(tb, "%" PRIu64, i->side_u64);
		break;
	case SIDE_ATTR_TYPE_S8:
		st_tb_printf(tb, "%d", i->side_s8);
		break;
	case SIDE_ATTR_TYPE_S16:
		st_tb_printf(tb, "%d", i->side_s16);
		break;
	case SIDE_ATTR_TYPE_S32:
		st_tb_printf(tb, "%" PRId32, i->side_s32);
		break;
	case SIDE_ATTR_TYPE_S64:
		st_tb_printf(tb, "%" PRId64, i->side_s64);
		break;
	case SIDE_ATTR_TYPE_U128:
		if (!hi)
			st_tb_printf(tb, "%" PRIu64, lo);
		else
			st_tb_printf(tb, "0x%" PRIx64 "%016" PRIx64, hi, lo);
		break;
	case SIDE_ATTR_TYPE_S128:
		/* Decimal when the value fits in 64 bits, else raw hex. */
		if (hi == ((int64_t)lo < 0 ? UINT64_MAX : 0))
			st_tb_printf(tb, "%" PRId64, (int64_t)lo);
		else
			st_tb_printf(tb, "0x%" PRIx64 "%016" PRIx64, hi, lo);
		break;
	case SIDE_ATTR_TYPE_FLOAT_BINARY16:
		memcpy(&h, &v->u.float_value, sizeof(h));
		st_tb_printf(tb, "%g", half_to_double(h));
		break;
	case SIDE_ATTR_TYPE_FLOAT_BINARY32:
		memcpy(&f, &v->u.float_value, sizeof(f));
		st_tb_printf(tb, "%g", f);
		break;
	case SIDE_ATTR_TYPE_FLOAT_BINARY64:
		memcpy(&d, &v->u.float_value, sizeof(d));
		st_tb_printf(tb, "%g", d);
		break;
	case SIDE_ATTR_TYPE_FLOAT_BINARY128:
		st_tb_printf(tb, "<binary128 0x%" PRIx64 "%016" PRIx64 ">", hi, lo);
		break;
	case SIDE_ATTR_TYPE_STRING:
		s = rd_raw_string(rd, addr + offsetof(struct side_attr_value, u.string_value),
				  "attribute string");
		st_tb_printf(tb, "\"%s\"", s ? s : "?");
		free(s);
		break;
	default:
		rd_fail(rd, "unknown attribute type %" PRIu32 " at 0x%" PRIx64, v->type.v, addr);
		st_tb_printf(tb, "<attribute type %" PRIu32 ">", v->type.v);
		break;
	}
}

/* Render an attribute array as "key=value, ...", or NULL when empty. */
char *rd_attrs(struct rd *rd, uint64_t slot, uint32_t len)
{
	struct st_textbuf tb = {0};
	uint64_t base;
	uint32_t i;

	if (!len)
		return NULL;
	if (!rd_ptr(rd, slot, &base, "attribute list"))
		return NULL;
	if (len > ST_MAX_ATTRS) {
		rd_fail(rd, "%" PRIu32 " attributes, more than %d", len, ST_MAX_ATTRS);
		len = ST_MAX_ATTRS;
	}
	for (i = 0; i < len; i++) {
		uint64_t a = base + (uint64_t)i * sizeof(struct side_attr);
		unsigned char buf[sizeof(struct side_attr)];
		const struct side_attr *attr = (const void *)buf;
		char *key;

		if (!rd_read(rd, a, buf, sizeof(buf), "attribute"))
			break;
		key = rd_raw_string(rd, a + offsetof(struct side_attr, key), "attribute key");
		if (!key)
			break;
		st_tb_printf(&tb, "%s%s=", i ? ", " : "", key);
		free(key);
		rd_attr_value(rd, &tb, a + offsetof(struct side_attr, value), &attr->value);
	}
	if (!tb.len) {
		st_tb_free(&tb);
		return NULL;
	}
	return st_tb_take(&tb);
}
