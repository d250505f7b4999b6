// A time as a person writes it in a fio job file: `runtime=900s`, `startdelay=10s`, where the
// lab's exact values were `900000ms`, `10000ms`. fio reads both alike: a time option is "Integer
// with possible time suffix … 'd' for days, 'h' for hours, 'm' for minutes, 's' for seconds, 'ms'
// (or 'msec') for milliseconds and 'us' (or 'usec') for microseconds" (fio(1), "Parameter types",
// time; parse.c's check_str_time: `fio --parse-only --debug=parse` shows `runtime=900s` parsed
// `out=900000000`, in µs, as `runtime=900000ms` is).

/** The options the lab writes as times, in whole ms (fio's OPT_STR_VAL_TIME). */
const TIMES = new Set(['runtime', 'ramp_time', 'startdelay'])

/** `value` (`Nms`) in whole seconds when it is some, else as it is (`1500ms`, any other option). */
export function fioTime(option: string, value: string): string {
  const ms = TIMES.has(option) ? /^(\d+)ms$/.exec(value) : null
  if (!ms) return value
  const n = Number(ms[1])
  return n > 0 && n % 1000 === 0 ? `${n / 1000}s` : value
}
