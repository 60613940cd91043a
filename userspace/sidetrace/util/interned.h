/* SPDX-License-Identifier: MIT */
/*
 * Literal strings that values carry by a small id (parse/builtins.h
 * st_kept_with_arg()): strftime()'s format, cgroup_path()'s filter. They
 * are interned for the process's life, so that the programs of one
 * process (serve runs several) share one table and an id means one text.
 */
#ifndef SIDETRACE_UTIL_INTERNED_H
#define SIDETRACE_UTIL_INTERNED_H

/* Ids are 1 to this: a byte, 0 for none. */
#define ST_INTERNED_MAX 255

/* s's id (the same text, the same id), or -ENOSPC past ST_INTERNED_MAX texts, or -ENOMEM. */
int st_intern(const char *s);

/* The text of id, or NULL for 0 or an id not given. */
const char *st_interned(unsigned int id);

#endif /* SIDETRACE_UTIL_INTERNED_H */
