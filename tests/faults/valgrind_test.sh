# SPDX-License-Identifier: BSD-2-Clause
#
# cat, cp and yes under valgrind's memcheck, on small inputs: no invalid
# access, no use of uninitialised memory, no leak (definite, indirect or
# possible; memory still reachable at exit is not a leak).  A case is
# skipped only when valgrind is not installed, or when the programs were
# built with AddressSanitizer, which valgrind cannot run, or linked with
# musl, or run under an emulator.
#

vg_init()
{
	command -v valgrind >/dev/null 2>&1 ||
	    atf_skip "valgrind is not installed"
	ROOT=$(atf_config_get rootdir '')
	. "$(atf_get_srcdir)/../../../common/portable.subr"
	skip_emulated "$ROOT/bin/cat" "the host's valgrind cannot run" \
	    "this root's programs"
	# AddressSanitizer reserves its shadow memory where valgrind lives.
	if grep -q __asan_init "$ROOT/bin/cat" 2>/dev/null; then
		atf_skip "built with AddressSanitizer, which valgrind cannot run"
	fi
	# musl's own calls to its allocator (fopen's, strdup's) do not go
	# through the interposable malloc, so memcheck sees only their free.
	if grep -q ld-musl "$ROOT/bin/cat" 2>/dev/null; then
		atf_skip "linked with musl, whose allocations memcheck" \
		    "cannot follow"
	fi
	awk 'BEGIN { for (i = 1; i <= 300; i++) printf "line %04d\n", i }' > f1
	printf 'tab\there\001\n\n\n\377end\n' > f2
	: > empty
	{ dd if=f1; dd if=f2; } > f12 2>/dev/null
}

# vg EXIT CMD ARGS...: run under memcheck; exit status EXIT expected of
# the program, 99 meaning memcheck found something.
vg()
{
	_want=$1
	shift
	valgrind -q --error-exitcode=99 --leak-check=full \
	    --show-leak-kinds=definite,indirect,possible \
	    --errors-for-leak-kinds=definite,indirect,possible \
	    --track-origins=yes "$@" > out 2> err
	_st=$?
	# valgrind's own notes, "--PID--" lines (a system call it does not
	# know, such as Landlock's, which cat then goes without), are not
	# the program's; memcheck's findings are "==PID==" lines.
	grep -v '^--[0-9]*-- ' err > err.vg
	mv err.vg err
	if [ "$_st" -ne "$_want" ]; then
		cat err >&2
		[ "$_st" -eq 99 ] && atf_fail "memcheck reported errors: $*"
		atf_fail "exit status $_st, not $_want: $*"
	fi
}

atf_test_case cat_paths
cat_paths_head()
{
	atf_set descr "cat on every engine path under memcheck"
}
cat_paths_body()
{
	vg_init
	for _p in auto rw cfr splice sendfile; do
		path_export $_p
		vg 0 "$ROOT/bin/cat" f1 empty - f2 < f1
		{ dd if=f1; dd if=f1; dd if=f2; } > expect 2>/dev/null
		cmp -s out expect || atf_fail "cat's output differs on $_p"
		[ ! -s err ] || { cat err >&2; atf_fail "stderr on $_p"; }
	done
}

atf_test_case cat_pipe
cat_pipe_head()
{
	atf_set descr "cat from a pipe to a pipe under memcheck"
}
cat_pipe_body()
{
	vg_init
	for _p in auto rw splice; do
		path_export $_p
		dd if=f12 2>/dev/null | vg 0 "$ROOT/bin/cat"
		cmp -s out f12 || atf_fail "cat's output differs on $_p"
	done
}

atf_test_case cat_cooked
cat_cooked_head()
{
	atf_set descr "cat -benstuv and its errors under memcheck"
}
cat_cooked_body()
{
	vg_init
	vg 0 "$ROOT/bin/cat" -n -v f2
	printf '     1\ttab\there^A\n     2\t\n     3\t\n     4\tM-^?end\n' \
	    > expect
	cmp -s out expect || atf_fail "cat -nv's output differs"
	vg 0 "$ROOT/bin/cat" -bestu f1 f2 empty
	vg 1 "$ROOT/bin/cat" -e f1 nonexistent f2
	grep -qx 'cat: nonexistent: No such file or directory' err ||
	    atf_fail "no message for a missing operand"
	vg 1 "$ROOT/bin/cat" f1 nonexistent .
}

atf_test_case cp_files
cp_files_head()
{
	atf_set descr "cp of files, and its errors, under memcheck"
}
cp_files_body()
{
	vg_init
	mkdir dir
	for _p in auto rw cfr splice sendfile; do
		rm -f dir/*
		path_export $_p
		vg 0 "$ROOT/bin/cp" f1 f2 empty dir
		for _f in f1 f2 empty; do
			cmp -s "$_f" "dir/$_f" || atf_fail "dir/$_f differs on $_p"
		done
	done
	vg 0 "$ROOT/bin/cp" -p f1 copy
	cmp -s f1 copy || atf_fail "copy differs"
	vg 1 "$ROOT/bin/cp" f1 nonexistent f2 dir
}

atf_test_case cp_tree
cp_tree_head()
{
	atf_set descr "cp -R of a small tree under memcheck"
}
cp_tree_body()
{
	vg_init
	mkdir -p src/a/b/c src/d
	dd if=f1 of=src/a/f 2>/dev/null
	dd if=f2 of=src/a/b/c/g 2>/dev/null
	ln -s ../a/f src/d/link
	mkfifo src/d/fifo
	vg 0 "$ROOT/bin/cp" -R src dst
	cmp -s src/a/f dst/a/f && cmp -s src/a/b/c/g dst/a/b/c/g ||
	    atf_fail "the tree was not copied"
	[ -p dst/d/fifo ] && [ -L dst/d/link ] ||
	    atf_fail "the special files were not made"
	vg 0 "$ROOT/bin/cp" -R src dst
	vg 0 "$ROOT/bin/cp" -a src dst2
}

atf_test_case yes
yes_head()
{
	atf_set descr "yes until its reader leaves, under memcheck"
}
yes_body()
{
	vg_init
	# With SIGPIPE ignored, yes ends through err(3) like any program
	# whose output fails, and memcheck looks for leaks at that exit.
	for _p in auto rw splice; do
		(
			trap '' PIPE
			path_export $_p
			valgrind -q --error-exitcode=99 \
			    --leak-check=full \
			    --show-leak-kinds=definite,indirect,possible \
			    --errors-for-leak-kinds=definite,indirect,possible \
			    "$ROOT/usr/bin/yes" an operand 2> err
			echo $? > status
		) | head -c 100000 > out
		read -r st < status
		[ "$st" -ne 99 ] || { cat err >&2; atf_fail "memcheck: $_p"; }
		[ "$st" -eq 1 ] || atf_fail "yes ended with $st on $_p"
		grep -qx 'yes: stdout: Broken pipe' err ||
		    { cat err >&2; atf_fail "yes said something else"; }
		awk 'BEGIN { for (i = 0; i < 10000; i++) print "an operand" }' |
		    head -c 100000 | cmp -s - out ||
		    atf_fail "yes's output differs on $_p"
	done
}

atf_init_test_cases()
{
	atf_add_test_case cat_paths
	atf_add_test_case cat_pipe
	atf_add_test_case cat_cooked
	atf_add_test_case cp_files
	atf_add_test_case cp_tree
	atf_add_test_case yes
}
