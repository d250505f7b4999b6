#!/usr/bin/env bash
# Measurements behind the virtual device model and the host's page reporting (docs/real-devices.md),
# repeatable on a machine of one's own: each probe makes its own loop device on a 300 MiB file in a
# temporary folder, runs fio on it, and detaches and deletes it at the end (also on error or ^C).
# Root, fio and losetup needed; nothing else is written.
#
#   sudo bench/real-probes.sh depth [randread|randwrite]   latency and rate at QD 1, 4, 8, 32, CPUs busy
#   sudo bench/real-probes.sh reader-writer                 a QD1 reader beside a 1 MiB writer at QD 1, 2, 4, 8
#   sudo bench/real-probes.sh sequential                    1 MiB direct reads at QD 1–16, 128 KiB buffered reads
#   sudo bench/real-probes.sh submitters                    1, 2, 4 jobs × QD8 under none and mq-deadline
#   sudo bench/real-probes.sh page-reporting                64 MiB buffered writes twice, T seconds apart
#   sudo bench/real-probes.sh stalls                        per-I/O logs: millisecond gaps in the completions, QD 1–32
#   sudo bench/real-probes.sh backing [RUNS]                 ftrace of the disk under the loop device: reads held by its ring and scheduler
#   sudo bench/real-probes.sh writeback                     ftrace of a reader beside buffered writeback: throttled depth, bursts, passes
#   sudo bench/real-probes.sh signal                        completions per interrupt of the virtio disk under the loop device, QD 1, 4, 32
#   sudo bench/real-probes.sh passes [QD]                    ftrace of that disk at QD32 reads: completion clusters, time at the disk, gaps
#   sudo bench/real-probes.sh drift [RUNS]                   the same 3 s jobs back to back (default 5 times): how far the machine moves
#   sudo bench/real-probes.sh completion                    the guest's interrupt and softirq work per completed request (QD1 reader beside QD32)
#   sudo bench/real-probes.sh wake                          a real-time QD1 reader beside 64 writes: its turnaround and CPU around each insert
set -euo pipefail
probe=${1:-}
dir=$(mktemp -d /tmp/iosched-probe-XXXXXX)
dev=''
T=/sys/kernel/tracing
EVENTS='block_rq_insert block_rq_issue block_rq_complete'
# the disk a file lives on (its st_dev in /sys/dev/block; a partition's parent)
diskof() {
  local mm d
  mm=$(printf '%d:%d' $(( $(stat -c %d "$1") >> 8 & 0xfff )) $(( $(stat -c %d "$1") & 0xff )))
  d=$(basename "$(readlink -f /sys/dev/block/$mm)")
  [ -e "/sys/dev/block/$mm/partition" ] && d=$(basename "$(dirname "$(readlink -f /sys/dev/block/$mm)")")
  echo "$d"
}
# a tracefs instance of the probe's own (its events and buffer; removed at the end)
I=$T/instances/iosched-probe-$$
cleanup() {
  if [ -d "$I" ]; then
    echo 0 >"$I/tracing_on" 2>/dev/null || true
    echo 0 >"$I/events/enable" 2>/dev/null || true
    rmdir "$I" 2>/dev/null || true
  fi
  if { [ "$probe" = backing ] || [ "$probe" = writeback ] || [ "$probe" = passes ]; } && [ -d "$T" ]; then
    echo 0 >"$T/tracing_on" 2>/dev/null || true
    for e in $EVENTS; do echo 0 >"$T/events/block/$e/enable" 2>/dev/null || true; done
    echo >"$T/trace" 2>/dev/null || true
  fi
  [ -n "$dev" ] && losetup -d "$dev" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM
loop() {
  if [ "$1" = fill ]; then dd if=/dev/urandom of="$dir/f.img" bs=1M count=300 status=none; else truncate -s 300M "$dir/f.img"; fi
  dev=$(losetup --find --show --direct-io=on "$dir/f.img")
  echo none >"/sys/block/$(basename "$dev")/queue/scheduler"
}
sched() { echo "$1" >"/sys/block/$(basename "$dev")/queue/scheduler"; }
# fio on the probe's device, time-based over its first 256 MiB, JSON out
fiojson() { fio --output-format=json --filename="$dev" --time_based --size=256M "$@" 2>/dev/null; }
# a JS expression over the JSON document `d` (node reads it from stdin)
show() { node -e "const d=JSON.parse(require('fs').readFileSync(0,'utf8')); console.log($1)"; }
us() { echo "(($1)/1e3).toFixed(0)"; }

case "$probe" in
  depth)
    rw=${2:-randread}
    dir_key=$([ "$rw" = randwrite ] && echo write || echo read)
    loop fill
    for qd in 1 4 8 32; do
      fiojson --direct=1 --runtime=4 --name=p --rw="$rw" --bs=4k --ioengine=libaio --iodepth=$qd \
        --percentile_list=1:10:50:90:99:99.9 |
        show "'QD$qd', (d.jobs[0].$dir_key.iops/1000).toFixed(1)+'k IOPS, mean', $(us "d.jobs[0].$dir_key.clat_ns.mean"), 'µs;', Object.entries(d.jobs[0].$dir_key.clat_ns.percentile).map(([k,v])=>parseFloat(k)+'%:'+(v/1e3).toFixed(0)).join(' '), '; fio usr/sys %', d.jobs[0].usr_cpu.toFixed(0), d.jobs[0].sys_cpu.toFixed(0)"
    done
    ;;
  reader-writer)
    loop fill
    for qd in 1 2 4 8; do
      fiojson --direct=1 --runtime=4 --name=reader --rw=randread --bs=4k --ioengine=psync \
        --name=writer --rw=write --bs=1M --ioengine=libaio --iodepth=$qd |
        show "'writer QD$qd: reader', (d.jobs[0].read.bw_bytes/1e6).toFixed(2), 'MB/s, mean', $(us d.jobs[0].read.clat_ns.mean), 'p99', $(us "d.jobs[0].read.clat_ns.percentile['99.000000']"), 'µs; writer', (d.jobs[1].write.bw_bytes/1e6).toFixed(0), 'MB/s, mean', $(us d.jobs[1].write.clat_ns.mean), 'µs'"
    done
    ;;
  drift)
    # The same jobs again and again on one device: the spread between consecutive runs is what a
    # fingerprint taken minutes before a validate cannot know (here: 1 MiB QD4 reads 940–1708 MB/s
    # within a minute, with no order effect of the writes between them).
    loop fill
    for i in $(seq "${2:-5}"); do
      r=$(fiojson --direct=1 --runtime=3 --name=p --rw=read --bs=1M --ioengine=libaio --iodepth=4 | show "(d.jobs[0].read.bw_bytes/1e6).toFixed(0)")
      q=$(fiojson --direct=1 --runtime=3 --name=p --rw=randread --bs=4k --ioengine=libaio --iodepth=32 | show "(d.jobs[0].read.iops/1000).toFixed(1)")
      w=$(fiojson --direct=1 --runtime=3 --name=p --rw=randwrite --bs=4k --ioengine=libaio --iodepth=16 | show "(d.jobs[0].write.bw_bytes/1e6).toFixed(0)")
      echo "run $i: 1 MiB QD4 reads $r MB/s, 4 KiB QD32 reads ${q}k IOPS, 4 KiB QD16 writes $w MB/s"
    done
    ;;
  sequential)
    loop fill
    for qd in 1 2 4 8 16; do
      fiojson --direct=1 --runtime=3 --name=p --rw=read --bs=1M --ioengine=libaio --iodepth=$qd |
        show "'1 MiB reads QD$qd:', (d.jobs[0].read.bw_bytes/1e6).toFixed(0), 'MB/s, mean', $(us d.jobs[0].read.clat_ns.mean), 'µs'"
    done
    fiojson --direct=0 --runtime=3 --name=p --rw=read --bs=128k --ioengine=psync |
      show "'128 KiB buffered reads:', (d.jobs[0].read.bw_bytes/1e6).toFixed(0), 'MB/s'"
    ;;
  submitters)
    loop fill
    for jobs in 1 2 4; do
      for s in none mq-deadline; do
        sched "$s"
        fiojson --direct=1 --runtime=3 --name=p --rw=randread --bs=4k --ioengine=libaio --iodepth=8 \
          --numjobs=$jobs --group_reporting |
          show "'$jobs × QD8 under $s:', (d.jobs[0].read.iops/1000).toFixed(1)+'k IOPS'"
      done
    done
    ;;
  page-reporting)
    loop empty
    write() {
      fio --output-format=json --filename="$dev" --name=w --rw=write --bs=1M --size=64M --ioengine=psync \
        --direct=0 2>/dev/null | show "'$1', 'median write()', $(us "d.jobs[0].write.clat_ns.percentile['50.000000']"), 'µs'"
    }
    for t in 0.3 1 1.5 2 3 5; do
      sleep 12
      write 'after 12 s idle (reported):'
      sleep "$t"
      write "again $t s later:"
    done
    ;;
  stalls)
    # each I/O's completion time (ms) and latency: a millisecond without a completion while a queue
    # is in flight is a stall of the host; the requests it held back sit beyond twice the median
    loop fill
    for point in 'randread 1' 'randread 4' 'randread 8' 'randread 32' 'randwrite 32'; do
      set -- $point
      (cd "$dir" && fio --output-format=json --filename="$dev" --time_based --size=256M --runtime=3 --name=p \
        --rw="$1" --bs=4k --direct=1 --ioengine=libaio --iodepth="$2" --write_lat_log=lat --log_avg_msec=0 \
        >/dev/null 2>&1)
      node -e "
        const rows = require('fs').readFileSync('$dir/lat_clat.1.log', 'utf8').trim().split('\n').map((l) => l.split(',').map(Number))
        const per = new Map(); for (const [t] of rows) per.set(t, (per.get(t) ?? 0) + 1)
        const end = rows.reduce((m, r) => Math.max(m, r[0]), 0); let gaps = 0, gapMs = 0
        for (let t = 1; t <= end; t++) if (!per.has(t)) { gapMs++; if (per.has(t - 1)) gaps++ }
        const lat = rows.map((r) => r[1] / 1e3).sort((a, b) => a - b); const p50 = lat[lat.length >> 1]
        const tail = lat.filter((x) => x > 2 * p50)
        console.log('$1 QD$2:', (rows.length / (end / 1e3) / 1e3).toFixed(1) + 'k IOPS,', gaps, 'gaps (' + gapMs, 'ms) in', (end / 1e3).toFixed(1), 's;',
          (100 * tail.length / lat.length).toFixed(2) + ' % beyond twice the median (' + p50.toFixed(0), 'µs), their median', tail.length ? (tail[tail.length >> 1] / 1e3).toFixed(2) : '-', 'ms')"
      rm -f "$dir"/lat_*.log
    done
    ;;
  backing)
    # A QD1 4 KiB reader beside a QD4 stream of 1 MiB direct writes, one second of it traced at the
    # disk the backing file lives on: how long each read waited in that disk's scheduler, how many
    # writes went ahead meanwhile, and how many requests its driver refused at first (issued twice:
    # a full virtio ring). Runs vary with how contiguous fio's fresh buffers are (RUNS, default 3).
    loop fill
    disk=$(diskof "$dir/f.img")
    dm=$(cat /sys/block/$disk/dev)
    echo "backing disk $disk ($dm): $(cat /sys/block/$disk/queue/scheduler), max_segments $(cat /sys/block/$disk/queue/max_segments)"
    echo 100000 >"$T/buffer_size_kb"
    for e in $EVENTS; do echo 1 >"$T/events/block/$e/enable"; done
    for run in $(seq 1 "${2:-3}"); do
      echo >"$T/trace"
      (sleep 2; echo 1 >"$T/tracing_on"; sleep 1; echo 0 >"$T/tracing_on") &
      fiojson --direct=1 --runtime=4 --name=reader --rw=randread --bs=4k --ioengine=psync \
        --name=writer --rw=write --bs=1M --ioengine=libaio --iodepth=4 >"$dir/out.json"
      wait
      grep " ${dm/:/,} " "$T/trace" >"$dir/trace.txt" || true
      node -e "
        const d = JSON.parse(require('fs').readFileSync('$dir/out.json', 'utf8'))
        const ev = require('fs').readFileSync('$dir/trace.txt', 'utf8').trim().split('\n').map((l) => {
          const m = /([\d.]+): (block_rq_\w+): \S+ (\w+) .*?(\d+) \+ (\d+)/.exec(l); return m && { t: +m[1], e: m[2], rw: m[3], s: m[4] } }).filter(Boolean)
        const issues = new Map(); for (const x of ev) if (x.e === 'block_rq_issue' && x.rw.includes('W')) issues.set(x.s, (issues.get(x.s) ?? 0) + 1)
        const waits = [], ahead = []
        ev.forEach((x, i) => { if (x.e !== 'block_rq_insert' || !x.rw.startsWith('R')) return
          const j = ev.findIndex((y, k) => k > i && y.e === 'block_rq_issue' && y.s === x.s); if (j < 0) return
          waits.push((ev[j].t - x.t) * 1e6); ahead.push(new Set(ev.slice(i + 1, j).filter((y) => y.e === 'block_rq_issue' && y.rw.includes('W')).map((y) => y.s)).size) })
        const med = (a) => a.length ? [...a].sort((p, q) => p - q)[a.length >> 1] : NaN
        console.log('run $run: reader', (d.jobs[0].read.bw_bytes / 1e6).toFixed(2), 'MB/s; reads waiting in $disk\'s scheduler:', waits.length,
          'median', med(waits).toFixed(0), 'µs, writes ahead median', med(ahead), '; writes refused at first (issued twice):',
          [...issues.values()].filter((n) => n > 1).length, 'of', issues.size)"
    done
    ;;
  writeback)
    # A QD1 4 KiB O_DIRECT reader beside a buffered 1 MiB writer looping over 256 MiB (fio's
    # BLKFLSBUF at each pass writes the device cache back, WB_SYNC_ALL), one second traced on the
    # loop device and on the disk under it: how many writeback requests the loop device had in
    # flight at most (writeback throttling: block/blk-wbt.c), how the disk's writes completed
    # (all of a burst at once: the host signals per pass), and how long reads waited there.
    loop fill
    disk=$(diskof "$dir/f.img")
    ldm=$(cat "/sys/block/$(basename "$dev")/dev")
    dm=$(cat /sys/block/$disk/dev)
    echo "loop $(basename "$dev") ($ldm): wbt_lat_usec $(cat /sys/block/$(basename "$dev")/queue/wbt_lat_usec), write_cache $(cat /sys/block/$(basename "$dev")/queue/write_cache); disk $disk ($dm)"
    echo 200000 >"$T/buffer_size_kb"
    for e in $EVENTS; do echo 1 >"$T/events/block/$e/enable"; done
    echo >"$T/trace"
    (sleep 1.5; echo 1 >"$T/tracing_on"; sleep 1; echo 0 >"$T/tracing_on") &
    fiojson --runtime=4 --name=reader --rw=randread --bs=4k --ioengine=psync --direct=1 \
      --name=writer --rw=write --bs=1M --ioengine=psync --direct=0 >"$dir/out.json"
    wait
    grep -E " (${ldm/:/,}|${dm/:/,}) " "$T/trace" >"$dir/trace.txt" || true
    node -e "
      const d = JSON.parse(require('fs').readFileSync('$dir/out.json', 'utf8'))
      const ev = require('fs').readFileSync('$dir/trace.txt', 'utf8').trim().split('\n').map((l) => {
        const m = /([\d.]+): (block_rq_\w+): (\d+,\d+) (\w+) .*?(\d+) \+ (\d+)/.exec(l)
        return m && { t: +m[1], e: m[2], dev: m[3], rw: m[4], s: m[5], n: +m[6] } }).filter(Boolean)
      const W = (x) => x.rw.includes('W'), loopDev = '${ldm/:/,}', diskDev = '${dm/:/,}'
      let open = new Set(), peak = 0
      for (const x of ev) if (x.dev === loopDev && W(x)) {
        if (x.e === 'block_rq_issue') open.add(x.s), (peak = Math.max(peak, open.size))
        else if (x.e === 'block_rq_complete') open.delete(x.s) }
      // the disk's write completions: how many came within 20 µs of the one before (a pass's)
      const done = ev.filter((x) => x.dev === diskDev && W(x) && x.e === 'block_rq_complete').map((x) => x.t)
      const together = done.filter((t, i) => i > 0 && t - done[i - 1] < 20e-6).length
      const waits = []; const issued = new Map()
      for (const x of ev) if (x.dev === diskDev && x.rw.startsWith('R')) {
        if (x.e === 'block_rq_issue') issued.set(x.s, x.t)
        else if (x.e === 'block_rq_complete' && issued.has(x.s)) waits.push((x.t - issued.get(x.s)) * 1e6) }
      waits.sort((a, b) => a - b)
      const q = (p) => waits.length ? waits[Math.min(waits.length - 1, Math.floor(p * waits.length))].toFixed(0) : 'NaN'
      console.log('reader', (d.jobs[0].read.bw_bytes / 1e6).toFixed(1), 'MB/s, p99', (d.jobs[0].read.clat_ns.percentile['99.000000'] / 1e3).toFixed(0),
        'µs; writer', (d.jobs[1].write.bw_bytes / 1e6).toFixed(0), 'MB/s; writeback requests in flight on the loop device at most', peak,
        '; disk write completions within 20 µs of the one before:', together, 'of', done.length,
        '; reads at the disk p50/p99/max', q(0.5), q(0.99), q(1), 'µs')"
    ;;
  signal)
    # Completions per interrupt of the virtio disk under the loop device (/proc/interrupts,
    # virtioN-req.*, against /sys/block/DISK/stat) while fio reads at QD 1, 4 and 32: about one
    # where the host signals each completion, about the depth where it signals once per pass.
    loop fill
    disk=$(diskof "$dir/f.img")
    virtio=$(basename "$(readlink -f /sys/block/$disk/device)")
    irq() { awk -v v="$virtio-req" '$NF ~ "^"v { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts; }
    done_() { awk '{ print $1 + $5 }' /sys/block/$disk/stat; }
    for qd in 1 4 32; do
      i0=$(irq); c0=$(done_)
      fiojson --direct=1 --runtime=3 --name=p --rw=randread --bs=4k --ioengine=libaio --iodepth=$qd >/dev/null
      i1=$(irq); c1=$(done_)
      echo "QD$qd: $disk ($virtio) completed $((c1 - c0)) requests on $((i1 - i0)) interrupts: $(node -e "console.log(($((c1 - c0)) / Math.max(1, $((i1 - i0)))).toFixed(2))") per interrupt"
    done
    ;;
  passes)
    # 4 KiB O_DIRECT random reads at QD (default 32) on the loop device, half a second traced on
    # the disk under it: how its completions cluster (a host that signals once per pass completes
    # a pass's requests together), how long each request is at the disk, and how far apart the
    # clusters are — the time the guest spends between passes (devices/signal-pass.ts).
    loop fill
    disk=$(diskof "$dir/f.img")
    dm=$(cat /sys/block/$disk/dev)
    echo 100000 >"$T/buffer_size_kb"
    for e in block_rq_issue block_rq_complete; do echo 1 >"$T/events/block/$e/enable"; done
    echo >"$T/trace"
    (sleep 1.5; echo 1 >"$T/tracing_on"; sleep 0.5; echo 0 >"$T/tracing_on") &
    fiojson --direct=1 --runtime=3 --name=r --rw=randread --bs=4k --ioengine=libaio --iodepth="${2:-32}" >"$dir/out.json"
    wait
    grep " ${dm/:/,} " "$T/trace" >"$dir/trace.txt" || true
    node -e "
      const d = JSON.parse(require('fs').readFileSync('$dir/out.json', 'utf8'))
      const ev = require('fs').readFileSync('$dir/trace.txt', 'utf8').trim().split('\n').map((l) => {
        const m = /([\d.]+): block_rq_(issue|complete): \S+ \w+ (?:\d+ )?\(\) (\d+) \+/.exec(l)
        return m && { t: +m[1], e: m[2], s: m[3] } }).filter(Boolean)
      const done = ev.filter((x) => x.e === 'complete').map((x) => x.t)
      const sizes = []; const apart = []; let n = 1
      for (let i = 1; i < done.length; i++) if (done[i] - done[i - 1] < 3e-6) n++; else (sizes.push(n), apart.push((done[i] - done[i - 1]) * 1e6), (n = 1))
      sizes.push(n)
      const at = []; const iss = new Map()
      for (const x of ev) if (x.e === 'issue') iss.set(x.s, x.t); else if (iss.has(x.s)) at.push((x.t - iss.get(x.s)) * 1e6)
      const q = (a, p) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor(p * (s.length - 1))].toFixed(0) : 'NaN' }
      const full = sizes.filter((k) => k >= ${2:-32}).reduce((a, b) => a + b, 0)
      console.log('fio', (d.jobs[0].read.iops / 1000).toFixed(1) + 'k IOPS, clat p50', (d.jobs[0].read.clat_ns.percentile['50.000000'] / 1e3).toFixed(0),
        'µs; $disk completions', done.length, 'in', sizes.length, 'clusters (mean', (done.length / Math.max(1, sizes.length)).toFixed(1) + ',',
        (100 * full / Math.max(1, done.length)).toFixed(0) + ' % in clusters of the whole depth); at the disk p25/p50/p90', q(at, 0.25), q(at, 0.5), q(at, 0.9),
        'µs; clusters apart p50/p90', q(apart, 0.5), q(apart, 0.9), 'µs')"
    ;;
  completion)
    # A QD1 psync reader beside a QD32 libaio reader on the loop device, half a second traced with
    # the interrupt events and the disk's completions only (light tracing): per interrupt of the
    # virtio disk under it, the hard irq, the BLOCK softirqs on its CPU until the next interrupt,
    # and the requests it completed — the guest's work per completed request (virtual-params.ts
    # irqCompleteUs), and how the two readers' latencies compare.
    loop fill
    disk=$(diskof "$dir/f.img")
    dn=$(( $(cut -d: -f1 /sys/block/$disk/dev) << 20 | $(cut -d: -f2 /sys/block/$disk/dev) ))
    mkdir "$I"
    echo 0 >"$I/tracing_on" # an instance starts on
    echo 50000 >"$I/buffer_size_kb"
    for e in irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit block/block_rq_complete; do
      echo 1 >"$I/events/$e/enable"
    done
    echo "dev == $dn" >"$I/events/block/block_rq_complete/filter"
    (sleep 1.5; echo 1 >"$I/tracing_on"; sleep 0.5; echo 0 >"$I/tracing_on") &
    fiojson --direct=1 --runtime=3 --rw=randread --bs=4k --name=reader --ioengine=psync \
      --name=deep --ioengine=libaio --iodepth=32 >"$dir/out.json"
    wait
    cat "$I/trace" >"$dir/trace.txt"
    node -e "
      const d = JSON.parse(require('fs').readFileSync('$dir/out.json', 'utf8'))
      const lines = require('fs').readFileSync('$dir/trace.txt', 'utf8').split('\n')
      const per = new Map() // cpu -> the interrupt under way: { t, hard, soft, n }
      const done = []
      for (const l of lines) {
        const m = /\[(\d+)\]\s+\S+\s+([\d.]+): (irq_handler_entry|irq_handler_exit|softirq_entry|softirq_exit|block_rq_complete): (.*)/.exec(l)
        if (!m) continue
        const cpu = m[1], t = +m[2] * 1e6, e = m[3], r = m[4]
        let x = per.get(cpu)
        if (e === 'irq_handler_entry' && /virtio\d+-req/.test(r)) {
          if (x && x.n > 0) done.push(x)
          per.set(cpu, (x = { t, hard: 0, soft: 0, n: 0, on: t, sIn: -1 }))
        } else if (!x) continue
        else if (e === 'irq_handler_exit' && x.on >= 0) (x.hard = t - x.on), (x.on = -1)
        else if (e === 'softirq_entry' && /BLOCK/.test(r)) x.sIn = t
        else if (e === 'softirq_exit' && x.sIn >= 0) (x.soft += t - x.sIn), (x.sIn = -1)
        else if (e === 'block_rq_complete') x.n++
      }
      const big = done.filter((x) => x.n >= 8)
      const sum = (a, f) => a.reduce((s, x) => s + f(x), 0)
      const q = (a, p) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor(p * (s.length - 1))].toFixed(1) : 'NaN' }
      const [rd, dp] = d.jobs
      console.log('reader', (rd.read.bw_bytes / 1e6).toFixed(2), 'MB/s, mean', (rd.read.clat_ns.mean / 1e3).toFixed(0), 'µs; deep', (dp.read.bw_bytes / 1e6).toFixed(0), 'MB/s, mean', (dp.read.clat_ns.mean / 1e3).toFixed(0), 'µs')
      console.log('$disk interrupts', done.length, '(' + big.length, 'with 8 or more completions, mean', (sum(big, (x) => x.n) / Math.max(1, big.length)).toFixed(1) + '): hard irq p50', q(big.map((x) => x.hard), 0.5),
        'µs, BLOCK softirqs p50', q(big.map((x) => x.soft), 0.5), 'µs; per completed request', (sum(big, (x) => x.hard + x.soft) / Math.max(1, sum(big, (x) => x.n))).toFixed(2), 'µs')"
    ;;
  wake)
    # A real-time QD1 psync reader beside 64 random 4 KiB writes in flight, mq-deadline on the
    # loop device (which holds the writes while a real-time read is pending), half a second traced:
    # the loop device's block events and the CPU switches. From a read's completion to the
    # reader's switch in and to its next insert, from that insert to its switch out, and its CPU
    # before and after the insert — where a sleeping reader's CPU falls (host wakeUs); and how the
    # writes got through.
    loop fill
    sched mq-deadline
    dn=$(( 7 << 20 | $(cut -d: -f2 /sys/block/$(basename "$dev")/dev) ))
    mkdir "$I"
    echo 0 >"$I/tracing_on" # an instance starts on
    echo 50000 >"$I/buffer_size_kb"
    for e in $EVENTS; do
      echo 1 >"$I/events/block/$e/enable"
      echo "dev == $dn" >"$I/events/block/$e/filter"
    done
    echo 1 >"$I/events/sched/sched_switch/enable"
    (sleep 1.5; echo 1 >"$I/tracing_on"; sleep 0.5; echo 0 >"$I/tracing_on") &
    fiojson --direct=1 --runtime=3 --bs=4k --name=rt --rw=randread --ioengine=psync --prioclass=1 --prio=4 \
      --name=writer --rw=randwrite --ioengine=libaio --iodepth=64 >"$dir/out.json"
    wait
    cat "$I/trace" >"$dir/trace.txt"
    node -e "
      const d = JSON.parse(require('fs').readFileSync('$dir/out.json', 'utf8'))
      const ev = []
      for (const l of require('fs').readFileSync('$dir/trace.txt', 'utf8').split('\n')) {
        const m = /^\s*(.+?)-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+): (\w+): (.*)/.exec(l)
        if (m) ev.push({ pid: +m[2], t: +m[3] * 1e6, e: m[4], r: m[5] })
      }
      const rt = ev.find((x) => x.e === 'block_rq_insert' && / rt,/.test(x.r))?.pid
      const turn = [], after = [], before = [], rest = []
      let done = -1, inAt = -1, ins = -1, cpuBefore = 0, sw = -1
      for (const x of ev) {
        if (x.e === 'block_rq_complete' && / R/.test(x.r.slice(0, 14))) (done = x.t), (cpuBefore = 0)
        else if (x.e === 'sched_switch' && x.r.includes('next_pid=' + rt + ' ')) (inAt = x.t), done >= 0 && sw < 0 && (sw = x.t - done)
        else if (x.e === 'sched_switch' && x.r.includes('prev_pid=' + rt + ' ') && inAt >= 0) {
          if (ins >= 0) after.push(x.t - Math.max(ins, inAt)), (ins = -1)
          else cpuBefore += x.t - inAt
          inAt = -1
        } else if (x.e === 'block_rq_insert' && x.pid === rt && done >= 0) {
          turn.push(x.t - done), before.push(cpuBefore + (inAt >= 0 ? x.t - inAt : 0)), rest.push(sw)
          ;(ins = x.t), (done = -1), (sw = -1)
        }
      }
      const q = (a, p) => { const s = a.filter((v) => v >= 0).sort((x, y) => x - y); return s.length ? s[Math.floor(p * (s.length - 1))].toFixed(1) : 'NaN' }
      const mean = (a) => (a.reduce((s, v) => s + v, 0) / Math.max(1, a.length)).toFixed(2)
      const [r, w] = d.jobs
      console.log('rt reader', (r.read.bw_bytes / 1e6).toFixed(1), 'MB/s, writer', (w.write.bw_bytes / 1e6).toFixed(1), 'MB/s (fio: reader CPU', ((r.usr_cpu + r.sys_cpu) / 100 * r.job_runtime * 1e3 / Math.max(1, r.read.total_ios)).toFixed(1), 'µs per read)')
      console.log('read completed → reader switched in p50', q(rest, 0.5), 'µs, → next insert p50/p90', q(turn, 0.5), q(turn, 0.9), 'µs; its CPU before the insert mean', mean(before), 'µs, after it (to the switch out) mean', mean(after), 'µs')"
    ;;
  *)
    sed -n '7,19p' "$0"
    exit 2
    ;;
esac
