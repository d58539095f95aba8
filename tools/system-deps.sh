#!/usr/bin/env bash
# The Debian packages the project needs beyond python3, installed when they are missing.
#
#   tools/system-deps.sh           what `make demo` needs: Python's venv module
#   tools/system-deps.sh --browser also Chromium and its driver, for the explorer's
#                                  browser test (what `make test` needs)
#
# As root on a machine with apt-get it installs what is missing; elsewhere it prints one
# line naming the packages to install and exits 1. With everything present it does nothing.
set -euo pipefail

python=${PYTHON:-python3}
missing=()
if ! "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; then
    missing+=(python3-venv)
fi
if [[ "${1:-}" == "--browser" ]]; then
    [[ -x /usr/bin/chromium ]] || missing+=(chromium)
    [[ -x /usr/bin/chromedriver ]] || missing+=(chromium-driver)
fi
(( ${#missing[@]} == 0 )) && exit 0

if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
    exit 0
fi
echo "robinwood needs these Debian packages: ${missing[*]}; install them" \
     "(sudo apt-get install -y ${missing[*]}) and run make again" >&2
exit 1
