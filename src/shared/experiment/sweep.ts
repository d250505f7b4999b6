/**
 * Sweeps: one spec varied along one parameter. A parameter is named by its path in the spec
 * document, as validation names it: `schedulers[1].tunables.fifo_batch`,
 * `workload.processes[0].params.bs`, `device.overrides.queueDepth`.
 */
export interface Sweep {
  path: string
  values: readonly unknown[]
}

type Key = string | number

/** Split `a.b[2].c` into ['a', 'b', 2, 'c']. */
export function parsePath(path: string): Key[] {
  const keys: Key[] = []
  const re = /([^.[\]]+)|\[(\d+)\]/g
  let m: RegExpExecArray | null
  let consumed = 0
  while ((m = re.exec(path)) !== null) {
    keys.push(m[2] !== undefined ? Number(m[2]) : m[1])
    consumed += m[0].length
  }
  const dots = (path.match(/\./g) ?? []).length
  if (keys.length === 0 || consumed + dots !== path.length) throw new Error(`not a parameter path: "${path}"`)
  return keys
}

/** A deep copy of `doc` with the value at `path` replaced; objects on the way are created. */
export function withValue<T>(doc: T, path: string, value: unknown): T {
  const keys = parsePath(path)
  const copy = structuredCloneJson(doc) as unknown
  let node = copy as Record<Key, unknown>
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i]
    const next = node[k]
    if (next === undefined || next === null || typeof next !== 'object') {
      if (typeof next !== 'undefined' && next !== null)
        throw new Error(`${path}: ${keys.slice(0, i + 1).join('.')} is not an object`)
      node[k] = typeof keys[i + 1] === 'number' ? [] : {}
    }
    node = node[k] as Record<Key, unknown>
  }
  node[keys[keys.length - 1]] = value
  return copy as T
}

/** The value at `path`, or undefined. */
export function valueAt(doc: unknown, path: string): unknown {
  let node = doc
  for (const k of parsePath(path)) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<Key, unknown>)[k]
  }
  return node
}

/** One spec per value of the sweep, each named for its value. */
export function expandSweep<T>(doc: T, sweep: Sweep): { value: unknown; spec: T }[] {
  return sweep.values.map((value) => ({ value, spec: withValue(doc, sweep.path, value) }))
}

function structuredCloneJson(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v))
}
