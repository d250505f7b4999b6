/**
 * A spec's fio process doing 4 KiB direct random reads over 64 MiB, time-based (`runtime` s),
 * named `r`; `params` adds to or overrides its fio parameters.
 */
export function randomReader(runtime: number, params: Record<string, unknown> = {}) {
  return {
    name: 'r',
    type: 'fio',
    params: { rw: 'randread', bs: '4k', size: '64M', direct: true, time_based: true, runtime, ...params },
  }
}
