// SPDX-License-Identifier: MIT
/*
 * Unit tests of the language's tables (parse/builtins.h, parse/functions.h,
 * parse/helpers.h): every row has every column, each engine has a code
 * for it or says why not, and every name is one row's.
 */
#include <string.h>

#include "parse/functions.h"
#include "parse/helpers.h"

#include "unit.h"

/* A message format with one %s and no other conversion. */
static bool one_s(const char *fmt)
{
	const char *p = fmt ? strstr(fmt, "%s") : NULL;

	return p && !strchr(p + 2, '%') && strchr(fmt, '%') == p;
}

/* The name is a word of a names list ("a, b and c"). */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = strstr(list, name); p; p = strstr(p + 1, name))
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ',' || p[n] == ' '))
			return true;
	return false;
}

static void test_builtins(void)
{
	int b;

	for (b = 0; b < ST_NR_BUILTINS; b++) {
		const struct st_builtin_row *r = st_builtin(b);
		bool session = r->avail & ST_AVAIL_SESSION;

		CHECK(r->name && *r->name && st_builtin_find(r->name) == b);
		CHECK(st_func_find(r->name) < 0);
		CHECK(listed(st_builtin_names(), r->name));
		CHECK(r->vtype == ST_VT_UINT || r->vtype == ST_VT_STR);
		CHECK(r->avail & ST_AVAIL_EVENT);
		CHECK(!(r->avail & ~(ST_AVAIL_EVENT | ST_AVAIL_SESSION | ST_AVAIL_FUNCTION |
				     ST_AVAIL_COMMAND)));
		/* Where it has no value, a message says so, naming the probe. */
		CHECK(session && !(r->avail & (ST_AVAIL_FUNCTION | ST_AVAIL_COMMAND))
			      ? !r->why_not
			      : one_s(r->why_not));
		CHECK(r->bpf != ST_BC_NONE);
		/* Sidetrace's own clauses compute it, or the checker keeps it out of them. */
		CHECK(session ? r->host != ST_BC_NONE : r->host == ST_BC_NONE && r->why_not);
		CHECK((r->bpf == ST_BC_HELPER) ==
		      (r->helper || r->host == ST_BC_HELPER || r->bpf == ST_BC_HELPER));
		CHECK(!r->frames || r->kept == ST_KEPT_USTACK || r->kept == ST_KEPT_KSTACK);
	}
	CHECK(st_builtin_find("nope") < 0);
}

static void test_functions(void)
{
	int fn;

	for (fn = 0; fn < ST_NR_FUNCS; fn++) {
		const struct st_func_row *r = st_func(fn);

		CHECK(r->name && *r->name && st_func_find(r->name) == fn);
		CHECK(st_builtin_find(r->name) < 0);
		/* A refused one is no valid name, and says why it is refused. */
		CHECK(listed(st_func_names(), r->name) == (r->args != ST_FA_REFUSED));
		CHECK(r->args != ST_FA_REFUSED || (r->no_bpf && *r->no_bpf));
		CHECK(r->min_args <= r->max_args);
		CHECK(r->form == ST_FORM_AGG || r->form == ST_FORM_ACTION ||
		      r->form == ST_FORM_VALUE);
		CHECK(r->args < ST_NR_FN_ARGS);
		if (r->form == ST_FORM_AGG)
			CHECK(r->bpf == ST_FC_AGG && !strcmp(st_agg_name(r->agg), r->name) &&
			      st_func_agg(fn) == r->agg);
		else
			CHECK(r->bpf != ST_FC_AGG && r->host != ST_FC_AGG);
		CHECK(r->form == ST_FORM_VALUE ? r->vtype == ST_VT_UINT || st_vt_slot(r->vtype)
					       : r->vtype == ST_VT_NONE);
		/* Each engine runs it, or says why not. */
		CHECK(r->bpf != ST_FC_NONE || (r->no_bpf && *r->no_bpf));
		CHECK(r->host != ST_FC_NONE || (r->no_host && *r->no_host) ||
		      r->args == ST_FA_REFUSED);
	}
	CHECK(st_func_find("nope") < 0);
}

/* -k's helpers: bpftrace's names, at its levels; the reads are those of each space. */
static void test_helpers(void)
{
	enum st_read_space sp;
	int h, g;

	for (h = 0; h < ST_NR_HELPERS; h++) {
		const struct st_helper_row *r = st_helper(h);

		CHECK(r->name && !strncmp(r->name, strstr(r->name, "map_") ? "map_" : "probe_read",
					  strstr(r->name, "map_") ? 4 : 10));
		CHECK(r->level == ST_CHECK_HELPERS || r->level == ST_CHECK_ALL);
		/* A read or a lookup that fails reads 0 or "": -kk only, as bpftrace. */
		CHECK((r->level == ST_CHECK_ALL) ==
		      (!strncmp(r->name, "probe_read", 10) || !strcmp(r->name, "map_lookup_elem")));
		CHECK(!st_helper_checked(0, h) && st_helper_checked(ST_CHECK_ALL, h));
		for (g = 0; g < h; g++)
			CHECK(strcmp(st_helper(g)->name, r->name));
	}
	CHECK(st_helper_checked(ST_CHECK_HELPERS, ST_H_MAP_DELETE));
	CHECK(!st_helper_checked(ST_CHECK_HELPERS, ST_H_MAP_LOOKUP));
	for (sp = ST_SPACE_NONE; sp <= ST_SPACE_USER; sp++) {
		CHECK(strstr(st_helper(st_read_helper(sp, true))->name, "_str") != NULL);
		CHECK(strstr(st_helper(st_read_helper(sp, false))->name, "_str") == NULL);
	}
	CHECK(!strcmp(st_helper(st_read_helper(ST_SPACE_KERNEL, false))->name,
		      "probe_read_kernel"));
	CHECK(!strcmp(st_helper(st_read_helper(ST_SPACE_NONE, true))->name, "probe_read_str"));
}

int main(void)
{
	test_builtins();
	test_functions();
	test_helpers();
	return unit_summary();
}
