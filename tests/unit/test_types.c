// SPDX-License-Identifier: MIT
/*
 * The SIDE type table (common/side_types.h) against the checker and the
 * compile step: every label, as a leaf field and, for structs and arrays,
 * as the container of a u32, goes through check -> compile. What the
 * checker accepts must compile to a load of that label; what it refuses
 * must be refused with the table's reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "compile/compile.h"
#include "check/checker.h"
#include "parse/parser.h"

#include "unit.h"
#include "fixed_events.h"

static struct st_type u32_type = {.label = SIDE_TYPE_U32, .size = 4};
static struct st_field member = {"m", {.label = SIDE_TYPE_U32, .size = 4}};
static struct st_field field = {.name = "f"};
/* One value, description, vector: what a one-field event's site passes. */
static struct st_site site = {.args = "8@%rax 8@%rbx 8@%rcx"};
static struct st_event event = {
	.path = "/app",
	.provider = "t",
	.name = "e",
	.usdt_provider = "t",
	.usdt_name = "e",
	.has_side = true,
	.fields = &field,
	.nr_fields = 1,
	.sites = &site,
	.nr_sites = 1,
};
static struct st_event_list app = {.events = &event, .nr = 1};

/* A field of type label whose children are u32: elem, member, length. */
static void set_field(uint16_t label)
{
	memset(&field.type, 0, sizeof(field.type));
	field.type.label = label;
	field.type.size = 4;
	field.type.elem = &u32_type;
	field.type.length_type = &u32_type;
	field.type.fields = &member;
	field.type.nr_fields = 1;
	field.type.array_len = 1;
}

/*
 * Checks and compiles "@[EXPR] = count()", or a printf of a float (which
 * is only printed); 1 checked, 2 compiled too.
 */
static int build(const char *expr, bool is_float, struct st_diag *diag, uint16_t *last_label)
{
	struct st_event_source es = {.probe_events = fixed_events, .ctx = &app};
	struct st_compiled c = {0};
	struct st_program *prog = NULL;
	char src[128];
	int ret = 0;

	memset(diag, 0, sizeof(*diag));
	if (is_float)
		snprintf(src, sizeof(src), "side:/app:t:e { printf(\"%%g\", %s); }", expr);
	else
		snprintf(src, sizeof(src), "side:/app:t:e { @[%s] = count(); }", expr);
	if (st_parse(src, "program", &prog, diag))
		goto cleanup;
	if (st_check(prog, &es, diag))
		goto cleanup;
	ret = 1;
	if (st_compile(prog, ST_COMPILE_VECTOR_ONLY, &c, diag) || c.nr_probes != 1 ||
	    c.probes[0].cfg.nr_loads != 1)
		goto cleanup;
	ret = 2;
	*last_label = c.probes[0].cfg.loads[0].steps[c.probes[0].cfg.loads[0].nr_steps - 1].label;
cleanup:
	st_compiled_free(&c);
	if (prog)
		st_program_free(prog);
	return ret;
}

/* The label a leaf of this type is read as, or 0xffff if none. */
static uint16_t readable_as(const struct st_type *t)
{
	const struct st_side_type *info = st_side_type(t->label);

	if (info->unreadable)
		return 0xffff;
	switch (info->type_class) {
	case ST_TC_INT:
	case ST_TC_BOOL:
	case ST_TC_FLOAT:
	case ST_TC_STRING:
		return t->label;
	case ST_TC_ENUM:
		return readable_as(t->elem);
	default:
		return 0xffff;
	}
}

/* One label as a leaf: accepted and compiled as the table says, or refused why. */
static void leaf(uint16_t label, char *name, size_t size)
{
	const struct st_side_type *info = st_side_type(label);
	uint16_t want, got = 0;
	struct st_diag d;
	int r;

	set_field(label);
	want = readable_as(&field.type);
	r = build("args.f", info->type_class == ST_TC_FLOAT, &d, &got);
	snprintf(name, size, "%s (%u) as a leaf: %s", info->name, label,
		 want != 0xffff ? "checked, compiled, read as its label" : "refused with a reason");
	if (want != 0xffff) {
		ok(r == 2 && got == want, name);
		return;
	}
	if (info->type_class == ST_TC_STRUCT && !info->unreadable)
		ok(r == 0 && strstr(d.msg, "is a struct"), name);
	else if (info->type_class == ST_TC_ARRAY && !info->unreadable)
		ok(r == 0 && strstr(d.msg, "is an array"), name);
	else
		ok(r == 0 && info->unreadable && strstr(d.msg, info->unreadable), name);
}

/* A struct or array label as the container of a u32. */
static void container(uint16_t label, char *name, size_t size)
{
	const struct st_side_type *info = st_side_type(label);
	uint16_t got = 0;
	struct st_diag d;
	int r;

	if (info->type_class != ST_TC_STRUCT && info->type_class != ST_TC_ARRAY)
		return;
	set_field(label);
	r = build(info->type_class == ST_TC_STRUCT ? "args.f.m" : "args.f[0]", false, &d, &got);
	snprintf(name, size, "%s (%u) as a container: %s", info->name, label,
		 info->unreadable ? "refused with a reason" : "walked into, u32 read");
	if (info->unreadable)
		ok(r == 0 && strstr(d.msg, info->unreadable), name);
	else
		ok(r == 2 && got == SIDE_TYPE_U32, name);
}

int main(void)
{
	char name[160];
	uint32_t label;
	int named = 0;

	st_sdt_args_parse(site.args, &site.sdt);
	for (label = 0; label < _NR_SIDE_TYPE_LABEL; label++) {
		named += strcmp(st_side_type_name(label), "unknown") != 0;
		leaf(label, name, sizeof(name));
		container(label, name, sizeof(name));
	}
	ok(named == _NR_SIDE_TYPE_LABEL, "every SIDE label has a name in the table");
	leaf(_NR_SIDE_TYPE_LABEL + 7, name, sizeof(name));
	ok(!strcmp(st_side_type_name(0xfffe), "unknown"), "an unknown label is named unknown");
	return unit_summary();
}
