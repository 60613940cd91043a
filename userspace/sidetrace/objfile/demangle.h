/* SPDX-License-Identifier: MIT */
/* C++ names demangled by libstdc++'s __cxa_demangle(), the library loaded on first use. */
#ifndef SIDETRACE_OBJFILE_DEMANGLE_H
#define SIDETRACE_OBJFILE_DEMANGLE_H

/*
 * The demangled form of a C++ symbol ("_Z..."), malloc'ed; NULL for any
 * other name, one that does not demangle, or when libstdc++ cannot be
 * loaded (the mangled name is then shown and matched as it is).
 */
char *st_demangle(const char *name);

#endif /* SIDETRACE_OBJFILE_DEMANGLE_H */
