/* SPDX-License-Identifier: MIT */
/*
 * Discovery unit tests. The test binary is its own fixture: it carries
 * hand-built SIDE descriptions (libside layout, in the libside sections)
 * and stapsdt probes, well-formed and hostile, and discovers itself from
 * its file and from its own process. Corrupted copies of itself check that
 * a damaged file yields errors, not crashes or hangs.
 */
#define _GNU_SOURCE
#define _SDT_HAS_SEMAPHORES 1
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <sys/stat.h>
#include <unistd.h>

#include <side/abi/event-description.h>
#include <side/abi/type-description.h>

#include "side/discover.h"
#include "targets/targets.h"
#include "objfile/elf.h"
#include "output/events_print.h"
#include "common/side_types.h"
#include "util/textbuf.h"

#include "unit.h"

/* ---- Hand-built descriptions ---------------------------------------- */

#define PTR(x) SIDE_PTR_INIT(x)
#define ARR(a) \
	{ \
		.elements = PTR(a), .length = SIDE_ARRAY_SIZE(a) \
	}
#define RAWSTR(s) \
	{ \
		.p = PTR(s), .unit_size = 1 \
	}
#define T_INT(label, sz, sgn) \
	{ \
		.type = SIDE_ENUM_INIT(label), \
		.u = {.side_integer = {.integer_size = (sz), .signedness = (sgn)} } \
	}
#define T_STRING \
	{ \
		.type = SIDE_ENUM_INIT(SIDE_TYPE_STRING_UTF8), \
		.u = {.side_string = {.unit_size = 1} } \
	}
#define T_IND(label, member, target) \
	{ \
		.type = SIDE_ENUM_INIT(label), .u = {.member = PTR(target) } \
	}
#define FIELD(n, ...) \
	{ \
		.field_name = PTR(n), .side_type = __VA_ARGS__ \
	}

/* Description in its section, and a pointer to it in the pointer section. */
#define DESC(id, prov, name, fld, nr, atl, nr_attrs, flg, lvl) \
	__attribute__((section("side_event_description"), \
		       used)) struct side_event_description id = { \
		.struct_size = sizeof(struct side_event_description), \
		.version = SIDE_EVENT_DESCRIPTION_ABI_VERSION, \
		.provider_name = PTR(prov), \
		.event_name = PTR(name), \
		.fields = {.elements = PTR(fld), .length = (nr)}, \
		.attributes = {.elements = PTR(atl), .length = (nr_attrs)}, \
		.flags = (flg), \
		.nr_side_type_label = _NR_SIDE_TYPE_LABEL, \
		.nr_side_attr_type = _NR_SIDE_ATTR_TYPE, \
		.loglevel = SIDE_ENUM_INIT(lvl), \
	}; \
	__attribute__((section("side_event_description_ptr"), \
		       used)) static struct side_event_description *id##_ptr = &id

static const struct side_type t_u8 = T_INT(SIDE_TYPE_U8, 1, 0);
static const struct side_type t_u16 = T_INT(SIDE_TYPE_U16, 2, 0);
static const struct side_type t_u32 = T_INT(SIDE_TYPE_U32, 4, 0);
static const struct side_type t_s64 = T_INT(SIDE_TYPE_S64, 8, 1);
static const struct side_type t_string = T_STRING;

static const struct side_attr id_attrs[] = {
	{.key = RAWSTR("unit"),
	 .value = {.type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_STRING),
		   .u = {.string_value = RAWSTR("ms")}}},
};

static const struct side_event_field inner_fields[] = {
	FIELD("port", T_INT(SIDE_TYPE_U16, 2, 0)),
};
static const struct side_type_struct inner_struct = {.fields = ARR(inner_fields)};

static const struct side_event_field peer_fields[] = {
	FIELD("addr", T_INT(SIDE_TYPE_U32, 4, 0)),
	FIELD("inner", T_IND(SIDE_TYPE_STRUCT, side_struct, &inner_struct)),
};
static const struct side_type_struct peer_struct = {.fields = ARR(peer_fields)};

static const struct side_type_array tags_array = {
	.elem_type = PTR(&t_string),
	.length = 3,
};
static const struct side_type_vla ids_vla = {
	.elem_type = PTR(&t_s64),
	.length_type = PTR(&t_u32),
};

static const struct side_enum_mapping state_mappings[] = {
	{.range_begin = 0, .range_end = 0, .label = RAWSTR("idle")},
	{.range_begin = 1, .range_end = 3, .label = RAWSTR("busy")},
	/* A UTF-16 label: discovery converts it to UTF-8. */
	{.range_begin = 4,
	 .range_end = 4,
	 .label = {.p = PTR((const void *)u"\u00fcn\u00ef"), .unit_size = 2}},
};
static const struct side_enum_mappings state_map = {.mappings = ARR(state_mappings)};

static const struct side_enum_bitmap_mapping flag_mappings[] = {
	{.range_begin = 0, .range_end = 0, .label = RAWSTR("A")},
	{.range_begin = 1, .range_end = 2, .label = RAWSTR("B")},
};
static const struct side_enum_bitmap_mappings flag_map = {.mappings = ARR(flag_mappings)};

static const struct side_type_optional opt_u16 = {.elem_type = PTR(&t_u16)};

static const struct side_variant_option choice_options[] = {
	{.range_begin = 0, .range_end = 0, .side_type = T_INT(SIDE_TYPE_U32, 4, 0)},
	{.range_begin = 1, .range_end = 2, .side_type = T_STRING},
};
static const struct side_type_variant choice_variant = {
	.options = ARR(choice_options),
	.selector = T_INT(SIDE_TYPE_U8, 1, 0),
};

static const struct side_event_field nested_fields[] = {
	FIELD("id", {.type = SIDE_ENUM_INIT(SIDE_TYPE_U32),
		     .u = {.side_integer = {.attributes = ARR(id_attrs), .integer_size = 4}}}),
	FIELD("peer", T_IND(SIDE_TYPE_STRUCT, side_struct, &peer_struct)),
	FIELD("tags", T_IND(SIDE_TYPE_ARRAY, side_array, &tags_array)),
	FIELD("ids", T_IND(SIDE_TYPE_VLA, side_vla, &ids_vla)),
	FIELD("state",
	      {.type = SIDE_ENUM_INIT(SIDE_TYPE_ENUM),
	       .u = {.side_enum = {.mappings = PTR(&state_map), .elem_type = PTR(&t_u8)}}}),
	FIELD("flags",
	      {.type = SIDE_ENUM_INIT(SIDE_TYPE_ENUM_BITMAP),
	       .u = {.side_enum_bitmap = {.mappings = PTR(&flag_map), .elem_type = PTR(&t_u32)}}}),
	FIELD("ratio", {.type = SIDE_ENUM_INIT(SIDE_TYPE_FLOAT_BINARY64),
			.u = {.side_float = {.float_size = 8}}}),
	FIELD("maybe", T_IND(SIDE_TYPE_OPTIONAL, side_optional, &opt_u16)),
	FIELD("choice", T_IND(SIDE_TYPE_VARIANT, side_variant, &choice_variant)),
	FIELD("gathered",
	      {.type = SIDE_ENUM_INIT(SIDE_TYPE_GATHER_INTEGER),
	       .u = {.side_gather =
			     {.u = {.side_integer = {.offset = 8,
						     .access_mode = SIDE_ENUM_INIT(
							     SIDE_TYPE_GATHER_ACCESS_POINTER),
						     .type = {.integer_size = 2,
							      .signedness = 1}}}}}}),
};

static const struct side_attr event_attrs[] = {
	{.key = RAWSTR("lang"),
	 .value = {.type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_STRING),
		   .u = {.string_value = RAWSTR("C")}}},
	{.key = RAWSTR("stable"),
	 .value = {.type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_BOOL), .u = {.bool_value = 1}}},
	{.key = RAWSTR("prio"),
	 .value = {.type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_S128),
		   .u = {.integer_value = {.side_s128_split = {-5, -1}}}}},
	{.key = RAWSTR("max"),
	 .value = {.type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_U64),
		   .u = {.integer_value = {.side_u64 = UINT64_MAX}}}},
};

DESC(ev_nested, "unit.prov", "nested-ev", nested_fields, SIDE_ARRAY_SIZE(nested_fields),
     event_attrs, SIDE_ARRAY_SIZE(event_attrs), 0, SIDE_LOGLEVEL_INFO);

static const struct side_event_field one_u32[] = {
	FIELD("x", T_INT(SIDE_TYPE_U32, 4, 0)),
};
DESC(ev_variadic, "unit.prov", "variadic_ev", one_u32, 1, NULL, 0, SIDE_EVENT_FLAG_VARIADIC,
     SIDE_LOGLEVEL_DEBUG);
DESC(ev_nosite, "unit.prov", "no_site", one_u32, 1, NULL, 0, 0, SIDE_LOGLEVEL_WARNING);
/* Its site passes one argument where the SIDE layout has three. */
DESC(ev_wrong, "unit.prov", "wrong_args", one_u32, 1, NULL, 0, 0, SIDE_LOGLEVEL_INFO);

/* Hostile: a struct that contains itself. */
static const struct side_type_struct cycle_struct;
static const struct side_event_field cycle_fields[] = {
	FIELD("self", T_IND(SIDE_TYPE_STRUCT, side_struct, &cycle_struct)),
};
static const struct side_type_struct cycle_struct = {.fields = ARR(cycle_fields)};
DESC(ev_cycle, "bad", "cycle", cycle_fields, 1, NULL, 0, 0, SIDE_LOGLEVEL_INFO);

/* Hostile: a label that no reader knows. */
static const struct side_event_field badlabel_fields[] = {
	FIELD("what", {.type = SIDE_ENUM_INIT(999)}),
	FIELD("after", T_INT(SIDE_TYPE_U8, 1, 0)),
};
DESC(ev_badlabel, "bad", "label", badlabel_fields, 2, NULL, 0, 0, SIDE_LOGLEVEL_INFO);

/* Hostile: a length of 2^32 - 1 for a one-element array. */
DESC(ev_huge, "bad", "huge", one_u32, UINT32_MAX, NULL, 0, 0, SIDE_LOGLEVEL_INFO);

/* Hostile: a name longer than any name should be. */
#define A16 "aaaaaaaaaaaaaaaa"
#define A256 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16
static const struct side_event_field longname_fields[] = {
	FIELD(A256 A256 A256 A256 A256, T_INT(SIDE_TYPE_U8, 1, 0)),
};
DESC(ev_longname, "bad", "longname", longname_fields, 1, NULL, 0, 0, SIDE_LOGLEVEL_INFO);

/* Hostile: a null field name and a null struct pointer. */
static const struct side_event_field null_fields[] = {
	FIELD(NULL, T_INT(SIDE_TYPE_U8, 1, 0)),
	FIELD("s", T_IND(SIDE_TYPE_STRUCT, side_struct, NULL)),
};
DESC(ev_null, "bad", "nullptr", null_fields, 2, NULL, 0, 0, SIDE_LOGLEVEL_INFO);

/* ---- Probe sites ------------------------------------------------------ */

/* sys/sdt.h with semaphores names them provider_name_semaphore. */
__attribute__((section(".probes"), used)) unsigned short unit_prov_nested_ev_semaphore;
__attribute__((section(".probes"), used)) unsigned short unit_prov_variadic_ev_semaphore;
__attribute__((section(".probes"), used)) unsigned short unit_prov_wrong_args_semaphore;
__attribute__((section(".probes"), used)) unsigned short plainprov_plain_probe_semaphore;
/* Zero-initialized, so in .bss: not file-backed, the kernel cannot count it. */
__attribute__((used)) unsigned short unit_prov_bss_sema_semaphore;

static volatile long sink;

__attribute__((noinline)) static void fire_nested_a(long v)
{
	/* As the SIDE layout has it: 10 field values, description, vector. */
	STAP_PROBE12(unit_prov, nested_ev, v, v, v, v, v, v, v, v, v, v, &ev_nested, &sink);
	sink = v;
}

__attribute__((noinline)) static void fire_nested_b(long v)
{
	STAP_PROBE12(unit_prov, nested_ev, v + 1, v, v, v, v, v, v, v, v, v, &ev_nested, &sink);
	sink = v;
}

__attribute__((noinline)) static void fire_others(long v)
{
	STAP_PROBE4(unit_prov, variadic_ev, v, &ev_variadic, &sink, &sink);
	STAP_PROBE1(unit_prov, wrong_args, v);
	STAP_PROBE(plainprov, plain_probe);
	STAP_PROBE(unit_prov, bss_sema);
	sink = v;
}

/* ---- Tests ------------------------------------------------------------ */

static const struct st_event *find(const struct st_event_list *l, const char *prov,
				   const char *name)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->events[i].provider, prov) && !strcmp(l->events[i].name, name))
			return &l->events[i];
	return NULL;
}

static const struct st_field *field(const struct st_event *ev, const char *n)
{
	uint32_t i;

	for (i = 0; ev && i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, n))
			return &ev->fields[i];
	return NULL;
}

static char *type_of(const struct st_event *ev, const char *n, bool verbose)
{
	const struct st_field *f = field(ev, n);

	return f ? st_type_to_string(&f->type, verbose) : NULL;
}

#define CHECK_TYPE(ev, name, verbose, expect) \
	do { \
		char *_s = type_of(ev, name, verbose); \
		CHECK_STR(_s, expect); \
		free(_s); \
	} while (0)

static int main_bias_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	/* The first object reported is the main program. */
	*(uintptr_t *)data = info->dlpi_addr;
	return 1;
}

static uintptr_t load_bias(void)
{
	uintptr_t bias = 0;

	dl_iterate_phdr(main_bias_cb, &bias);
	return bias;
}

static int file_byte(const char *path, uint64_t off)
{
	unsigned char b;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, &b, 1, off);
	close(fd);
	return n == 1 ? b : -1;
}

/* The well-formed events, as the file holds them. */
static void check_good_events(const struct st_event_list *l, const char *path)
{
	uintptr_t bias = load_bias();
	const struct st_event *ev, *plain;
	uint32_t i;

	ev = find(l, "unit.prov", "nested-ev");
	CHECK(ev != NULL);
	if (!ev)
		return;
	CHECK(ev->has_side);
	CHECK(!ev->error);
	CHECK_STR(ev->usdt_provider, "unit_prov");
	CHECK_STR(ev->usdt_name, "nested_ev");
	CHECK(ev->loglevel == SIDE_LOGLEVEL_INFO);
	CHECK(!ev->variadic);
	CHECK(ev->nr_fields == SIDE_ARRAY_SIZE(nested_fields));
	CHECK(ev->nr_sites == 2);
	/* Pointers went through relocations: addresses are the link-time ones. */
	CHECK(ev->desc_addr + bias == (uintptr_t)&ev_nested);
	CHECK_STR(ev->attrs, "lang=\"C\", stable=true, prio=-5, max=18446744073709551615");
	CHECK_TYPE(ev, "id", false, "u32");
	CHECK_TYPE(ev, "id", true, "u32 [unit=\"ms\"]");
	CHECK_TYPE(ev, "peer", false, "struct { addr: u32, inner: struct { port: u16 } }");
	CHECK_TYPE(ev, "tags", false, "array<string, 3>");
	CHECK_TYPE(ev, "ids", false, "vla<s64>");
	CHECK_TYPE(ev, "state", false, "enum<u8>");
	CHECK_TYPE(ev, "state", true, "enum<u8> { 0=idle, 1..3=busy, 4=\u00fcn\u00ef }");
	CHECK_TYPE(ev, "flags", true, "enum_bitmap<u32> { 0=A, 1..2=B }");
	CHECK_TYPE(ev, "ratio", false, "float64");
	CHECK_TYPE(ev, "maybe", false, "optional<u16>");
	CHECK_TYPE(ev, "choice", false, "variant<u8> { 0: u32, 1..2: string }");
	CHECK_TYPE(ev, "gathered", false, "gather<s16>");
	if (field(ev, "ids"))
		CHECK(field(ev, "ids")->type.length_type &&
		      field(ev, "ids")->type.length_type->label == SIDE_TYPE_U32);
	if (field(ev, "gathered")) {
		const struct st_type *g = &field(ev, "gathered")->type;

		CHECK(g->gather_offset == 8 && g->is_signed && g->size == 2 &&
		      g->gather_access == SIDE_TYPE_GATHER_ACCESS_POINTER);
	}
	for (i = 0; i < ev->nr_sites; i++) {
		const struct st_site *s = &ev->sites[i];

		/* sdt.h probes are a one-byte nop, in memory and in the file. */
		CHECK(*(const unsigned char *)(uintptr_t)(s->pc + bias) == 0x90);
		CHECK(file_byte(path, s->file_offset) == 0x90);
		CHECK(s->sema_addr + bias == (uintptr_t)&unit_prov_nested_ev_semaphore);
		CHECK(s->sema_offset != 0);
		CHECK(s->args && strstr(s->args, "8@"));
	}
	if (ev->nr_sites == 2)
		CHECK(ev->sites[0].pc != ev->sites[1].pc);

	ev = find(l, "unit.prov", "variadic_ev");
	CHECK(ev && ev->variadic && ev->nr_sites == 1 && ev->loglevel == SIDE_LOGLEVEL_DEBUG);
	CHECK(ev && !ev->error);
	ev = find(l, "unit.prov", "no_site");
	CHECK(ev && ev->has_side && ev->nr_sites == 0 && !ev->error);
	ev = find(l, "unit.prov", "wrong_args");
	CHECK(ev && ev->nr_sites == 1 && ev->error &&
	      strstr(ev->error, "has 1 SDT arguments, the SIDE layout has 3"));

	ev = find(l, "unit_prov", "bss_sema");
	CHECK(ev && !ev->has_side && ev->error && strstr(ev->error, "not in file-backed data"));
	plain = find(l, "plainprov", "plain_probe");
	CHECK(plain && !plain->has_side && plain->nr_sites == 1 && plain->nr_fields == 0);
	if (plain && plain->nr_sites)
		CHECK(plain->sites[0].sema_addr + bias ==
		      (uintptr_t)&plainprov_plain_probe_semaphore);
}

static bool error_has(const struct st_event *ev, const char *what)
{
	return ev && ev->error && strstr(ev->error, what);
}

static void check_hostile_events(const struct st_event_list *l)
{
	const struct st_event *ev;

	ev = find(l, "bad", "cycle");
	CHECK(error_has(ev, "nested more than 8 levels"));
	ev = find(l, "bad", "label");
	CHECK(error_has(ev, "unknown type label 999"));
	/* The fields after the unknown one are still there. */
	CHECK(ev && ev->nr_fields == 2 && field(ev, "after"));
	ev = find(l, "bad", "huge");
	CHECK(error_has(ev, "4294967295 fields, more than 1024"));
	ev = find(l, "bad", "longname");
	CHECK(error_has(ev, "field name"));
	ev = find(l, "bad", "nullptr");
	CHECK(error_has(ev, "null"));
	CHECK(ev && ev->nr_fields == 2 && !strcmp(ev->fields[0].name, "?"));
}

static void check_match(const struct st_event_list *l)
{
	size_t idx[8], n;

	n = st_events_match(l, "unit.*", "nested-ev", idx, 8);
	CHECK(n == 1 && !strcmp(l->events[idx[0]].name, "nested-ev"));
	/* The USDT spelling finds the same event. */
	n = st_events_match(l, "unit_prov", "nested_ev", idx, 8);
	CHECK(n == 1 && !strcmp(l->events[idx[0]].name, "nested-ev"));
	CHECK(st_events_match(l, "unit.prov", "*", NULL, 0) == 4);
	CHECK(st_events_match(l, "nope", NULL, NULL, 0) == 0);
	CHECK(st_events_match(l, NULL, "plain_*", idx, 1) == 1);
	CHECK(st_events_match(l, "*", "*", NULL, 0) == l->nr);
}

static void check_file(const char *self)
{
	struct st_event_list l = {0};
	char err[256] = "";
	int ret;

	ret = st_discover_file(self, &l, err, sizeof(err));
	CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "discover %s: %s\n", self, err);
	CHECK(l.nr == 11);
	if (l.nr)
		CHECK_STR(l.events[0].path, self);
	/* SIDE events come first, sorted; the plain probe last. */
	if (l.nr == 11) {
		CHECK_STR(l.events[0].provider, "bad");
		CHECK(!l.events[9].has_side && !l.events[10].has_side);
	}
	check_good_events(&l, self);
	check_hostile_events(&l);
	check_match(&l);
	st_event_list_free(&l);
	CHECK(l.nr == 0 && l.events == NULL);
}

static void check_pid(const char *self)
{
	struct st_event_list l = {0};
	const struct st_event *ev;
	char err[256] = "";
	int ret;

	ret = st_discover_pid(getpid(), &l, err, sizeof(err));
	CHECK(ret == 0);
	ev = find(&l, "unit.prov", "nested-ev");
	CHECK(ev && ev->nr_sites == 2);
	if (ev)
		CHECK_STR(ev->path, self);
	st_event_list_free(&l);

	ret = st_discover_pid(INT_MAX, &l, err, sizeof(err));
	CHECK(ret == -ESRCH && strstr(err, "no such process"));
	CHECK(l.nr == 0);
}

static void check_errors(void)
{
	struct st_event_list l = {0};
	char err[256], tmp[] = "/tmp/test_discovery_XXXXXX";
	int fd, ret;

	ret = st_discover_file("/nonexistent/file", &l, err, sizeof(err));
	CHECK(ret == -ENOENT && !strcmp(err, "no such file"));
	ret = st_discover_file("/", &l, err, sizeof(err));
	CHECK(ret == -EISDIR);
	fd = mkstemp(tmp);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(write(fd, "#!/bin/sh\necho not an ELF file at all\n", 38) == 38);
	close(fd);
	ret = st_discover_file(tmp, &l, err, sizeof(err));
	CHECK(ret == -ENOEXEC && !strcmp(err, "not an ELF file: a script (#!/bin/sh), not the "
					      "program it runs: name that program's ELF file"));
	unlink(tmp);
	CHECK(l.nr == 0);
}

static void check_resolve(const char *self)
{
	char path[PATH_MAX];

	CHECK(st_resolve_target(self, path, sizeof(path)) == 0 && !strcmp(path, self));
	CHECK(st_resolve_target("libc", path, sizeof(path)) == 0 && strstr(path, "libc.so"));
	CHECK(st_resolve_target("libc.so.6", path, sizeof(path)) == 0 && strstr(path, "libc.so.6"));
	CHECK(st_resolve_target("sh", path, sizeof(path)) == 0 && strstr(path, "/sh"));
	CHECK(st_resolve_target("libnot-a-library-here", path, sizeof(path)) == -ENOENT);
	CHECK(st_resolve_target("/no/such/file", path, sizeof(path)) == -ENOENT);
	CHECK(st_resolve_target(self, path, 4) == -ENAMETOOLONG);
}

static void check_helpers(void)
{
	struct st_textbuf tb = {0};
	char name[] = "my-app.v2:x";
	char *s;

	st_sanitize_name(name);
	CHECK_STR(name, "my_app_v2_x");
	CHECK_STR(st_loglevel_name(SIDE_LOGLEVEL_WARNING), "WARNING");
	CHECK(st_loglevel_name(8) == NULL);
	CHECK_STR(st_side_type_name(SIDE_TYPE_STRING_UTF8), "string");
	CHECK_STR(st_side_type_name(999), "unknown");
	st_tb_json_str(&tb, "a\"b\\c\n\x01");
	s = st_tb_take(&tb);
	CHECK_STR(s, "\"a\\\"b\\\\c\\n\\u0001\"");
	free(s);
}

/* Deterministic xorshift, so that a failure can be replayed. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int write_file(const char *path, const unsigned char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n <= 0)
			break;
		done += n;
	}
	close(fd);
	return done == len ? 0 : -1;
}

/* Discovery of a damaged copy must return, whatever it returns. */
static void discover_damaged(const char *path, unsigned int *errors)
{
	struct st_event_list l = {0};
	char err[256];
	size_t i;

	if (st_discover_file(path, &l, err, sizeof(err)))
		(*errors)++;
	/* Walk what came back, as list would. */
	for (i = 0; i < l.nr; i++) {
		uint32_t j;

		for (j = 0; j < l.events[i].nr_fields; j++) {
			char *s = st_type_to_string(&l.events[i].fields[j].type, true);

			free(s);
		}
	}
	st_event_list_free(&l);
}

static void check_corrupt(const char *self)
{
	static const char *const targets[] = {
		".note.stapsdt",
		"side_event_description_ptr",
		"side_event_description",
		".rela.dyn",
		".data.rel.ro",
		".rodata",
		".dynsym",
	};
	char tmp[] = "/tmp/test_discovery_elf_XXXXXX";
	unsigned char *orig = NULL, *buf = NULL;
	unsigned int errors = 0, runs = 0;
	uint64_t lo[8], hi[8], seed = 0x5eed;
	size_t nr_targets = 0, size, i, k;
	struct st_elf e;
	char err[256];
	struct stat st;
	int fd;

	fd = mkstemp(tmp);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	if (stat(self, &st) || st_elf_open(self, &e, err, sizeof(err)))
		goto cleanup;
	size = st.st_size;
	orig = malloc(size);
	buf = malloc(size);
	if (!orig || !buf) {
		st_elf_close(&e);
		goto cleanup;
	}
	memcpy(orig, e.image, size);
	/* The headers, then the sections discovery reads. */
	lo[nr_targets] = 0;
	hi[nr_targets++] = 4096;
	for (i = 0; i < SIDE_ARRAY_SIZE(targets); i++) {
		GElf_Shdr sh;

		if (st_elf_find_section(&e, targets[i], &sh) && sh.sh_size &&
		    sh.sh_type != SHT_NOBITS) {
			lo[nr_targets] = sh.sh_offset;
			hi[nr_targets++] = sh.sh_offset + sh.sh_size;
		}
	}
	st_elf_close(&e);
	CHECK(nr_targets >= 6);

	/* Truncated copies, at every 1/64th and one byte short. */
	for (i = 0; i <= 64; i++) {
		size_t len = i == 64 ? size - 1 : size * i / 64;

		if (write_file(tmp, orig, len))
			continue;
		discover_damaged(tmp, &errors);
		runs++;
	}
	/* Copies with random bytes overwritten in one region at a time. */
	for (i = 0; i < 400; i++) {
		size_t r = i % nr_targets, span = hi[r] - lo[r];

		memcpy(buf, orig, size);
		for (k = 0; k < 8; k++) {
			size_t at = lo[r] + rng_next(&seed) % span;
			uint64_t v = rng_next(&seed);

			/* Sometimes all-ones: lengths of 2^32 and wild pointers. */
			buf[at] = (v & 3) == 0 ? 0xff : (unsigned char)(v >> 8);
		}
		if (write_file(tmp, buf, size))
			continue;
		discover_damaged(tmp, &errors);
		runs++;
	}
	CHECK(runs == 465);
	/* Truncation to under a header cannot succeed. */
	CHECK(errors > 0);
cleanup:
	free(orig);
	free(buf);
	unlink(tmp);
}

int main(void)
{
	char self[PATH_MAX];
	ssize_t n;

	/* Keep the probe sites reachable so that they are not optimized out. */
	fire_nested_a(1);
	fire_nested_b(2);
	fire_others(3);

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	CHECK(n > 0);
	if (n <= 0)
		goto out;
	self[n] = '\0';
	check_helpers();
	check_file(self);
	check_pid(self);
	check_errors();
	check_resolve(self);
	check_corrupt(self);
out:
	return unit_summary();
}
