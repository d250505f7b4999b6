// fio's --status-interval output holds one JSON document per interval: reading it must stay linear
// in its length. Measured as work, not time: the characters the parser copies out of the text.
import { describe, expect, it } from 'vitest'
import { parseFioDocuments } from '../../src/shared/formats/fio-json'
import { ImportError } from '../../src/shared/formats/import-error'
import { LineIndex } from '../../src/shared/formats/line-index'
import { importText } from '../../src/shared/import/import-text'
import { FIO_MINI } from './fixtures'
import { thrown } from './tools'

/** `n` cumulative reports, a second apart, pretty-printed as fio prints them, one after another. */
function statusOutput(n: number): string {
  const doc = JSON.parse(FIO_MINI) as { timestamp_ms: number; jobs: { job_runtime: number }[] }
  const docs: string[] = []
  for (let k = 0; k < n; k++) {
    doc.timestamp_ms = 1796030944123 + k * 1000
    for (const j of doc.jobs) j.job_runtime = 1000 * (k + 1)
    docs.push(JSON.stringify(doc, null, 2))
  }
  return docs.join('\n')
}

type Copier = 'slice' | 'substring' | 'substr' | 'split'

/** Run `f`, counting the characters that String's slice, substring, substr and split hand back. */
function charactersCopied(f: () => void): number {
  const proto = String.prototype as unknown as Record<Copier, (...a: unknown[]) => string | string[]>
  const saved = { slice: proto.slice, substring: proto.substring, substr: proto.substr, split: proto.split }
  let copied = 0
  for (const name of Object.keys(saved) as Copier[]) {
    const original = saved[name]
    proto[name] = function (this: string, ...args: unknown[]) {
      const out = original.apply(this, args)
      copied += typeof out === 'string' ? out.length : out.reduce((a, s) => a + s.length, 0)
      return out
    }
  }
  try {
    f()
  } finally {
    Object.assign(proto, saved)
  }
  return copied
}

describe('fio output with many documents (--status-interval)', () => {
  it('copies a bounded multiple of the text, however many documents it holds', () => {
    for (const n of [50, 400]) {
      const text = statusOutput(n)
      let points = 0
      const copied = charactersCopied(() => {
        points = importText(text, 'status.json').runs[0].run.timeSeries.tMs.length
      })
      expect(points).toBe(n)
      // each document once, plus the format sniffing of the first 64 KiB; a lookup of the line
      // from the start of the text for each document would copy about n / 2 times the text
      expect(copied, `${n} documents`).toBeLessThanOrEqual(2 * text.length + (1 << 17))
    }
  })

  it('still numbers the line of each document and of a bad field in a late one', () => {
    const text = statusOutput(300)
    const starts = text.split('\n').flatMap((l, i) => (l === '{' ? [i + 1] : []))
    expect(parseFioDocuments(text, 'status.json').lines).toEqual(starts)
    // the writer's total_ios in the last document but one
    const bad = text.split('\n')
    let at = starts[starts.length - 1] - 1
    while (!bad[--at].includes('"total_ios": 1024'));
    bad[at] = bad[at].replace('1024', '"many"')
    const e = thrown(() => parseFioDocuments(bad.join('\n'), 'status.json')) as ImportError
    expect(e).toBeInstanceOf(ImportError)
    expect({ line: e.line, field: e.field }).toEqual({ line: at + 1, field: 'jobs[1].write.total_ios' })
    expect(e.message).toContain('document 299 of 300')
  })
})

describe('LineIndex', () => {
  it('gives the line and column of every offset, as a scan from the start would', () => {
    const text = '\nab\n\ncde\nf'
    const index = new LineIndex(text)
    for (let pos = 0; pos <= text.length; pos++) {
      const before = text.slice(0, pos)
      expect(index.at(pos), `offset ${pos}`).toEqual({
        line: before.split('\n').length,
        col: pos - before.lastIndexOf('\n'),
      })
    }
    expect(new LineIndex('').at(0)).toEqual({ line: 1, col: 1 })
  })
})
