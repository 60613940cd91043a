// SPDX-License-Identifier: MIT
/*
 * The SIDE events of object files as text (one line per field, types as
 * "array<string, 3>") or as JSON documents with the full type trees.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "events/events.h"
#include "objfile/sdt_args.h"
#include "parse/lexer.h"
#include "output/events_print.h"
#include "util/escape.h"
#include "util/textbuf.h"

static void type_text(struct st_textbuf *tb, const struct st_type *t, bool verbose);

static void fields_text(struct st_textbuf *tb, const struct st_field *f, uint32_t nr, bool verbose)
{
	uint32_t i;

	st_tb_puts(tb, "{ ");
	for (i = 0; i < nr; i++) {
		st_tb_puts(tb, i ? ", " : "");
		st_escape_text(tb, f[i].name);
		st_tb_puts(tb, ": ");
		type_text(tb, &f[i].type, verbose);
	}
	st_tb_puts(tb, nr ? " }" : "}");
}

static void enum_text(struct st_textbuf *tb, const struct st_type *t)
{
	uint32_t i;

	st_tb_puts(tb, " { ");
	for (i = 0; i < t->nr_enum; i++) {
		st_tb_puts(tb, i ? ", " : "");
		if (t->enum_begin[i] == t->enum_end[i])
			st_tb_printf(tb, "%" PRId64, t->enum_begin[i]);
		else
			st_tb_printf(tb, "%" PRId64 "..%" PRId64, t->enum_begin[i], t->enum_end[i]);
		st_tb_putc(tb, '=');
		st_escape_text(tb, t->enum_labels[i]);
	}
	st_tb_puts(tb, " }");
}

/* Name of a scalar by size, for gather types whose label says no more. */
static void gather_scalar_text(struct st_textbuf *tb, const struct st_type *t)
{
	switch (t->label) {
	case SIDE_TYPE_GATHER_BOOL:
		st_tb_puts(tb, "bool");
		break;
	case SIDE_TYPE_GATHER_BYTE:
		st_tb_puts(tb, "byte");
		break;
	case SIDE_TYPE_GATHER_POINTER:
		st_tb_puts(tb, "pointer");
		break;
	case SIDE_TYPE_GATHER_INTEGER:
		st_tb_printf(tb, "%c%u", t->is_signed ? 's' : 'u', t->size * 8);
		break;
	case SIDE_TYPE_GATHER_FLOAT:
		st_tb_printf(tb, "float%u", t->size * 8);
		break;
	case SIDE_TYPE_GATHER_STRING:
		st_tb_puts(tb, t->size > 1 ? (t->size == 2 ? "string16" : "string32") : "string");
		break;
	}
}

/* A child type that is missing because its pointer was bad shows as "?". */
static void elem_text(struct st_textbuf *tb, const struct st_type *t, bool verbose)
{
	if (t)
		type_text(tb, t, verbose);
	else
		st_tb_putc(tb, '?');
}

static void type_text(struct st_textbuf *tb, const struct st_type *t, bool verbose)
{
	switch (t->label) {
	case SIDE_TYPE_STRUCT:
		st_tb_puts(tb, "struct ");
		fields_text(tb, t->fields, t->nr_fields, verbose);
		break;
	case SIDE_TYPE_GATHER_STRUCT:
		st_tb_puts(tb, "gather struct ");
		fields_text(tb, t->fields, t->nr_fields, verbose);
		break;
	case SIDE_TYPE_VARIANT:
		st_tb_puts(tb, "variant<");
		elem_text(tb, t->elem, verbose);
		st_tb_puts(tb, "> ");
		fields_text(tb, t->fields, t->nr_fields, verbose);
		break;
	case SIDE_TYPE_ARRAY:
	case SIDE_TYPE_GATHER_ARRAY:
		st_tb_puts(tb, t->label == SIDE_TYPE_ARRAY ? "array<" : "gather array<");
		elem_text(tb, t->elem, verbose);
		st_tb_printf(tb, ", %" PRIu32 ">", t->array_len);
		break;
	case SIDE_TYPE_OPTIONAL:
	case SIDE_TYPE_VLA:
	case SIDE_TYPE_VLA_VISITOR:
	case SIDE_TYPE_GATHER_VLA:
	case SIDE_TYPE_ENUM:
	case SIDE_TYPE_ENUM_BITMAP:
	case SIDE_TYPE_GATHER_ENUM:
		st_tb_puts(tb, t->label == SIDE_TYPE_GATHER_VLA	   ? "gather vla"
			       : t->label == SIDE_TYPE_GATHER_ENUM ? "gather enum"
								   : st_type_name(t));
		st_tb_putc(tb, '<');
		elem_text(tb, t->elem, verbose);
		st_tb_putc(tb, '>');
		if (verbose && t->nr_enum)
			enum_text(tb, t);
		break;
	case SIDE_TYPE_GATHER_BOOL:
	case SIDE_TYPE_GATHER_INTEGER:
	case SIDE_TYPE_GATHER_BYTE:
	case SIDE_TYPE_GATHER_POINTER:
	case SIDE_TYPE_GATHER_FLOAT:
	case SIDE_TYPE_GATHER_STRING:
		st_tb_puts(tb, "gather<");
		gather_scalar_text(tb, t);
		st_tb_putc(tb, '>');
		break;
	case ST_TYPE_UNREADABLE:
		st_tb_putc(tb, '?');
		break;
	default:
		st_tb_puts(tb, st_type_name(t));
		if (!strcmp(st_type_name(t), "unknown"))
			st_tb_printf(tb, "(%u)", t->label);
		break;
	}
	if (!verbose)
		return;
	if (t->len_bits && t->len_bits != t->size * 8)
		st_tb_printf(tb, ":%u", t->len_bits);
	if (t->byte_order == SIDE_TYPE_BYTE_ORDER_BE)
		st_tb_puts(tb, " (big endian)");
	if (t->attrs) {
		st_tb_puts(tb, " [");
		st_escape_text(tb, t->attrs);
		st_tb_putc(tb, ']');
	}
}

char *st_type_to_string(const struct st_type *t, bool verbose)
{
	struct st_textbuf tb = {0};

	type_text(&tb, t, verbose);
	return st_tb_take(&tb);
}

/* "provider:event", both from the binary. */
static void print_names(FILE *f, const char *provider, const char *name)
{
	st_fputs_text(f, provider);
	fputc(':', f);
	st_fputs_text(f, name);
}

/* A label, then a string from the binary, then the end of the line. */
static void print_line(FILE *f, const char *label, const char *s)
{
	fputs(label, f);
	st_fputs_text(f, s);
	fputc('\n', f);
}

/* "char[16]" declaring name: "char name[16]", as C puts an array's bounds. */
static void print_c_decl(FILE *f, const char *c_name, const char *name)
{
	const char *bounds = strrchr(c_name, '[');
	char *base;

	/* "char[]", a record's variable array, keeps its bounds with the type. */
	if (!bounds || bounds[1] == ']' || bounds[strlen(bounds) - 1] != ']')
		bounds = c_name + strlen(c_name);
	base = strndup(c_name, bounds - c_name);
	st_fputs_text(f, base ? base : "?");
	fputc(' ', f);
	st_fputs_text(f, name);
	st_fputs_text(f, bounds);
	free(base);
}

/* The event's fields, one "    name: type" line each. */
static void print_fields(FILE *f, const struct st_event *ev, bool verbose)
{
	uint32_t i;

	for (i = 0; i < ev->nr_fields; i++) {
		char *s = st_type_to_string(&ev->fields[i].type, verbose);

		fputs("    ", f);
		/* A parameter as its source declares it, bpftrace's -lv line: "char** argv". */
		if (ev->fields[i].type.c_name) {
			print_c_decl(f, ev->fields[i].type.c_name, ev->fields[i].name);
		} else {
			st_fputs_text(f, ev->fields[i].name);
			/* The type's text escaped what it took from the binary. */
			fprintf(f, ": %s", s ? s : "?");
		}
		if (ev->fields[i].type.unreadable)
			fprintf(f, " (not readable here: %s)", ev->fields[i].type.unreadable);
		fputc('\n', f);
		free(s);
	}
}

static void print_event_text(FILE *f, const struct st_event *ev, bool verbose)
{
	const char *lvl = st_loglevel_name(ev->loglevel);
	uint32_t i;

	fputs("  ", f);
	print_names(f, ev->provider, ev->name);
	fputs("  ", f);
	if (!ev->has_side)
		fprintf(f, "(USDT, no SIDE description)  ");
	else if (lvl)
		fprintf(f, "[%s]  ", lvl);
	else
		fprintf(f, "[loglevel %" PRIu32 "]  ", ev->loglevel);
	fprintf(f, "%" PRIu32 " site%s%s\n", ev->nr_sites, ev->nr_sites == 1 ? "" : "s",
		ev->variadic ? "  variadic" : "");
	if (ev->error)
		print_line(f, "    warning: ", ev->error);
	if (verbose) {
		if (strcmp(ev->provider, ev->usdt_provider) || strcmp(ev->name, ev->usdt_name)) {
			fputs("    usdt: ", f);
			print_names(f, ev->usdt_provider, ev->usdt_name);
			fputc('\n', f);
		}
		if (ev->has_side)
			fprintf(f, "    description: 0x%" PRIx64 "\n", ev->desc_addr);
		if (ev->attrs)
			print_line(f, "    attributes: ", ev->attrs);
	}
	print_fields(f, ev, verbose);
	if (!verbose)
		return;
	for (i = 0; i < ev->nr_sites; i++) {
		const struct st_site *s = &ev->sites[i];

		fprintf(f, "    site 0x%" PRIx64 " (file offset 0x%" PRIx64 ")", s->pc,
			s->file_offset);
		if (s->sema_addr)
			fprintf(f, "  semaphore 0x%" PRIx64 " (file offset 0x%" PRIx64 ")",
				s->sema_addr, s->sema_offset);
		print_line(f, "  args: ", s->args);
	}
}

void st_list_print_text(FILE *f, const struct st_event_list *l, bool verbose)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		const struct st_event *ev = &l->events[i];

		if (!i || strcmp(ev->path, l->events[i - 1].path))
			print_line(f, "", ev->path);
		print_event_text(f, ev, verbose);
	}
}

/* A usdt: probe's arguments: their types and, as bpftrace has none, the operands of a site. */
static void print_operands(FILE *f, const struct st_event *ev)
{
	char op[64];
	uint32_t i;

	for (i = 0; i < ev->nr_fields; i++) {
		st_sdt_arg_text(ev->nr_sites ? ev->sites[0].args : NULL, i, op, sizeof(op));
		fprintf(f, "    %s: %s", ev->fields[i].name, st_type_name(&ev->fields[i].type));
		if (op[0]) {
			fputs(" (", f);
			st_fputs_text(f, op);
			fputc(')', f);
		}
		fputc('\n', f);
	}
}

/*
 * s as a word of a probe: in double quotes, '"' escaped, unless it reads
 * back without (a C++ signature has blanks: "geo::Calc::add(long, long)").
 * The text rule's escapes come first: a '"' after them is the name's.
 */
static void print_word(FILE *f, const char *s, bool plain)
{
	struct st_textbuf tb = {0};
	size_t i;

	if (plain) {
		st_fputs_text(f, s);
		return;
	}
	st_escape_text(&tb, s);
	fputc('"', f);
	for (i = 0; i < tb.len; i++) {
		if (tb.s[i] == '"')
			fputc('\\', f);
		fputc(tb.s[i], f);
	}
	fputc('"', f);
	st_tb_free(&tb);
}

void st_probe_print_text(FILE *f, const struct st_event *ev, bool fields)
{
	const struct st_probe_kind *kind = st_event_kind(ev);

	fprintf(f, "%s:", st_kind_probe_word(kind));
	/* A kernel probe has no file: kind:CATEGORY:NAME. */
	if (!kind->in_kernel) {
		print_word(f, ev->path, st_lex_plain_target(ev->path));
		fputc(':', f);
	}
	/* A perf event without a count is its name alone: software:faults. */
	if (kind->perf_events && !*ev->name)
		st_fputs_text(f, ev->provider);
	else if (*ev->provider)
		print_names(f, ev->provider, ev->name);
	else if (st_probe_kind_function(kind))
		print_word(f, ev->name, st_lex_plain_function(ev->name, kind->in_kernel));
	else
		st_fputs_text(f, ev->name);
	/* Copies of one function share its name: each says where it is. */
	if (ev->inlined) {
		fputs("  (inlined into ", f);
		st_fputs_text(f, ev->inlined);
		fprintf(f, " at 0x%llx)", (unsigned long long)(ev->nr_sites ? ev->sites[0].pc : 0));
	}
	fputc('\n', f);
	/* An SDT operand has no name or type: where it is, and its size. */
	if (fields && kind->args == ST_ARGS_SDT)
		print_operands(f, ev);
	else if (fields && ev->ctx_decl)
		fputs(ev->ctx_decl, f);
	else if (fields)
		print_fields(f, ev, false);
}

static void json_type(struct st_textbuf *tb, const struct st_type *t);

static void json_fields(struct st_textbuf *tb, const char *key, const struct st_field *f,
			uint32_t nr)
{
	uint32_t i;

	st_tb_printf(tb, ",\"%s\":[", key);
	for (i = 0; i < nr; i++) {
		st_tb_puts(tb, i ? ",{\"name\":" : "{\"name\":");
		st_tb_json_str(tb, f[i].name);
		st_tb_puts(tb, ",\"type\":");
		json_type(tb, &f[i].type);
		st_tb_putc(tb, '}');
	}
	st_tb_putc(tb, ']');
}

static void json_type(struct st_textbuf *tb, const struct st_type *t)
{
	uint32_t i;

	st_tb_printf(tb, "{\"kind\":\"%s\",\"label\":%u", st_type_name(t), t->label);
	if (t->size)
		st_tb_printf(tb, ",\"size\":%u", t->size);
	switch (t->label) {
	case SIDE_TYPE_U8 ... SIDE_TYPE_S128:
	case SIDE_TYPE_POINTER:
	case SIDE_TYPE_GATHER_INTEGER:
	case SIDE_TYPE_GATHER_POINTER:
		st_tb_printf(tb, ",\"signed\":%s", t->is_signed ? "true" : "false");
		break;
	case SIDE_TYPE_ARRAY:
	case SIDE_TYPE_GATHER_ARRAY:
		st_tb_printf(tb, ",\"length\":%" PRIu32, t->array_len);
		break;
	}
	if (t->len_bits)
		st_tb_printf(tb, ",\"len_bits\":%u", t->len_bits);
	if (t->byte_order == SIDE_TYPE_BYTE_ORDER_BE)
		st_tb_puts(tb, ",\"byte_order\":\"be\"");
	if (t->label >= SIDE_TYPE_GATHER_BOOL && t->label <= SIDE_TYPE_GATHER_ENUM &&
	    t->label != SIDE_TYPE_GATHER_ENUM) {
		st_tb_printf(
			tb, ",\"gather_offset\":%" PRIu64 ",\"access\":\"%s\"", t->gather_offset,
			t->gather_access == SIDE_TYPE_GATHER_ACCESS_POINTER ? "pointer" : "direct");
		if (t->gather_offset_bits)
			st_tb_printf(tb, ",\"gather_offset_bits\":%u", t->gather_offset_bits);
		if (t->gather_size)
			st_tb_printf(tb, ",\"gather_size\":%" PRIu32, t->gather_size);
	}
	if (t->attrs) {
		st_tb_puts(tb, ",\"attributes\":");
		st_tb_json_str(tb, t->attrs);
	}
	if (t->elem) {
		st_tb_puts(tb, t->label == SIDE_TYPE_VARIANT ? ",\"selector\":" : ",\"elem\":");
		json_type(tb, t->elem);
	}
	if (t->length_type) {
		st_tb_puts(tb, ",\"length_type\":");
		json_type(tb, t->length_type);
	}
	if (t->fields)
		json_fields(tb, t->label == SIDE_TYPE_VARIANT ? "options" : "fields", t->fields,
			    t->nr_fields);
	if (t->nr_enum) {
		st_tb_puts(tb, ",\"mappings\":[");
		for (i = 0; i < t->nr_enum; i++) {
			st_tb_printf(tb, "%s{\"begin\":%" PRId64 ",\"end\":%" PRId64 ",\"label\":",
				     i ? "," : "", t->enum_begin[i], t->enum_end[i]);
			st_tb_json_str(tb, t->enum_labels[i]);
			st_tb_putc(tb, '}');
		}
		st_tb_putc(tb, ']');
	}
	st_tb_putc(tb, '}');
}

static void json_event(struct st_textbuf *tb, const struct st_event *ev)
{
	const char *lvl = st_loglevel_name(ev->loglevel);
	uint32_t i;

	st_tb_puts(tb, "{\"path\":");
	st_tb_json_str(tb, ev->path);
	st_tb_puts(tb, ",\"provider\":");
	st_tb_json_str(tb, ev->provider);
	st_tb_puts(tb, ",\"event\":");
	st_tb_json_str(tb, ev->name);
	st_tb_puts(tb, ",\"usdt_provider\":");
	st_tb_json_str(tb, ev->usdt_provider);
	st_tb_puts(tb, ",\"usdt_name\":");
	st_tb_json_str(tb, ev->usdt_name);
	st_tb_printf(tb, ",\"side\":%s", ev->has_side ? "true" : "false");
	if (ev->has_side) {
		st_tb_printf(tb,
			     ",\"loglevel\":\"%s\",\"loglevel_value\":%" PRIu32
			     ",\"variadic\":%s,\"desc_addr\":%" PRIu64,
			     lvl ? lvl : "?", ev->loglevel, ev->variadic ? "true" : "false",
			     ev->desc_addr);
		if (ev->attrs) {
			st_tb_puts(tb, ",\"attributes\":");
			st_tb_json_str(tb, ev->attrs);
		}
		json_fields(tb, "fields", ev->fields, ev->nr_fields);
	}
	st_tb_printf(tb, ",\"nr_sites\":%" PRIu32 ",\"sites\":[", ev->nr_sites);
	for (i = 0; i < ev->nr_sites; i++) {
		const struct st_site *s = &ev->sites[i];

		st_tb_printf(tb,
			     "%s{\"pc\":%" PRIu64 ",\"offset\":%" PRIu64 ",\"semaphore\":%" PRIu64
			     ",\"semaphore_offset\":%" PRIu64 ",\"args\":",
			     i ? "," : "", s->pc, s->file_offset, s->sema_addr, s->sema_offset);
		st_tb_json_str(tb, s->args);
		st_tb_putc(tb, '}');
	}
	st_tb_putc(tb, ']');
	if (ev->error) {
		st_tb_puts(tb, ",\"error\":");
		st_tb_json_str(tb, ev->error);
	}
	st_tb_putc(tb, '}');
}

void st_list_print_json(FILE *f, const struct st_event_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		struct st_textbuf tb = {0};
		char *s;

		json_event(&tb, &l->events[i]);
		s = st_tb_take(&tb);
		if (s)
			fprintf(f, "%s\n", s);
		free(s);
	}
}
