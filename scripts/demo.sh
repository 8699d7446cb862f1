#!/usr/bin/env bash
# make demo: the main job of gramc on the bundled examples.
set -u
cd "$(dirname "$0")/.."
G=bin/gramc
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }
step $G version
