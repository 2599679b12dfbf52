#!/usr/bin/env bash
# Sets everything up on a fresh Debian machine and runs the whole test suite:
# Debian's chromium, PostgreSQL, Redis, nginx and npm (installed when missing; needs root or sudo), a virtualenv
# with the project and its test tools, axe-core for the browser tests' accessibility checks, a
# PostgreSQL database for the server tests, then pytest (which also runs ruff, mypy and the doctests).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v pg_ctlcluster >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 \
  || missing+=(postgresql)
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# tests/deploy: nginx runs deploy/nginx.conf with a certificate openssl makes (/usr/sbin is not on
# every user's PATH). systemd-analyze, when present, verifies deploy/ludotheque.service.
{ command -v nginx || [ -x /usr/sbin/nginx ]; } >/dev/null 2>&1 || missing+=(nginx)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/pip install -q --upgrade pip
# The research extra (OpenSpiel, PettingZoo, Gymnasium) and the distributed one (Redis, Ray) too:
# tests/research runs the adapters, tests/distributed several workers, Redis and a local Ray.
.venv/bin/pip install -q -e '.[dev,research,distributed]'

# axe-core, injected into the pages by tests/browser (a pinned version, in the git-ignored node_modules).
AXE_CORE=4.14.1
grep -qs "\"version\": \"$AXE_CORE\"" node_modules/axe-core/package.json \
  || npm install --no-save --no-audit --no-fund --no-package-lock "axe-core@$AXE_CORE" >/dev/null

# A PostgreSQL cluster and database for the server tests (Debian's refuses to run as root:
# pg_ctlcluster starts it as the postgres user).
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h 2>/dev/null | grep -q "^$version main"; then
  as_root pg_createcluster "$version" main >/dev/null
fi
as_root pg_ctlcluster "$version" main start 2>/dev/null || true
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
as_root su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='ludotheque'\" | grep -q 1 \
  || psql -qc \"CREATE ROLE ludotheque LOGIN PASSWORD 'ludotheque' CREATEDB\"" >/dev/null
as_root su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='ludotheque_test'\" | grep -q 1 \
  || createdb -O ludotheque ludotheque_test" >/dev/null
export LUDOTHEQUE_TEST_POSTGRES="postgresql://ludotheque:ludotheque@127.0.0.1:${port}/ludotheque_test"

.venv/bin/python -m pytest -q "$@"
