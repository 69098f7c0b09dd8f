#!/usr/bin/env bash
# Rewrites the table in docs/ops.md from `glpool ops` (the build's binary):
# keeps the page's text above the first ``` fence, replaces what follows.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
glpool="${1:-$root/build/samples/glpool}"
page="$root/docs/ops.md"
head="$(sed '/^```$/,$d' "$page")"
{ printf '%s\n\n```\n' "$head"; "$glpool" ops; printf '```\n'; } > "$page.new"
mv "$page.new" "$page"
echo "docs/ops.md: $(grep -c ' gpu \| cpu ' "$page") ops"
