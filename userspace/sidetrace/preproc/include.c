// SPDX-License-Identifier: MIT
/*
 * #include: a file's macros and conditionals read from the including
 * file's directory or a -I one, a cycle refused; a system or kernel
 * header's macros from header_macros.c, its types from BTF.
 */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preproc/header_macros.h"
#include "preproc/pp.h"

/* Reads path (at most PP_MAX_FILE bytes, no NUL) into *out: 0 or -errno. */
static int read_file(const char *path, char **out)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f)
		return -errno;
	buf = malloc(PP_MAX_FILE + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, PP_MAX_FILE + 1, f);
	if (ferror(f) || n > PP_MAX_FILE || memchr(buf, '\0', n)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (!buf)
		return -EFBIG;
	buf[n] = '\0';
	*out = buf;
	return 0;
}

/* "a -> b -> c": the files from the program to f, then name. */
static void chain(const struct pp_file *f, const char *name, char *buf, size_t len)
{
	size_t at;

	if (!f) {
		snprintf(buf, len, "%s", name);
		return;
	}
	chain(f->up, f->name, buf, len);
	at = strlen(buf);
	snprintf(buf + at, len - at, " -> %s", name);
}

/* Reads the file at path (name in messages) as an included file. */
static int include_path(struct pp *pp, const char *path, const char *text)
{
	struct pp_file f = {.name = path, .path = path, .up = pp->file, .included = 1};
	const struct pp_file *up;
	char msg[400];
	int err;

	f.real = realpath(path, NULL);
	for (up = pp->file; up && f.real; up = up->up) {
		if (up->real && !strcmp(up->real, f.real)) {
			chain(pp->file, path, msg, sizeof(msg));
			free(f.real);
			return pp_error(pp, "#include cycle: %s", msg);
		}
	}
	if (pp->depth == PP_MAX_INCLUDE_DEPTH) {
		free(f.real);
		return pp_error(pp, "#include nested deeper than %d files", PP_MAX_INCLUDE_DEPTH);
	}
	pp->file = &f;
	pp->depth++;
	err = pp_run(pp, text, NULL);
	pp->depth--;
	pp->file = f.up;
	free(f.real);
	return err;
}

/* dir/name read, or -errno (-ENOENT: not there, look further). */
static int try_dir(struct pp *pp, const char *dir, size_t dlen, const char *name)
{
	char *path, *text = NULL;
	int err;

	if (asprintf(&path, "%.*s%s%s", (int)dlen, dir, dlen ? "/" : "", name) < 0)
		return pp_nomem(pp);
	err = read_file(path, &text);
	if (!err) {
		err = include_path(pp, path, text);
		free(text);
	} else if (err == -ENOMEM) {
		err = pp_nomem(pp);
	} else if (err == -ENOENT || err == -ENOTDIR) {
		err = -ENOENT;
	} else {
		err = pp_error(pp, "#include: cannot read %s: %s", path,
			       err == -EFBIG ? "longer than 1 MiB, or not text" : strerror(-err));
	}
	free(path);
	return err;
}

/*
 * name where C looks for it: "FILE" in the including file's directory
 * (the current one for -e and stdin) then each -I, <FILE> in each -I.
 * -ENOENT: in none.
 */
static int find(struct pp *pp, const char *name, int quoted)
{
	const char *dir = pp->file->path, *slash = dir ? strrchr(dir, '/') : NULL;
	int err = -ENOENT;
	uint32_t i;

	if (name[0] == '/')
		return try_dir(pp, "", 0, name);
	if (quoted)
		err = try_dir(pp, dir ? dir : "",
			      slash ? (size_t)(slash - dir) + (slash == dir) : 0, name);
	for (i = 0; err == -ENOENT && i < pp->opts->nr_include_dirs; i++)
		err = try_dir(pp, pp->opts->include_dirs[i], strlen(pp->opts->include_dirs[i]),
			      name);
	return err;
}

/* A header no -I directory has: its macros from the table, its types from BTF. */
static int system_header(struct pp *pp, const char *name)
{
	const struct st_header *h = st_header_find(name);
	const struct st_header_macro_group *const *g;
	size_t i;
	int err;

	if (!h && !pp->opts->btf)
		return pp_error(pp,
				"#include <%s>: kernel headers are not read without a compiler: "
				"this kernel has no BTF (/sys/kernel/btf/vmlinux)",
				name);
	for (g = h ? h->groups : NULL; g && *g; g++) {
		for (i = 0; i < (*g)->nr; i++) {
			err = pp_macro_define(pp, (*g)->macros[i].name, (*g)->macros[i].value, NULL,
					      0, 0);
			if (err)
				return err;
		}
	}
	return 0;
}

int pp_include(struct pp *pp, const char *s)
{
	char close = *s == '<' ? '>' : *s == '"' ? '"' : 0;
	const char *end = close ? strchr(s + 1, close) : NULL;
	char *name;
	int err;

	if (!end || end == s + 1)
		return pp_error(pp, "#include expects \"FILE\" or <FILE>");
	name = strndup(s + 1, end - s - 1);
	if (!name)
		return pp_nomem(pp);
	err = find(pp, name, close == '"');
	if (err == -ENOENT && close == '>')
		err = system_header(pp, name);
	else if (err == -ENOENT)
		err = pp_error(pp, "#include \"%s\": no such file in %s nor in any -I directory",
			       name,
			       pp->file->path ? "the including file's directory"
					      : "the current directory");
	free(name);
	return err;
}

int pp_include_file(struct pp *pp, const char *path)
{
	int err = try_dir(pp, "", 0, path);

	if (err == -ENOENT)
		err = find(pp, path, 1);
	/* As bpftrace's, which the compiler takes as #include <FILE>: a system header too. */
	if (err == -ENOENT && st_header_find(path))
		err = system_header(pp, path);
	if (err == -ENOENT)
		err = pp_error(pp,
			       "--include %s: no such file in the current directory, the "
			       "program's, nor any -I directory, nor a system header whose "
			       "constants sidetrace knows",
			       path);
	return err;
}
