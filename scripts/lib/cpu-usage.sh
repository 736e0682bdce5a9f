# How busy the machine's cores were while each part of `npm test` ran (sourced by scripts/test-all.sh, not run).
# Measured, not guessed: the VS Code suites, the unit tests and the conformance suite share two cores, and a test that
# waits on a timer fails when the others starve it.
#
#   cpu_sampler_start FILE     samples /proc/stat every ${CPU_SAMPLE_SECONDS:-2} s into FILE ("epoch busy%" lines),
#                              in the background until cpu_sampler_stop
#   cpu_mark FILE NAME         appends "epoch mark NAME" to FILE (a span starts at NAME:start, ends at NAME:end)
#   cpu_report FILE            prints each span's mean busy share and the share of its samples with both cores busy

cpu_sampler_pid=""

cpu_sampler_start() {
  local file=$1 interval=${CPU_SAMPLE_SECONDS:-2}
  : >"$file"
  (
    read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
    local previous_busy=$((user + nice + system + irq + softirq + steal)) previous_total=$((user + nice + system + idle + iowait + irq + softirq + steal))
    # `$$` is the sourcing script (a subshell keeps it): the sampler ends with it, even when that is killed outright.
    while sleep "$interval" && kill -0 "$$" 2>/dev/null; do
      read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
      local busy=$((user + nice + system + irq + softirq + steal)) total=$((user + nice + system + idle + iowait + irq + softirq + steal))
      local span=$((total - previous_total))
      ((span > 0)) && echo "$(date +%s) $(((busy - previous_busy) * 100 / span))" >>"$file"
      previous_busy=$busy previous_total=$total
    done
  ) &
  cpu_sampler_pid=$!
}

cpu_sampler_stop() {
  [[ -n $cpu_sampler_pid ]] && kill "$cpu_sampler_pid" 2>/dev/null
  cpu_sampler_pid=""
}

cpu_mark() {
  echo "$(date +%s) mark $2" >>"$1"
}

cpu_report() {
  awk '
    # A mark is "epoch mark NAME:start|end"; NAME may hold spaces and colons (the last colon ends it).
    $2 == "mark" {
      text = substr($0, index($0, " mark ") + 6); cut = match(text, /:[^:]*$/)
      name = substr(text, 1, cut - 1); edge = substr(text, cut + 1)
      if (edge == "start") { begin[name] = $1; order[++n] = name } else finish[name] = $1
      next
    }
    { time[++samples] = $1; busy[samples] = $2 }
    END {
      printf "%-34s %7s %9s %14s\n", "span", "length", "mean busy", "both cores busy"
      for (i = 1; i <= n; i++) {
        name = order[i]; from = begin[name]; to = (name in finish) ? finish[name] : time[samples]
        count = 0; sum = 0; saturated = 0
        for (s = 1; s <= samples; s++) if (time[s] > from && time[s] <= to) { count++; sum += busy[s]; if (busy[s] >= 95) saturated++ }
        if (count == 0) { printf "%-34s %6ss %9s %14s\n", name, to - from, "-", "-"; continue }
        printf "%-34s %6ss %8d%% %13d%%\n", name, to - from, sum / count, saturated * 100 / count
      }
    }' "$1"
}
