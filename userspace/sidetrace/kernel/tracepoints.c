// SPDX-License-Identifier: MIT
/* Tracepoints and their record fields from tracefs (tracepoints.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "ctypes/ctypes.h"
#include "events/events.h"
#include "objfile/tracefs.h"
#include "kernel/tracepoints.h"

/* The declared type without "const", "__" prefixes of kernel integer types, or "signed". */
static const char *bare_type(const char *type, char *buf, size_t len)
{
	if (!strncmp(type, "const ", 6))
		type += 6;
	if (!strncmp(type, "__", 2) && (type[2] == 's' || type[2] == 'u') && type[3] >= '0' &&
	    type[3] <= '9')
		type += 2;
	if (!strncmp(type, "signed ", 7))
		type += 7;
	snprintf(buf, len, "%s", type);
	return buf;
}

/*
 * The type of one record field. Syscall records hold every argument in 8
 * bytes marked unsigned: the declared type, where it is a C integer type,
 * says the value's size and sign (an int fd of -100 reads -100).
 */
static void field_type(const struct st_tp_format_line *fl, bool user_strings, struct st_type *t,
		       struct st_arg_spec *spec)
{
	uint32_t n = fl->where.size, size;
	bool is_signed = fl->is_signed, sign, known;
	char buf[64];
	const char *bare = bare_type(fl->type, buf, sizeof(buf));

	memset(t, 0, sizeof(*t));
	spec->val = fl->where.offset;
	if (strstr(fl->type, "__data_loc") && strstr(fl->type, "char")) {
		t->label = SIDE_TYPE_STRING_UTF8;
		t->size = 1;
		t->kernel = true;
		spec->loc = ST_LOC_TP_DATA_LOC;
		return;
	}
	if (fl->array && !strcmp(bare, "char")) {
		t->label = SIDE_TYPE_STRING_UTF8;
		t->size = 1;
		t->kernel = true;
		spec->loc = ST_LOC_TP_ADDR;
		return;
	}
	spec->loc = ST_LOC_TP;
	/* Where a pointer points: a syscall's caller's memory, or the kernel's. */
	t->kernel = !strchr(bare, '*') || !user_strings;
	if (!strcmp(bare, "char *")) {
		t->label = SIDE_TYPE_STRING_UTF8;
		t->size = 1;
		t->kernel = !user_strings;
		spec->size = 8;
		return;
	}
	known = !strchr(bare, '*') && st_ctype_int_name(bare, &size, &sign) && size <= n;
	if (known) {
		n = size;
		is_signed = sign;
	}
	/* An array of integers: its elements where it is (args.args[2]). */
	if (fl->array && known && fl->where.size % n == 0 &&
	    (t->elem = calloc(1, sizeof(*t->elem)))) {
		t->label = SIDE_TYPE_ARRAY;
		t->array_len = fl->where.size / n;
		t->kernel = true;
		t->elem->label = st_side_int_label(n, is_signed);
		t->elem->size = n;
		t->elem->is_signed = is_signed;
		spec->loc = ST_LOC_TP_ADDR;
		return;
	}
	if (fl->array || !st_side_int_label(n, is_signed)) {
		t->label = SIDE_TYPE_U64;
		t->size = 8;
		t->unreadable =
			strdup(fl->array ? "an array, which tracepoint: probes do not read yet"
					 : "a field of a size that is no integer's");
		spec->loc = ST_LOC_NONE;
		return;
	}
	t->label = st_side_int_label(n, is_signed);
	t->size = n;
	t->is_signed = is_signed;
	spec->size = is_signed ? -(int)n : (int)n;
}

/*
 * The field's C declaration without its name, bpftrace's -lv line:
 * "const char *", "char[16]" (the printer puts bounds after the name).
 */
static char *c_decl(const struct st_tp_format_line *fl)
{
	char buf[64], *s = NULL;
	uint32_t size = 1;
	bool sign;

	if (!fl->array || strstr(fl->type, "__data_loc"))
		return strdup(fl->type);
	if (strcmp(bare_type(fl->type, buf, sizeof(buf)), "char") &&
	    (!st_ctype_int_name(buf, &size, &sign) || !size || fl->where.size % size))
		return NULL;
	if (asprintf(&s, "%s[%u]", fl->type, fl->where.size / size) < 0)
		return NULL;
	return s;
}

/* Reads the format of category/name into ev's fields and its site. */
static int read_format(FILE *f, struct st_event *ev, bool user_strings)
{
	struct st_tp_format_line fl;
	struct st_site *site = &ev->sites[0];
	struct st_field *fields;
	char line[512];

	while (fgets(line, sizeof(line), f)) {
		if (!st_tp_format_line(line, &fl) || !strncmp(fl.name, "common_", 7))
			continue;
		fields = realloc(ev->fields, (ev->nr_fields + 1) * sizeof(*fields));
		if (!fields)
			return -ENOMEM;
		ev->fields = fields;
		fields = &fields[ev->nr_fields];
		memset(fields, 0, sizeof(*fields));
		fields->name = strdup(fl.name);
		if (!fields->name)
			return -ENOMEM;
		ev->nr_fields++;
		if (site->sdt.nr >= ST_MAX_SDT_ARGS) {
			fields->type.label = SIDE_TYPE_U64;
			fields->type.unreadable = strdup("past the fields a probe can read (12)");
			continue;
		}
		field_type(&fl, user_strings, &fields->type, &site->sdt.spec[site->sdt.nr++]);
		fields->type.c_name = c_decl(&fl);
	}
	return 0;
}

/*
 * Adds category:name to out. One without an "enable" file (ftrace's own
 * events: tracefs lists none in available_events) takes no program: a
 * wildcard skips it, as bpftrace -l does, and a probe naming it (named)
 * is refused with that reason in err.
 */
static int add_tracepoint(const char *dir, const char *category, const char *name, bool named,
			  struct st_event_list *out, char *err, size_t errlen)
{
	struct st_event *ev;
	char path[1024];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/events/%s/%s/enable", dir, category, name);
	if (access(path, F_OK)) {
		if (named)
			snprintf(err, errlen,
				 "tracepoint %s:%s is one of ftrace's own events, to which the "
				 "kernel attaches no program (tracefs gives it no enable file)",
				 category, name);
		return named ? -EPERM : 0;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, category, name);
	f = fopen(path, "r");
	/* A directory without a readable format is no tracepoint to attach. */
	if (!f)
		return 0;
	ev = st_kernel_event_add(out, ST_AP_TRACEPOINT, category, name);
	ret = ev ? read_format(f, ev, !strcmp(category, "syscalls")) : -ENOMEM;
	fclose(f);
	if (ret)
		snprintf(err, errlen, "out of memory");
	return ret;
}

/*
 * Whether entry e of dir is a directory: categories and tracepoints are,
 * the files beside them ("enable", "header_page", "filter") are not.
 */
static bool is_dir(const char *dir, const struct dirent *e)
{
	char path[1024];
	struct stat st;

	if (e->d_type != DT_UNKNOWN)
		return e->d_type == DT_DIR;
	snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * The directories in dir that glob matches, sorted, in *names (NULL on
 * an error); their count or a negative errno.
 */
static int scan(const char *dir, const char *glob, struct dirent ***names)
{
	int n = scandir(dir, names, NULL, alphasort), i, kept = 0;

	if (n < 0) {
		*names = NULL;
		return -errno;
	}
	for (i = 0; i < n; i++) {
		if ((*names)[i]->d_name[0] != '.' && !fnmatch(glob, (*names)[i]->d_name, 0) &&
		    is_dir(dir, (*names)[i]))
			(*names)[kept++] = (*names)[i];
		else
			free((*names)[i]);
	}
	return kept;
}

/*
 * A tracepoint named without a wildcard: its directory, without listing
 * the hundreds of its category's (0.3-0.5 ms each). A name that scan()
 * would not list (a path, a dot file) matches nothing, as there.
 */
static int find_named(const char *dir, const char *category, const char *name,
		      struct st_event_list *out, char *err, size_t errlen)
{
	char path[1024];
	struct stat st;

	if (category[0] == '.' || name[0] == '.' || strchr(category, '/') || strchr(name, '/'))
		return 0;
	snprintf(path, sizeof(path), "%s/events/%s/%s", dir, category, name);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	return add_tracepoint(dir, category, name, true, out, err, errlen);
}

/* The tracepoints of category cat that name_glob matches, into out. */
static int add_category(const char *dir, const char *cat, const char *name_glob,
			struct st_event_list *out, char *err, size_t errlen)
{
	struct dirent **names = NULL;
	char path[1024];
	int nn, j, ret = 0;

	snprintf(path, sizeof(path), "%s/events/%s", dir, cat);
	nn = scan(path, name_glob, &names);
	for (j = 0; j < nn; j++) {
		if (!ret)
			ret = add_tracepoint(dir, cat, names[j]->d_name, false, out, err, errlen);
		free(names[j]);
	}
	free(names);
	return ret;
}

int st_discover_tracepoints(const char *category_glob, const char *name_glob,
			    struct st_event_list *out, char *err, size_t errlen)
{
	const char *dir = st_tracefs_dir();
	bool named_cat = !strpbrk(category_glob, "*?[");
	struct dirent **cats = NULL;
	int nc, i, ret = 0;
	char path[1024];

	if (!dir) {
		snprintf(err, errlen,
			 "tracefs is not mounted and cannot be (mount -t tracefs "
			 "tracefs /sys/kernel/tracing)");
		return -ENOENT;
	}
	if (named_cat && !strpbrk(name_glob, "*?["))
		return find_named(dir, category_glob, name_glob, out, err, errlen);
	/*
	 * A category named without a wildcard is listed alone, not found
	 * among the hundreds of events/ (a name scan() would not list, none,
	 * a path or a dot file, matches nothing, as there).
	 */
	if (named_cat)
		return !category_glob[0] || category_glob[0] == '.' || strchr(category_glob, '/')
			       ? 0
			       : add_category(dir, category_glob, name_glob, out, err, errlen);
	snprintf(path, sizeof(path), "%s/events", dir);
	nc = scan(path, category_glob, &cats);
	if (nc < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(-nc));
		return nc;
	}
	for (i = 0; i < nc && !ret; i++)
		ret = add_category(dir, cats[i]->d_name, name_glob, out, err, errlen);
	for (i = 0; i < nc; i++)
		free(cats[i]);
	free(cats);
	return ret;
}
