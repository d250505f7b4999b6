import { describe, expect, it } from 'vitest'
import { findSyntaxError, parseJsonText } from '../../src/shared/util/json-text'
import { Rng } from '../../src/shared/sim/rng'

describe('JSON text with the place of its syntax error', () => {
  it('gives the line and column of the first error, whatever the engine’s message', () => {
    const where = (t: string) => {
      const r = parseJsonText(t)
      return r.ok ? 'ok' : `${r.error.line}:${r.error.column} ${r.error.message}`
    }
    expect(where('{"a":}')).toBe(
      '1:6 expected a value (a string, number, object, array, true, false or null), found "}"',
    )
    expect(where('{\n  "a": 1,\n}')).toBe(
      '3:1 expected another "key" after the comma (a trailing comma is not JSON), found "}"',
    )
    expect(where('{\n  "a": tru\n}')).toMatch(/^2:8 expected a value/)
    expect(where('[1 2]')).toBe('1:4 expected "," or "]" after the value, found "2"')
    expect(where('{"a": "x\ny"}')).toMatch(/^1:9 a line break or control character inside a string/)
    expect(where('{"a": "x')).toBe('1:7 a string that is never closed (a missing ")')
    expect(where('{"a": 1} {}')).toBe(
      '1:10 expected the end of the document (one JSON value only), found "{"',
    )
    expect(where('   ')).toBe('1:4 expected a JSON document, found the end of the text')
    expect(where('{"a": [1, {"b": null}], "c": -1.5e3}')).toBe('ok')
  })

  it('agrees with JSON.parse on what is JSON, for damaged copies of a spec', () => {
    const text = JSON.stringify(
      { name: 'x "q" \\ é', device: { preset: 'p' }, list: [1, -2.5e-3, true, false, null, {}, []] },
      null,
      2,
    )
    const rng = new Rng(7)
    for (let k = 0; k < 3000; k++) {
      const chars = [...text]
      for (let m = 1 + rng.int(2); m > 0; m--) {
        const at = rng.int(chars.length)
        const op = rng.int(3)
        const ch = '{}[],:"\\ \n0-.eatrux'[rng.int(20)]
        if (op === 0) chars.splice(at, 1)
        else if (op === 1) chars.splice(at, 0, ch)
        else chars[at] = ch
      }
      const t = chars.join('')
      let valid = true
      try {
        JSON.parse(t)
      } catch {
        valid = false
      }
      expect(findSyntaxError(t) === null, t).toBe(valid)
    }
  })
})
