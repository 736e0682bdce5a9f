# Prints, for each failing test in node's TAP output, its name and the first lines of its error: the part of a
# failure that CI's printout must still show when only the tail of the output is kept. Leaf tests only (a failing
# suite repeats its failing children); at most 6 failures, 14 lines each.
# Usage: awk -v file=<label> -f scripts/lib/failing-tests.awk <log>
/^[ ]*not ok [0-9]+ - / {
  name = $0
  sub(/^[ ]*not ok [0-9]+ - /, "", name)
  block = 1; lines = 0; text = ""; leaf = 1
  next
}
block && /^[ ]*type: 'suite'/ { leaf = 0 }
block && /^[ ]*\.\.\.[ ]*$/ {
  if (leaf && shown < 6) {
    shown++
    printf "--- %s: %s\n%s", file, name, text
  }
  block = 0
  next
}
block {
  if ($0 ~ /duration_ms|^[ ]*---[ ]*$|failureType|^[ ]*code: 'ERR_TEST_FAILURE'/) next
  # The error line is kept longer: an e2e failure's message ends with the notifications and the last log lines.
  if (lines < 14) { line = $0; sub(/^[ ]+/, "  ", line); text = text substr(line, 1, line ~ /^  error:/ ? 1600 : 240) "\n"; lines++ }
}
