#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# make install and make uninstall: the files installed, a program built with
# pkg-config that starts at once after a system install (ldconfig ran), and
# an uninstall that removes exactly what install put there.

load helpers

# What install puts under the prefix, relative: the headers of include/side
# as the tree has them, the libraries, pkg-config files, sidetrace and its
# man page, the README.
expected_files() {
	(cd "$ROOT" && ls include/side/*.h include/side/abi/*.h)
	printf '%s\n' bin/sidetrace lib/libside-console-tracer.so lib/libside-console-tracer.so.0 \
		lib/libside.a lib/libside.so lib/libside.so.0 lib/pkgconfig/libside-console-tracer.pc \
		lib/pkgconfig/libside.pc share/doc/sidetrace/README.md share/man/man1/sidetrace.1
}

# Files and links under DIR, relative, sorted.
files_under() { # dir
	(cd "$1" && find . ! -type d | sed 's|^\./||' | LC_ALL=C sort)
}

@test "make install DESTDIR=... installs the files, runs no ldconfig; make uninstall leaves the dir empty" {
	d=$BATS_TEST_TMPDIR/stage
	mkdir -p "$d" "$BATS_TEST_TMPDIR/bin"
	# A staged install must not touch the system's linker cache.
	printf '#!/bin/sh\ntouch %s/ldconfig-ran\n' "$BATS_TEST_TMPDIR" >"$BATS_TEST_TMPDIR/bin/ldconfig"
	chmod +x "$BATS_TEST_TMPDIR/bin/ldconfig"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH make -s -C "$ROOT" --no-print-directory install \
		DESTDIR="$d" PREFIX=/opt/side
	[ ! -e "$BATS_TEST_TMPDIR/ldconfig-ran" ]
	diff <(expected_files | sed 's|^|opt/side/|' | LC_ALL=C sort) <(files_under "$d")
	[ "$(readlink "$d/opt/side/lib/libside.so")" = libside.so.0 ]
	grep -qx 'prefix=/opt/side' "$d/opt/side/lib/pkgconfig/libside.pc"
	"$d/opt/side/bin/sidetrace" --version

	# Something of another package's beside ours stays.
	touch "$d/opt/side/lib/other.so"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH make -s -C "$ROOT" --no-print-directory uninstall \
		DESTDIR="$d" PREFIX=/opt/side
	[ ! -e "$BATS_TEST_TMPDIR/ldconfig-ran" ]
	[ "$(cd "$d" && find . -mindepth 1)" = "$(printf '%s\n' ./opt ./opt/side ./opt/side/lib ./opt/side/lib/other.so)" ]
	rm "$d/opt/side/lib/other.so"
	make -s -C "$ROOT" --no-print-directory uninstall DESTDIR="$d" PREFIX=/opt/side
	[ -d "$d" ] && [ -z "$(ls -A "$d")" ]
}

# The system install is undone even when a check fails on the way.
teardown() {
	[ -z "${SYSTEM_INSTALLED:-}" ] || make -s -C "$ROOT" --no-print-directory uninstall PREFIX=/usr/local
}

@test "make install to /usr/local: a program built with pkg-config starts; make uninstall leaves nothing behind" {
	for f in lib/libside.so.0 lib/pkgconfig/libside.pc bin/sidetrace include/side; do
		[ ! -e "/usr/local/$f" ] || skip "/usr/local/$f is installed already: not this test's to remove"
	done
	find /usr/local | LC_ALL=C sort >"$BATS_TEST_TMPDIR/before"
	SYSTEM_INSTALLED=1
	make -s -C "$ROOT" --no-print-directory install PREFIX=/usr/local
	diff <(expected_files | sed 's|^|/usr/local/|' | LC_ALL=C sort) \
		<(find /usr/local ! -type d | LC_ALL=C sort | comm -13 "$BATS_TEST_TMPDIR/before" -)
	ldconfig -p | grep -q 'libside\.so\.0 .*/usr/local/lib/libside\.so\.0$'

	cat >"$BATS_TEST_TMPDIR/app.c" <<'EOF'
#include <stdio.h>
#include <side/trace.h>

side_static_event(hello, "app", "hello", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u32("n"), ));

int main(void)
{
	side_event(hello, side_arg_list(side_arg_u32(42), ));
	printf("started\n");
	return 0;
}
EOF
	cc "$BATS_TEST_TMPDIR/app.c" -o "$BATS_TEST_TMPDIR/app" \
		$(pkg-config --cflags --libs libside)
	run env -u LD_LIBRARY_PATH "$BATS_TEST_TMPDIR/app"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = started ]
	# The installed sidetrace finds the program's event through the library.
	/usr/local/bin/sidetrace list "$BATS_TEST_TMPDIR/app" | grep -q 'app:hello'

	# The service's unit: its command and documents are installed.
	local unit=$ROOT/dist/sidetrace-serve.service doc
	for doc in $(sed -n 's/^Documentation=//p' "$unit"); do
		case $doc in
		man:*) man -w "${doc#man:}" ;;
		file:*) [ -f "${doc#file:}" ] ;;
		*) echo "unexpected Documentation= $doc"; false ;;
		esac
	done
	! command -v systemd-analyze >/dev/null || systemd-analyze verify "$unit"

	make -s -C "$ROOT" --no-print-directory uninstall PREFIX=/usr/local
	SYSTEM_INSTALLED=
	diff "$BATS_TEST_TMPDIR/before" <(find /usr/local | LC_ALL=C sort)
	! ldconfig -p | grep -q 'libside\.so\.0 .*/usr/local/'
}
