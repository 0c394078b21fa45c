#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The guest's own files for make check-freebsd-vm, written into an
# installed -DNO_ROOT tree and listed in its METALOG: the serial console,
# the root file system, an rc.conf that starts little, the Kyuafiles
# that gather the suites, and an rc.local that runs them, prints the
# report between markers, runs the bench (bench.sh) and powers the
# machine off.  GUEST_SUITES=NO: no suite; GUEST_TESTS: only these
# tests (kyua's filters); GUEST_BENCH=NO: no bench; BENCH_ARGS:
# bench.sh's options.
#
# usage: guest.sh root

set -u
root=$1
[ -f "$root/METALOG" ] || { echo "guest.sh: $root/METALOG missing" >&2; exit 1; }

# put path mode: stdin into root/path, and a METALOG line for it.
put()
{
	mkdir -p "$root/$(dirname "$1")" &&
	    cat > "$root/$1" &&
	    echo ".$1 type=file uname=root gname=wheel mode=$2" \
	    >> "$root/METALOG"
}

put /boot/loader.conf 0644 <<'EOF'
console="comconsole"
autoboot_delay="1"
beastie_disable="YES"
EOF

# /tmp stays on the root's UFS: kyua's work directories are there, and
# the suites' copy paths, holes, flags and extattrs are UFS's.
put /etc/fstab 0644 <<'EOF'
/dev/ufs/rootfs	/	ufs	rw	1	1
EOF

put /etc/rc.conf 0644 <<'EOF'
hostname="checkvm"
sendmail_enable="NONE"
cron_enable="NO"
syslogd_enable="NO"
dumpdev="NO"
update_motd="NO"
virecover_enable="NO"
EOF

# What the guest runs (vm.sh -b: the bench alone), read by rc.local.
put /etc/check-freebsd-vm.conf 0644 <<EOF
suites=${GUEST_SUITES:-YES}
tests="${GUEST_TESTS:-}"
bench=${GUEST_BENCH:-YES}
bench_args="${BENCH_ARGS:-}"
EOF

# kyua's own FreeBSD suites run as root and, where a case asks for it,
# as the unprivileged user FreeBSD's master.passwd has for them.
put /etc/rc.local 0755 <<'EOF'
#!/bin/sh
# make check-freebsd-vm: the suites, their report, what Casper costs,
# the bench, then power off.
. /etc/check-freebsd-vm.conf
echo "check-freebsd-vm: started $(date -u)"
echo "check-freebsd-vm: $(uname -a)"
echo "check-freebsd-vm: hw.physmem $(sysctl -n hw.physmem)"
if [ "$suites" = YES ]; then
	echo "check-freebsd-vm: kyua test started $(date -u)"
	# Each case's line goes to the console as it ends, to show where a
	# run that never ends stands.
	cd /usr/tests
	{
		# shellcheck disable=SC2086
		kyua -v test_suites.FreeBSD.unprivileged_user=tests test \
		    -k /usr/tests/Kyuafile $tests
		echo $? > /var/tmp/kyua-test.rc
	} 2>&1 | tee /var/tmp/kyua-test.log
	rc=$(cat /var/tmp/kyua-test.rc)
	echo "check-freebsd-vm: kyua test ended $(date -u), exit status $rc"
	echo "==== check-freebsd-vm: report begins ===="
	kyua report \
	    --results-filter passed,skipped,xfail,broken,failed
	kyua report --verbose --results-filter broken,failed
	echo "==== check-freebsd-vm: report ends ===="
	cd /
fi
if [ "$bench" = YES ]; then
	if [ "$suites" = YES ]; then
		echo "==== check-freebsd-vm: confinement cost begins ===="
		sh /root/confine-cost.sh
		echo "==== check-freebsd-vm: confinement cost ends ===="
	fi
	echo "check-freebsd-vm: bench started $(date -u)"
	echo "==== check-freebsd-vm: bench begins ===="
	# shellcheck disable=SC2086
	sh /root/bench.sh $bench_args
	echo "==== check-freebsd-vm: bench ends ===="
	echo "check-freebsd-vm: bench ended $(date -u)"
fi
shutdown -p now
EOF

# What Casper costs a run of cat and tail (confine-cost.sh), and the
# import's programs beside FreeBSD's own (bench.sh), measured once the
# suites are done.
put /root/confine-cost.sh 0555 < "$(dirname "$0")/confine-cost.sh"
put /root/bench.sh 0555 < "$(dirname "$0")/bench.sh"

put /usr/tests/Kyuafile 0444 <<'EOF'
syntax(2)

test_suite("FreeBSD")

include("bin/cat/Kyuafile")
include("bin/cp/Kyuafile")
include("usr.bin/tail/Kyuafile")
include("usr.bin/yes/Kyuafile")
include("lib/libbufsz/Kyuafile")
include("lib/libbufsz/faults/Kyuafile")
include("freebsd/bin/cp/Kyuafile")
include("freebsd/usr.bin/tail/Kyuafile")
EOF
