#
# SPDX-License-Identifier: BSD-2-Clause
#
# tools/bufszinfo: the path each case takes, the buffer and its reason,
# as the environment knobs BUFSZ_PATH and BUFSZ_SIZE change them.

# Runs bufszinfo into out (the warnings into err) and keeps the case
# lines: the name, a tab, the path, the buffer and the reason.
info()
{
	"$(atf_get_srcdir)/bufszinfo" > out 2> err ||
	    atf_fail "bufszinfo failed: $(cat err)"
	awk '/^  [^ ].* -> / && !/not here: no / {
		name = substr($0, 3, 26); sub(/ +$/, "", name)
		rest = substr($0, 29); split(rest, f, " ")
		why = rest; sub(/^[^ ]+ +[0-9]+ [A-Za-z]+ +/, "", why)
		printf "%s\t%s\t%s %s\t%s\n", name, f[1], f[2], f[3], why
	}' out > cases
	[ "$(wc -l < cases)" -ge 6 ] ||
	    atf_fail "too few cases shown: $(cat out)"
}

# field CASE N: field N (2 path, 3 buffer, 4 reason) of CASE's line.
field()
{
	awk -F '\t' -v c="$1" -v n="$2" '$1 == c { print $n }' cases
}

atf_test_case paths_and_reasons
paths_and_reasons_head()
{
	atf_set descr "Each case shows a path the engine has and a reason"
}
paths_and_reasons_body()
{
	info
	awk -F '\t' '$2 !~ /^(rw|cfr|splice|sendfile|vmsplice)$/ ||
	    $4 == "" { bad = 1; print } END { exit bad }' cases ||
	    atf_fail "a case without a known path or a reason"
	# The policy's own rules, as it says them.
	[ "$(field '4 KiB file -> /dev/null' 3)" = "8 KiB" ] ||
	    atf_fail "a 4 KiB file does not get its size and a byte"
	field '4 KiB file -> /dev/null' 4 | grep -q 'whole input' ||
	    atf_fail "no reason for the small file's buffer"
	[ "$(field '1 GiB file -> pipe' 3)" = "64 KiB" ] ||
	    atf_fail "a pipe does not get its capacity"
	field '1 GiB file -> pipe' 4 | grep -q 'pipe' ||
	    atf_fail "the pipe's reason does not name it"
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

atf_test_case path_env
path_env_head()
{
	atf_set descr "BUFSZ_PATH forces the path the cases show, and a" \
	    "path that cannot serve a pair shows the read/write it falls to"
}
path_env_body()
{
	BUFSZ_PATH=rw info
	awk -F '\t' '$2 != "rw" { bad = 1; print } END { exit bad }' cases ||
	    atf_fail "BUFSZ_PATH=rw not taken everywhere"
	grep -q '^  BUFSZ_PATH=rw$' out || atf_fail "the knob is not shown"
	# copy_file_range and sendfile read no pipe: seen, not predicted.
	BUFSZ_PATH=cfr info
	[ "$(field 'pipe -> pipe' 2)" = rw ] ||
	    atf_fail "BUFSZ_PATH=cfr from a pipe shown as" \
	    "$(field 'pipe -> pipe' 2)"
	[ "$(field '1 GiB file -> pipe' 2)" = rw ] ||
	    atf_fail "BUFSZ_PATH=cfr into a pipe shown as" \
	    "$(field '1 GiB file -> pipe' 2)"
	BUFSZ_PATH=sendfile info
	[ "$(field 'pipe -> file' 2)" = rw ] ||
	    atf_fail "BUFSZ_PATH=sendfile from a pipe shown as" \
	    "$(field 'pipe -> file' 2)"
}

atf_test_case size_env
size_env_head()
{
	atf_set descr "BUFSZ_SIZE sets every case's buffer, in whole pages," \
	    "and the reason says so"
}
size_env_body()
{
	page=$(getconf PAGESIZE)
	BUFSZ_SIZE=$((page * 5 + 1)) info
	awk -F '\t' -v want="$((page * 5 / 1024)) KiB" '$3 != want ||
	    $4 !~ /BUFSZ_SIZE/ { bad = 1; print } END { exit bad }' cases ||
	    atf_fail "BUFSZ_SIZE=$((page * 5 + 1)) not shown as 5 pages"
	BUFSZ_SIZE=1 info
	awk -F '\t' -v want="$((page / 1024)) KiB" '$3 != want { bad = 1;
	    print } END { exit bad }' cases ||
	    atf_fail "BUFSZ_SIZE=1 not shown as a page"
}

atf_test_case malformed_env
malformed_env_head()
{
	atf_set descr "Malformed knobs are ignored with a warning, as the" \
	    "programs ignore them"
}
malformed_env_body()
{
	info
	mv cases plain
	BUFSZ_PATH=fast BUFSZ_SIZE=-1 info
	grep -q 'BUFSZ_PATH="fast" ignored' err ||
	    atf_fail "no warning for BUFSZ_PATH: $(cat err)"
	grep -q 'BUFSZ_SIZE="-1" ignored' err ||
	    atf_fail "no warning for BUFSZ_SIZE: $(cat err)"
	[ "$(grep -c ignored err)" -eq 2 ] ||
	    atf_fail "warned more than once a knob: $(cat err)"
	diff plain cases || atf_fail "malformed knobs changed what is shown"
}

atf_init_test_cases()
{
	atf_add_test_case paths_and_reasons
	atf_add_test_case path_env
	atf_add_test_case size_env
	atf_add_test_case malformed_env
}
