#!/usr/bin/env bash
# Issue 55: deliberate mutations of the fast engines and of the metric
# code, one per rule, each of which the tests must catch; issue 62 adds
# one per query rewrite rule and per rule of a step's totals and lines.
# Each is applied alone, the tests named beside it run, and the source is
# put back; a mutation the tests let through is a test to write.
# CONTRIBUTING.md lists them. Each needs a rebuild of the test binaries,
# so this is not part of CI: run it after changing a fast engine, the
# metric code, a query's rules or the tests that hold them.
#
#   scripts/mutants.sh            every mutation
#   scripts/mutants.sh 3 5        the third and the fifth
#
# It edits the sources in place while it runs: run it on a tree with
# nothing to commit, and commit nothing until it ends. The failures a
# mutation causes are not kept as proptest regressions.
set -uo pipefail
cd "$(dirname "$0")/.."

saved=$(mktemp -d)
cp tests/*.proptest-regressions "$saved"/ 2>/dev/null
# A crate's unit tests keep theirs beside it (crates/*/proptest-regressions):
# those folders are put back as they were, and any a mutation made go.
crate_seeds=$(mktemp)
tar -cf "$crate_seeds" crates/*/proptest-regressions 2>/dev/null
put_seeds_back() {
    cp "$saved"/*.proptest-regressions tests/ 2>/dev/null
    rm -rf crates/*/proptest-regressions
    tar -xf "$crate_seeds" 2>/dev/null
}
file=""
backup=""
# Whatever ends the script (Ctrl-C during a test included) puts the
# mutated source and the regression files back.
trap '[ -n "$backup" ] && [ -f "$backup" ] && cp "$backup" "$file"; put_seeds_back; rm -rf "$saved" "$backup" "$crate_seeds"' EXIT

# file | text | its mutation | the test that must fail (cargo test args)
MUTANTS=(
  "crates/profx-model/src/metrics/trace_acc.rs|            if !recursive {|            if !recursive \|\| pop.span >= 0.0 {|--test oracle"
  "crates/profx-model/src/metrics/trace_acc.rs|                line.ms += pop.span;|                line.ms += pop.self_ms;|--test oracle"
  "crates/profx-model/src/metrics/trace_acc.rs|                func.max_span = func.max_span.max(pop.span);|                func.max_span = func.max_span.min(pop.span);|--test oracle"
  "crates/profx-model/src/metrics/trace.rs|                st.outside_ms += d;|                st.outside_ms += 0.0;|--test oracle"
  "crates/profx-model/src/metrics/samples.rs|                f.hits_total += 1;|                f.hits_total += 2;|--test oracle"
  "crates/profx-load/src/xpp/fast/record.rs|    (skip_spaces(raw, i) == raw.len()).then(\|\| mantissa as f64 / POW10[k])|    (skip_spaces(raw, i) == raw.len()).then(\|\| mantissa as f64 / POW10[k.min(1)])|--test properties reference"
  "crates/profx-load/src/names.rs|                && (name.len() <= 16|                && (name.len() <= 64|--test properties reference"
  "crates/profx-load/src/br/fast/frame_keys.rs|        if len >= 16 {|        if len >= 24 {|--test properties reference"
  "crates/profx-load/src/plist/fast/bytes.rs|        (Some(&a), Some(&z)) if a != b' ' && z != b' ' => Some(s),|        (Some(_), Some(_)) => Some(s),|--test properties reference"
  "crates/profx-load/src/br/rules.rs|                Step::Closed => return self.close(at, \"\", sink),|                Step::Closed => return self.close(at, NEXT_SAMPLE, sink),|-p profx-load br::"
  "crates/profx-load/src/br/rules.rs|        if self.known_module(module).is_none() {|        if true {|-p profx-load br::"
  "crates/profx-load/src/br/rules.rs|                (self.ns, self.timed) = (self.ns.saturating_add(ns), true);|                (self.ns, self.timed) = (ns, true);|-p profx-load br::"
  "crates/profx-load/src/plist/rules.rs|        if g.seen != g.declared {|        if g.seen > g.declared {|-p profx-load plist::"
  "crates/profx-load/src/plist/rules.rs|                *slot = if *slot == NO_FUNCTION \|\| *slot == index {|                *slot = if *slot != SEVERAL {|-p profx-load plist::"
  "crates/profx-load/src/plist/fast/mod.rs|            lines: self.lines,|            lines: 0,|-p profx-load plist::"
  "crates/profx-analysis/src/query/rewrite.rs|                        path.drain(i + 1..=j);|                        path.drain(i + 1..j);|--test properties each_transform"
  "crates/profx-analysis/src/query/paths.rs|            n.hits = n.hits.map(\|_\| 0);|            n.hits = n.hits.map(\|h\| h);|--test properties each_transform"
  "crates/profx-model/src/metrics/paths.rs|                if std::mem::replace(&mut seen[f.index()], i) != i {|                if std::mem::replace(&mut seen[f.index()], i) != usize::MAX {|--test properties each_transform"
  "crates/profx-load/src/xpp/rules.rs|            && !chosen.contains(&r.thread)|            && chosen.contains(&r.thread)|--test properties one_thread"
  "crates/profx-analysis/src/query/rewrite.rs|                path.retain(\|f\| !f.is(set));|                if path.last().is_some_and(\|f\| f.is(set)) { path.pop(); }|--test properties each_transform"
  "crates/profx-analysis/src/query/rewrite.rs|                path.remove(node.len() - 1);|                path.truncate(node.len() - 1);|--test properties each_transform"
  "crates/profx-analysis/src/query/rewrite.rs|            Rule::Drop(set) => match path.iter().any(\|f\| f.is(set)) {|            Rule::Drop(set) => match path.last().is_some_and(\|f\| f.is(set)) {|--test properties each_transform"
  "crates/profx-analysis/src/query/rewrite.rs|            Rule::Focus(set) => match path.iter().position(\|f\| f.is(set)) {|            Rule::Focus(set) => match path.iter().rposition(\|f\| f.is(set)) {|--test properties each_transform"
  "crates/profx-analysis/src/query/rewrite.rs|                    path.drain(..node.len() - 1);|                    path.drain(..node.len().saturating_sub(2));|--test properties each_transform"
  "crates/profx-analysis/src/query/rewrite.rs|                        kept(j + 1 < n)|                        kept(true)|--test properties each_transform"
  "crates/profx-analysis/src/query/rewrite.rs|                    if f.is(set) && out.last() == Some(&f) {|                    if f.is(set) && out.contains(&f) {|--test properties each_transform"
  "crates/profx-analysis/src/query/rewrite.rs|                    if out.last() != Some(&Frame::Module) {|                    if true {|--test properties each_transform"
  "crates/profx-analysis/src/query/rewrite.rs|                    path.truncate(i + 1);|                    path.truncate(i + 2);|--test properties each_transform"
  "crates/profx-model/src/metrics/paths.rs|    f.time.elapsed_exclusive = add_opt(f.time.elapsed_exclusive, n.self_ms);|    f.time.elapsed_exclusive = add_opt(f.time.elapsed_exclusive, n.self_ms.map(\|_\| 0.0));|--test properties each_transform"
  "crates/profx-analysis/src/query/paths.rs|        .map(\|ms\| ms - d.ms.unwrap_or(0.0))|        .map(\|ms\| ms)|--test properties each_transform"
  "crates/profx-analysis/src/query/paths.rs|        Rule::Focus(_) \| Rule::FocusNode(_) => p.totals.outside_ms.map(\|_\| 0.0),|        Rule::Focus(_) \| Rule::FocusNode(_) => p.totals.outside_ms,|-p profx-analysis query::"
  "crates/profx-analysis/src/query/paths.rs|            .map(\|s\| s.saturating_sub(d.hits.unwrap_or(0))),|            .map(\|s\| s),|-p profx-analysis query::"
  "crates/profx-model/src/metrics/paths.rs|        self.paths.ns = hits == HitsCount::Samples;|        self.paths.ns = false;|-p profx-analysis query::"
  "crates/profx-analysis/src/query/paths.rs|                self.new[old.index()] = Some(id);|                self.new[old.index()] = Some(id); b.per_call(id, self.p.per_call(old));|-p profx-analysis query::"
  "crates/profx-analysis/src/query/paths.rs|                Some(id) => (Some(id), !touched[f.index()]),|                Some(id) => (Some(id), true),|-p profx-analysis query::"
  "crates/profx-analysis/src/query/paths.rs|                None => continue,|                None => (None, false),|-p profx-analysis query::"
  "crates/profx-analysis/src/query/paths.rs|            None => (None, !changed),|            None => (None, true),|-p profx-analysis query::"
  "crates/profx-analysis/src/query/paths.rs|    b.carry_threads(p.threads());|    let _ = p.threads();|-p profx-analysis query::"
  "crates/profx-analysis/src/query/paths.rs|        changed \|= result == Rewritten::Removed \|\| *frames != before;|        changed \|= *frames != before;|--test properties each_transform"
  "crates/profx-analysis/src/query/paths.rs|        (true, true) => Some(QueryError::LeavesNothing { step: step.label() }),|        (true, true) => None,|-p profx-analysis query::"
  "crates/profx-analysis/src/query/paths.rs|            (_, Some(Frame::Unlisted)) => b.add_unlisted(&out, n.self_ms.unwrap_or(0.0)),|            (_, Some(Frame::Unlisted)) => { b.add_path(&out, n); }|--test properties each_transform"
  "crates/profx-model/src/metrics/trace_acc.rs|            if timed && !pop.site_nested {|            if timed {|--test oracle"
  "crates/profx-model/src/metrics/trace.rs|        (*n > 1 \|\| lowest_call.is_some_and(\|f\| f.site == site), true)|        (*n > 1, true)|--test oracle"
)

only=("$@")
caught=0
missed=0
for i in "${!MUTANTS[@]}"; do
    n=$((i + 1))
    if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " =~ " $n " ]]; then
        continue
    fi
    IFS='|' read -r file text mutant tests <<<"$(printf '%s' "${MUTANTS[$i]}" | sed 's/\\|/\x01/g')"
    text=${text//$'\x01'/|}
    mutant=${mutant//$'\x01'/|}
    backup=$(mktemp)
    cp "$file" "$backup"
    if ! python3 - "$file" "$text" "$mutant" <<'EOF'
import sys
path, text, mutant = sys.argv[1:]
s = open(path).read()
if s.count(text) != 1:
    sys.exit(f"{path}: the text to mutate is there {s.count(text)} times, not once: {text!r}")
open(path, "w").write(s.replace(text, mutant))
EOF
    then
        cp "$backup" "$file"
        rm -f "$backup"
        echo "mutant $n: cannot apply (the source changed: update this list)"
        missed=$((missed + 1))
        continue
    fi
    # A mutation that does not build is no test's catch.
    # shellcheck disable=SC2086
    if ! cargo test -q --no-run $tests >/dev/null 2>&1; then
        echo "mutant $n: does not build (update this list)"
        missed=$((missed + 1))
    # shellcheck disable=SC2086
    elif cargo test -q $tests >/dev/null 2>&1; then
        echo "mutant $n: NOT caught ($file: $mutant)"
        missed=$((missed + 1))
    else
        echo "mutant $n: caught by cargo test $tests"
        caught=$((caught + 1))
    fi
    cp "$backup" "$file"
    rm -f "$backup"
    backup=""
    put_seeds_back
done
echo "mutants: $caught caught, $missed not"
[ "$missed" = 0 ]
