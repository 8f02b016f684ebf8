#!/bin/sh
# Install what rqconv needs from Debian's packages, only when it is missing.
# Usage: install-deps.sh [extra-package...]
set -e
need=""
want() { command -v "$1" >/dev/null 2>&1 || need="$need $2"; }
want spatch coccinelle
want sparse sparse
want rsync rsync
want patch patch
want git git
want gcc gcc
want make make
want flex flex
want bison bison
want bc bc
want perl perl
want python3 python3
for pkg in "$@"; do
	dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
[ -z "$need" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
		echo "rqconv: missing packages:$need (run as root or install them)" >&2
		exit 1
	fi
fi
echo "rqconv: installing:$need" >&2
export DEBIAN_FRONTEND=noninteractive
${SUDO:-} apt-get update -qq >/dev/null
${SUDO:-} apt-get install -y -qq --no-install-recommends $need >/dev/null
