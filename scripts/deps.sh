#!/bin/sh
# scripts/deps.sh checks what icgen needs to build and test, and installs
# the missing Debian packages with apt-get when it may.
#
#   required  gcc        the C compiler cgo uses
#             libz3-dev  Z3's header and library (internal/z3 links -lz3)
#   optional  graphviz   dot, used only by `icgen explore --svg`
#             parallel   GNU parallel, used only by the test of sharded
#                        synthesis (docs/scaling.md shows it to users)
#
# With everything present it runs nothing that needs privileges. Missing
# optional packages alone are installed when that needs no password (as
# root, or with sudo -n), else each gets a one-line note. Otherwise it
# installs the missing packages (optional ones too) with `apt-get update`
# and `apt-get install -y`, showing apt's progress: directly as root, else through sudo if sudo
# runs without a password or can ask for one on a terminal. When neither
# works it prints what is missing and the one command an administrator
# runs, and exits 1.
#
# Exit status: 0 all required packages present, 1 something required is
# missing and was not installed, 2 usage.
#
# Environment: GO, the go command (default go); CGO_CFLAGS and CGO_LDFLAGS,
# used as cgo uses them when checking that a C program can link Z3.

set -u

case $# in
0) ;;
*)
	case $1 in
	-h | --help)
		echo "usage: scripts/deps.sh"
		echo "Checks for gcc, libz3-dev and graphviz; installs what is missing with apt-get as root or through sudo, or says what to ask an administrator for."
		exit 0
		;;
	esac
	echo "usage: scripts/deps.sh (no arguments)" >&2
	exit 2
	;;
esac

GO=${GO:-go}
me=deps

have() { command -v "$1" >/dev/null 2>&1; }

# have_z3: a C program that calls Z3 compiles and links. Without gcc that
# cannot be tried, and dpkg's record of libz3-dev decides.
have_z3() {
	if have gcc; then
		printf '#include <z3.h>\nint main(void) { unsigned a, b, c, d; Z3_get_version(&a, &b, &c, &d); return 0; }\n' |
			gcc ${CGO_CFLAGS:-} -x c -o /dev/null - ${CGO_LDFLAGS:-} -lz3 >/dev/null 2>&1
		return
	fi
	case $(dpkg-query -W -f='${Status}' libz3-dev 2>/dev/null) in
	*" installed") return 0 ;;
	esac
	return 1
}

# have_gnu_parallel: GNU parallel, not moreutils' command of that name.
have_gnu_parallel() {
	have parallel || return 1
	case $(parallel --version 2>/dev/null) in
	*"GNU parallel"*) return 0 ;;
	esac
	return 1
}

# missing sets required and optional to the packages not installed.
missing() {
	required= optional=
	have gcc || required="$required gcc"
	have_z3 || required="$required libz3-dev"
	have dot || optional="$optional graphviz"
	have_gnu_parallel || optional="$optional parallel"
	required=${required# } optional=${optional# }
}

# what prints one line per missing package.
what() {
	for p in $required $optional; do
		case $p in
		gcc) echo "  gcc         the C compiler cgo uses" ;;
		libz3-dev) echo "  libz3-dev   Z3's header and library" ;;
		graphviz) echo "  graphviz    optional: icgen explore --svg draws with it" ;;
		parallel) echo "  parallel    optional: the test of sharded synthesis runs through GNU parallel" ;;
		esac
	done
}

# needs says what needs an optional package.
needs() {
	case $1 in
	graphviz) echo "icgen explore --svg" ;;
	parallel) echo "the test of sharded synthesis (GNU parallel)" ;;
	esac
}

# notes prints, for each optional package missing, what needs it.
notes() {
	for p in $optional; do
		echo "$me: note: $p is not installed; only $(needs "$p") needs it (sudo apt-get install -y $p)" >&2
	done
}

missing
go_missing=
have "$GO" || go_missing=yes

if [ -z "$required" ] && [ -z "$go_missing" ]; then
	[ -z "$optional" ] && exit 0
	# Only optional packages are missing: install them when that needs no
	# password, else leave a note (the tests that use them are skipped).
	if have apt-get && [ "$(id -u)" = 0 ]; then
		echo "$me: installing $optional with apt-get" >&2
		[ -t 0 ] || export DEBIAN_FRONTEND="${DEBIAN_FRONTEND:-noninteractive}"
		{ apt-get update && apt-get install -y $optional; } || { echo "$me: note: apt-get failed" >&2; notes; }
	elif have apt-get && have sudo && sudo -n true 2>/dev/null; then
		echo "$me: installing $optional with sudo apt-get" >&2
		{ sudo apt-get update && sudo apt-get install -y $optional; } || { echo "$me: note: apt-get failed" >&2; notes; }
	else
		notes
	fi
	exit 0
fi

if [ -n "$go_missing" ]; then
	echo "$me: $GO: command not found. icgen needs Go (see the go line of go.mod): https://go.dev/dl/" >&2
	[ -z "$required" ] && exit 1
fi

pkgs="$required${optional:+ $optional}"
cmd="apt-get update && apt-get install -y $pkgs"

if ! have apt-get; then
	echo "$me: icgen needs packages that are not installed:" >&2
	what >&2
	echo "$me: apt-get not found: install them with this system's package manager (names differ outside Debian and Ubuntu)." >&2
	exit 1
fi

# How to run apt-get: as root, through sudo, or not at all (why says why).
as= why=
if [ "$(id -u)" = 0 ]; then
	as=root
elif ! have sudo; then
	why="you are not root and sudo is not installed"
elif sudo -n true 2>/dev/null; then
	as=sudo
elif [ -t 0 ]; then
	echo "$me: installing $pkgs needs root; asking sudo:" >&2
	if sudo -v; then
		as=sudo
	else
		why="you are not root and sudo refused"
	fi
else
	why="you are not root, and sudo needs a password but there is no terminal to ask for it"
fi

if [ -z "$as" ]; then
	echo "$me: icgen needs packages that are not installed:" >&2
	what >&2
	echo "$me: installing them needs root: $why." >&2
	echo "$me: ask an administrator to run this command, then run make again:" >&2
	echo >&2
	if have sudo; then
		echo "    sudo sh -c '$cmd'" >&2
	else
		echo "    su -c '$cmd'" >&2
	fi
	echo >&2
	exit 1
fi

status=0
if [ "$as" = root ]; then
	echo "$me: installing $pkgs with apt-get" >&2
	# No terminal (CI): keep debconf from asking.
	[ -t 0 ] || export DEBIAN_FRONTEND="${DEBIAN_FRONTEND:-noninteractive}"
	apt-get update && apt-get install -y $pkgs || status=$?
else
	echo "$me: installing $pkgs with sudo apt-get" >&2
	sudo apt-get update && sudo apt-get install -y $pkgs || status=$?
fi
if [ "$status" -ne 0 ]; then
	echo "$me: apt-get failed (exit status $status); nothing else was tried" >&2
	exit 1
fi

missing
if [ -n "$required" ]; then
	echo "$me: still missing after apt-get: $required" >&2
	case $required in
	*libz3-dev*) have gcc && echo "$me: (gcc cannot build a C program with -lz3: check CGO_CFLAGS and CGO_LDFLAGS)" >&2 ;;
	esac
	exit 1
fi
[ -z "$go_missing" ] || exit 1
exit 0
