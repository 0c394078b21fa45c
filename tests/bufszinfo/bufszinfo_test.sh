#
# SPDX-License-Identifier: BSD-2-Clause
#
# tools/bufszinfo: the path each case takes and the buffer it gets,
# and the paths the engine falls back to when the kernel refuses.

# path_env, need_faultinj: the suites' shared functions.
. "$(atf_get_srcdir)/../../../common/portable.subr"

# Runs bufszinfo into out (the warnings into err) and keeps the case
# lines: the name, a tab, the path, a tab and the buffer.
info()
{
	$(path_env "${1:-auto}") "$(atf_get_srcdir)/bufszinfo" > out 2> err ||
	    atf_fail "bufszinfo failed: $(cat err)"
	awk '/^  [^ ].* -> / && !/not here: no / {
		name = substr($0, 3, 26); sub(/ +$/, "", name)
		rest = substr($0, 29); split(rest, f, " ")
		printf "%s\t%s\t%s %s\n", name, f[1], f[2], f[3]
	}' out > cases
	[ "$(wc -l < cases)" -ge 6 ] ||
	    atf_fail "too few cases shown: $(cat out)"
}

# field CASE N: field N (2 path, 3 buffer) of CASE's line.
field()
{
	awk -F '\t' -v c="$1" -v n="$2" '$1 == c { print $n }' cases
}

atf_test_case paths_and_sizes
paths_and_sizes_head()
{
	atf_set descr "Each case shows a path the engine has and the" \
	    "policy's buffer"
}
paths_and_sizes_body()
{
	info
	awk -F '\t' '$2 !~ /^(rw|cfr|splice|sendfile)$/ ||
	    $3 !~ /^[0-9]+ (B|KiB|MiB)$/ { bad = 1; print } END { exit bad }' \
	    cases || atf_fail "a case without a known path or a buffer"
	# The policy's own rules.
	[ "$(field '4 KiB file -> /dev/null' 3)" = "8 KiB" ] ||
	    atf_fail "a 4 KiB file does not get its size and a byte"
	[ "$(field '1 GiB file -> pipe' 3)" = "64 KiB" ] ||
	    atf_fail "a pipe does not get its capacity"
	[ ! -s err ] || atf_fail "warnings: $(cat err)"
	# Linux splices into pipes and copies files in the kernel.
	if [ "$(uname -s)" = Linux ]; then
		[ "$(field '1 GiB file -> pipe' 2)" = splice ] ||
		    atf_fail "a file into a pipe is not spliced"
		[ "$(field 'pipe -> pipe' 2)" = splice ] ||
		    atf_fail "a pipe into a pipe is not spliced"
		[ "$(field '1 GiB file -> file' 2)" = cfr ] ||
		    atf_fail "a file into a file is not copy_file_range'd"
	fi
}

atf_test_case refused_paths
refused_paths_head()
{
	atf_set descr "Where the kernel refuses the other copy calls, each" \
	    "case shows the path left to it"
}
refused_paths_body()
{
	need_faultinj
	info rw
	awk -F '\t' '$2 != "rw" { bad = 1; print } END { exit bad }' cases ||
	    atf_fail "with every kernel call refused, not rw everywhere"
	# copy_file_range and sendfile read no pipe: seen, not predicted.
	info cfr
	[ "$(field 'pipe -> pipe' 2)" = rw ] ||
	    atf_fail "cfr alone from a pipe shown as $(field 'pipe -> pipe' 2)"
	[ "$(field '1 GiB file -> pipe' 2)" = rw ] ||
	    atf_fail "cfr alone into a pipe shown as" \
	    "$(field '1 GiB file -> pipe' 2)"
	info sendfile
	[ "$(field 'pipe -> file' 2)" = rw ] ||
	    atf_fail "sendfile alone from a pipe shown as" \
	    "$(field 'pipe -> file' 2)"
}

atf_init_test_cases()
{
	atf_add_test_case paths_and_sizes
	atf_add_test_case refused_paths
}
