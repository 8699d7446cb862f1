#!/usr/bin/env bash
# make demo: gramc's main job on the bundled examples — parse, format, check
# (including a broken package's diagnostics), emit provider schemas, generate
# Go, draw and test the typed triage agent, and run the hello and triage agents
# (against OpenAI when OPENAI_API_KEY is set, else against the bundled fake
# OpenAI server).
set -u
cd "$(dirname "$0")/.."
G=bin/gramc
# Bold headings only on a terminal (and not with NO_COLOR); a log file gets
# plain text.
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then B=$'\033[1m' R=$'\033[0m'; else B='' R=''; fi
bold() { printf '\n%s%s%s\n' "$B" "$*" "$R"; }
# clip cuts a line longer than 160 characters and marks the cut with "…",
# so the demo reads on any screen and a cut line says so.
clip() { sed -E 's/^(.{159}).{2,}$/\1…/'; }
# step shows a command and runs it, its long lines (a one-line tree, a
# compact schema, a diagnostic's explanation) clipped.
step() {
  printf '\n%s$ %s%s\n' "$B" "$*" "$R"
  "$@" 2>&1 | clip
  return "${PIPESTATUS[0]}"
}

step $G version
step $G parse --sexp examples/hello/hello.gram
bold "# gramc fmt prints a seed file in the canonical layout; fmt -l lists files that are not (none of the examples):"
step $G fmt testdata/examples/seed/sayHello.gram
step $G fmt -l ./examples/hello ./examples/hellogoodbye ./examples/weather
step $G check ./examples/hello ./examples/hellogoodbye ./examples/weather ./examples/triage && echo "ok: no problems"
bold "# a typed agent (examples/triage): its picture, and the request its first turn sends on OpenAI and on Gemini 2.5"
step $G graph examples/triage
step $G schema --agent triage --request examples/triage
step $G schema --agent triage --request --model Gemini/gemini-2.5-flash examples/triage
bold "# its :Test with no provider, no cassette and no key: a scripted model"
step $G test --scripted examples/triage
bold "# a broken package: every mistake, positioned, with the fix (exit status 1 is expected)"
step $G check ./examples/testdata/broken
bold "# provider compatibility lint: what Gemini cannot express, and the fallback gramc takes"
step $G check --target gemini ./examples/weather
step $G schema --target openai --tool getWeather ./examples/weather
step $G schema --target mcp --tool getForecast ./examples/weather
out=$(mktemp -d)
trap 'rm -rf "$out"; [ -n "${fake:-}" ] && kill "$fake" 2>/dev/null' EXIT
step $G gen -o "$out" ./examples/weather
bold "# generated Go ($(ls "$out")): the getWeather tool's typed arguments and constructor"
grep -n -A12 '^type GetWeatherArgs struct' "$out"/*.go
grep -n -B2 -A3 '^func NewGetWeatherTool' "$out"/*.go

if [ -n "${OPENAI_API_KEY:-}" ]; then
  bold "# running the hello agent against OpenAI"
  step $G run examples/hello/hello.gram "Hello! My name is Ada."
else
  bold "# OPENAI_API_KEY is not set: running the hello agent against the bundled fake OpenAI server"
  go build -o bin/fakeopenai ./runtime/runtimetest/fakeopenai
  urlfile="$out/url"
  bin/fakeopenai -urlfile "$urlfile" >/dev/null 2>&1 &
  fake=$!
  for _ in $(seq 50); do [ -s "$urlfile" ] && break; sleep 0.1; done
  OPENAI_API_KEY=demo step $G run --base-url "$(cat "$urlfile")" examples/hello/hello.gram "Ada"
  bold "# the typed triage agent: the value, validated, on standard output"
  OPENAI_API_KEY=demo step $G run --base-url "$(cat "$urlfile")" --tool 'lookupCustomer=echo gold' examples/triage "ada@example.com: the site is down"
  bold "# the same agent from Go, through generated code (examples/hello):"
  OPENAI_API_KEY=demo OPENAI_BASE_URL="$(cat "$urlfile")" step go run ./examples/hello "Ada"
fi

bold "# gramc mcp: the hello tool served to an MCP client (tools/list, then one call)"
( printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"demo","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}' \
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"sayHello","arguments":{"personName":"Ada"}}}'
  sleep 1 ) | $G mcp examples/hello/hello.gram 2>&1 | clip

bold "# gramc lsp: an editor's session (open a file with a typo, hover the tool, shut down), framed as editors frame it"
frame() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1"; }
doc="file://$out/greet.gram"
{ frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"processId":null,"rootUri":null}}'
  frame '{"jsonrpc":"2.0","method":"initialized","params":{}}'
  frame '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"'"$doc"'","languageId":"gram","version":1,"text":"[greet:Tool {description: \"Greets someone\"} |\n  (name::Strin)==>(::String)\n]\n"}}}'
  frame '{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"'"$doc"'"},"position":{"line":0,"character":2}}}'
  sleep 1 # as an editor does, answers before shutdown: exit ends the stream
  frame '{"jsonrpc":"2.0","id":3,"method":"shutdown"}'
  frame '{"jsonrpc":"2.0","method":"exit"}'
} | $G lsp 2>&1 | tr -d '\r' | sed 's/Content-Length: [0-9]*/\n/g' | grep -v '^$' \
  | sed -E 's|.*"method":"textDocument/publishDiagnostics".*"code":"([a-z-]+)".*"message":"([^"]*)".*|publishDiagnostics: [\1] \2|' | clip
