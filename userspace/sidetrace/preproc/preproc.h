/* SPDX-License-Identifier: MIT */
/*
 * The C preprocessor bpftrace's programs are written for, without a
 * compiler: #include, #define (object- and function-like), #undef and the
 * conditionals, over a program's text. Every line stays where it was (a
 * directive becomes an empty line), so that the parser's diagnostics keep
 * their line numbers.
 */
#ifndef SIDETRACE_PREPROC_PREPROC_H
#define SIDETRACE_PREPROC_PREPROC_H

#include <stdbool.h>
#include <stdint.h>

struct st_pp_opts {
	char *const *include_dirs; /* -I, searched in order */
	uint32_t nr_include_dirs;
	char *const *include_files; /* --include: as if #include "FILE" came first */
	uint32_t nr_include_files;
	bool btf; /* the kernel's types come from BTF (st_pp_have_btf()) */
};

/* The first error: where it is and what is wrong. */
struct st_pp_error {
	char file[256]; /* the program's name, or the included file's path */
	uint32_t line; /* 1-based; 0: the error is about no line */
	uint32_t col; /* 1-based byte column */
	char msg[512];
	bool in_include; /* in an included file, not the program's text */
};

/*
 * Preprocesses src, read from path (NULL: from -e or stdin, and then
 * #include "FILE" looks in the current directory first, else in path's);
 * name names it in errors ("program" when NULL). 0 and the text in *out
 * (malloc'ed), or -EINVAL with *err, or -ENOMEM.
 */
int st_preprocess(const char *src, const char *name, const char *path,
		  const struct st_pp_opts *opts, char **out, struct st_pp_error *err);

/* The kernel describes its types in BTF: what BPFTRACE_HAVE_BTF says. */
bool st_pp_have_btf(void);

#endif /* SIDETRACE_PREPROC_PREPROC_H */
