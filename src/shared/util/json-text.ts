/**
 * JSON text as people edit it: parse with the place of the first syntax error (line and column,
 * whatever the JavaScript engine's message says — V8 gives no position for some errors), and find
 * where a value lies by its path (`workload.processes[1].params.bs`), to point at a problem.
 */

/** Where JSON text is malformed: 1-based line and column, and what is wrong. */
export interface JsonSyntaxError {
  line: number
  column: number
  /** Offset of the error in the text. */
  offset: number
  message: string
}

export type JsonText = { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError }

/** Parse JSON text; on a syntax error, say where (line and column) and what was expected. */
export function parseJsonText(text: string): JsonText {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (e) {
    return { ok: false, error: findSyntaxError(text) ?? at(text, 0, (e as Error).message) }
  }
}

/** `line L, column C: message`. */
export const describeSyntaxError = (e: JsonSyntaxError): string =>
  `line ${e.line}, column ${e.column}: ${e.message}`

function at(text: string, offset: number, message: string): JsonSyntaxError {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return { line, column: offset - before.lastIndexOf('\n'), offset, message }
}

class Stop {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

const what = (text: string, i: number): string =>
  i >= text.length ? 'the end of the text' : `${JSON.stringify(text[i])}`

/** The first syntax error of `text` by a strict scan of the JSON grammar, or null when it is valid. */
export function findSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0
  const fail = (expected: string): never => {
    throw new Stop(i, `expected ${expected}, found ${what(text, i)}`)
  }
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++
  }
  const string = (): void => {
    const start = i
    i++ // the opening quote
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i)
      if (c < 0x20) throw new Stop(i, 'a line break or control character inside a string (write \\n)')
      if (text[i] === '\\') {
        const n = text[i + 1]
        if (n === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            throw new Stop(i, 'a \\u escape needs four hex digits')
          i += 6
        } else if (n !== undefined && '"\\/bfnrt'.includes(n)) i += 2
        else throw new Stop(i, `unknown escape \\${n ?? ''} in a string`)
      } else i++
    }
    if (i >= text.length) throw new Stop(start, 'a string that is never closed (a missing ")')
    i++
  }
  const number = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 400))
    if (!m || m[0] === '-') fail('a value')
    i += m![0].length
  }
  const value = (): void => {
    ws()
    const c = text[i]
    if (c === '{') return object()
    if (c === '[') return array()
    if (c === '"') return string()
    if (c === '-' || (c >= '0' && c <= '9')) return number()
    for (const word of ['true', 'false', 'null'])
      if (text.startsWith(word, i)) {
        i += word.length
        return
      }
    fail('a value (a string, number, object, array, true, false or null)')
  }
  const object = (): void => {
    i++
    ws()
    if (text[i] === '}') {
      i++
      return
    }
    for (;;) {
      ws()
      if (text[i] !== '"')
        fail(
          text[i] === '}'
            ? 'another "key" after the comma (a trailing comma is not JSON)'
            : 'a "key" in double quotes',
        )
      string()
      ws()
      if (text[i] !== ':') fail('":" after the key')
      i++
      value()
      ws()
      if (text[i] === ',') {
        i++
        continue
      }
      if (text[i] === '}') {
        i++
        return
      }
      fail('"," or "}" after the value')
    }
  }
  const array = (): void => {
    i++
    ws()
    if (text[i] === ']') {
      i++
      return
    }
    for (;;) {
      ws()
      if (text[i] === ']') fail('another value after the comma (a trailing comma is not JSON)')
      value()
      ws()
      if (text[i] === ',') {
        i++
        continue
      }
      if (text[i] === ']') {
        i++
        return
      }
      fail('"," or "]" after the value')
    }
  }
  try {
    ws()
    if (i >= text.length) fail('a JSON document')
    value()
    ws()
    if (i < text.length) fail('the end of the document (one JSON value only)')
    return null
  } catch (e) {
    if (e instanceof Stop) return at(text, e.offset, e.message)
    throw e
  }
}

export type Segment = string | number

/** `jobs[1].read.clat_ns.bins["1000"]` or `"fio version"` → its keys and indexes; `(top level)` → []. */
export function jsonPathSegments(path: string): Segment[] {
  const out: Segment[] = []
  const re = /\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|"((?:[^"\\]|\\.)*)"|([^.[\]"]+)/g
  if (path.startsWith('(')) return out
  for (const m of path.matchAll(re)) {
    if (m[1] !== undefined) out.push(Number(m[1]))
    else if (m[2] !== undefined || m[3] !== undefined) out.push(unescape(m[2] ?? m[3]))
    else out.push(m[4])
  }
  return out
}

const unescape = (s: string): string => {
  try {
    return JSON.parse(`"${s}"`) as string
  } catch {
    return s
  }
}

/**
 * Offset, within one valid JSON document, of the value at `path` — or of the deepest value on the
 * way there when the path goes on into something missing (a missing key points at its object).
 * Recurses only along the path; everything else is skipped by scanning.
 */
export function locateJsonPath(doc: string, path: readonly Segment[]): number {
  let i = 0
  let best = 0
  const ws = (): void => {
    while (i < doc.length && (doc[i] === ' ' || doc[i] === '\n' || doc[i] === '\r' || doc[i] === '\t')) i++
  }
  const readString = (): string => {
    const s = i++
    while (i < doc.length && doc[i] !== '"') i += doc[i] === '\\' ? 2 : 1
    i++
    return unescapeJson(doc.slice(s, i))
  }
  const skip = (): void => {
    ws()
    let depth = 0
    while (i < doc.length) {
      const c = doc[i]
      if (c === '"') readString()
      else if (c === '{' || c === '[') {
        depth++
        i++
      } else if (c === '}' || c === ']') {
        if (depth === 0) return
        depth--
        i++
        if (depth === 0) return
      } else if (c === ',' && depth === 0) return
      else i++
    }
  }
  const walk = (depth: number): boolean => {
    ws()
    best = i
    if (depth === path.length) return true
    const open = doc[i]
    if (open !== '{' && open !== '[') return false
    i++
    for (let k = 0; i < doc.length; k++) {
      ws()
      if (doc[i] === '}' || doc[i] === ']') return false
      let on: boolean
      if (open === '{') {
        const key = readString()
        ws()
        i++ // ':'
        on = path[depth] === key
      } else on = path[depth] === k
      if (on) {
        if (walk(depth + 1)) return true
        return false
      }
      skip()
      ws()
      if (doc[i] === ',') i++
    }
    return false
  }
  walk(0)
  return best
}

const unescapeJson = (quoted: string): string => {
  try {
    return JSON.parse(quoted) as string
  } catch {
    return quoted.slice(1, -1)
  }
}
