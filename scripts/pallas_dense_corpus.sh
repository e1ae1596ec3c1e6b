#!/usr/bin/env bash
# Gather a Pallas-dense corpus for `benchmarks/bench_vs_ruff.py --only dense --corpus DIR`: every
# Python file that says "pallas" from git clones (or bare mirrors) of public Pallas code, e.g.
#   scripts/pallas_dense_corpus.sh /tmp/dense tokamax/.git tpu-inference/.git jax/.git maxtext/.git
# From jax only tests/pallas, docs/pallas and jax/experimental/pallas/ops are taken (the rest of
# jax is the `cli` target's corpus).  Files are read with `git cat-file`, so large objects a
# shallow or partial mirror lacks do not matter.
set -euo pipefail
out=$1; shift
mkdir -p "$out"
for git_dir in "$@"; do
  name=$(basename "$(dirname "$(cd "$git_dir" && pwd)")")
  git --git-dir="$git_dir" ls-tree -r HEAD --name-only | grep '\.py$' | while read -r path; do
    if [[ $name == jax || $name == *+jax ]]; then  # jax itself (a clone, or a mirror named owner+jax)
      case $path in tests/pallas/*|docs/pallas/*|jax/experimental/pallas/ops/*) ;; *) continue ;; esac
    fi
    text=$(git --git-dir="$git_dir" cat-file -p "HEAD:$path" 2>/dev/null) || continue
    if grep -q pallas <<<"$text"; then
      mkdir -p "$out/$name/$(dirname "$path")"
      printf '%s\n' "$text" > "$out/$name/$path"
    fi
  done
done
find "$out" -name '*.py' | wc -l
