#!/bin/sh
# need-packages.sh CHECK-FILE PACKAGE [CHECK-FILE PACKAGE ...]
# Installs each Debian package whose CHECK-FILE (a header, a program in
# PATH, or a path) is missing, with apt-get when running as root; otherwise
# says exactly what to run and fails.
set -eu
missing=""
while [ $# -ge 2 ]; do
    check=$1 package=$2
    shift 2
    case $check in
        /*) [ -e "$check" ] && continue ;;
        *) command -v "$check" >/dev/null 2>&1 && continue ;;
    esac
    missing="$missing $package"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing:$missing" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
    exit 0
fi
echo "missing packages:$missing; install them with: sudo apt-get install$missing" >&2
exit 1
