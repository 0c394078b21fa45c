# SPDX-License-Identifier: BSD-2-Clause
#
# The safety checker in the suite (README): seed 1's generated cp cases
# keep every invariant.  The program is ${rootdir}/bin/cp (rootdir: a
# kyua configuration variable; empty, the installed one).
#

atf_test_case cp_generated
cp_generated_head()
{
	atf_set "descr" "Generated trees and cp invocations: nothing outside" \
	    "the destination changed, no crash, hang or leaked descriptor," \
	    "every failure reported with exit 1 (seed 1, 300 cases)"
}
cp_generated_body()
{
	# The fault injector, where it is, forces the copy paths and buffer
	# sizes the cases ask for (FAULTINJ_PATH, FAULTINJ_BUFSIZE).
	preload=$(atf_get_srcdir)/libsafetyfd.so
	fi=$(atf_get_srcdir)/../lib/libbufsz/faults/libfaultinj.so
	[ -f "$fi" ] && preload=$preload:$fi
	"$(atf_get_srcdir)/safety" -P "$preload" \
	    -r "$(atf_config_get rootdir '')" -s 1 -n 300 > out 2>&1
	status=$?
	cat out
	[ $status -eq 0 ] || atf_fail "safety exited $status:" \
	    "$(grep -c '^FAIL' out) failing cases (above)"
	grep -q '^safety: seed 1, 300 cases, 0 failed' out ||
	    atf_fail "safety did not run its 300 cases"
}

atf_init_test_cases()
{
	atf_add_test_case cp_generated
}
