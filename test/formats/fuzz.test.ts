import { describe, expect, it } from 'vitest'
import { ImportError } from '../../src/shared/formats/import-error'
import { importText } from '../../src/shared/import/import-text'
import { detectFormat } from '../../src/shared/import/detect'
import type { ImportFormat } from '../../src/shared/import/types'
import { Rng } from '../../src/shared/sim/rng'
import * as F from './fixtures'

/**
 * Every importer, fed random bytes, random lines, truncated and mutated copies of valid inputs
 * (seeded, so every run tries the same cases): it returns runs or throws an ImportError with a
 * line inside the input — never anything else.
 */
const VALID: Record<ImportFormat, string[]> = {
  'fio-json': [F.FIO_MINI],
  'bonnie-csv': [F.BONNIE_103, F.BONNIE_197, F.BONNIE_198],
  dd: [F.DD_BSD_1997, F.DD_GNU_FORMS, F.DD_GNU_OLD, F.DD_PROGRESS, F.DD_FREEBSD_NEW],
  lmdd: [F.LMDD_2012],
  iozone: [F.IOZONE_2012, F.IOZONE_AUTO],
  vmstat: [F.VMSTAT_2003, F.VMSTAT_T],
  kdiskmark: [F.KDISKMARK],
  blkparse: [F.BLKPARSE],
}
const FORMATS = Object.keys(VALID) as ImportFormat[]
const ALL_LINES = Object.values(VALID)
  .flat()
  .flatMap((t) => t.split('\n'))
const ALPHABET = ' \t\n\r,.:;+-=[](){}"\'/\\<>%#0123456789abcdefxyzKMGBQTRWDCs|~\u0000\u00e9\u2013'

function check(format: ImportFormat, text: string): void {
  try {
    const f = importText(text, 'fuzz.txt', { format })
    expect(f.runs.length).toBeGreaterThan(0)
    for (const r of f.runs) {
      expect(r.run.schema).toBe('iosched-lab/run@1')
      expect(r.run.source).toBe('real')
      JSON.stringify(r)
    }
  } catch (e) {
    if (!(e instanceof ImportError))
      throw new Error(
        `${format}: not an ImportError for ${JSON.stringify(text.slice(0, 300))}: ${String(e)}`,
        { cause: e },
      )
    expect(Number.isInteger(e.line)).toBe(true)
    expect(e.line).toBeGreaterThanOrEqual(1)
    expect(e.line).toBeLessThanOrEqual(text.split('\n').length + 1)
    expect(e.describe()).toMatch(/^fuzz\.txt: line \d+(, field .+)?: ./)
  }
}

const randomText = (rng: Rng, n: number): string => {
  let s = ''
  for (let i = 0; i < n; i++) s += ALPHABET[rng.int(ALPHABET.length)]
  return s
}

function mutate(rng: Rng, text: string): string {
  const tokens = text.split(/(\s+|,)/)
  for (let k = 1 + rng.int(3); k > 0; k--) {
    const i = rng.int(tokens.length)
    const r = rng.int(5)
    tokens[i] =
      r === 0
        ? ''
        : r === 1
          ? randomText(rng, 1 + rng.int(6))
          : r === 2
            ? String(rng.int(1e9))
            : r === 3
              ? '+++++'
              : '-1'
  }
  return tokens.join('')
}

describe.each(FORMATS)('fuzzing the %s importer', (format) => {
  const rng = new Rng(`fuzz-${format}`)

  it('survives random bytes', () => {
    for (let k = 0; k < 200; k++) check(format, randomText(rng, rng.int(400)))
  })

  it('survives random lines of every format', () => {
    for (let k = 0; k < 200; k++) {
      const lines: string[] = []
      for (let j = 1 + rng.int(12); j > 0; j--) {
        const l = ALL_LINES[rng.int(ALL_LINES.length)]
        lines.push(rng.int(3) === 0 ? mutate(rng, l) : l)
      }
      check(format, lines.join(rng.int(4) === 0 ? '\r\n' : '\n'))
    }
  })

  it('survives every truncation of its valid inputs', () => {
    for (const text of VALID[format]) {
      const cuts = new Set<number>([0, 1, text.length - 1])
      for (let k = 0; k < 120; k++) cuts.add(rng.int(text.length + 1))
      for (let k = 0; k <= 40; k++) cuts.add(Math.floor((k / 40) * text.length))
      for (const c of cuts) check(format, text.slice(0, c))
    }
  })

  it('survives mutated copies of its valid inputs', () => {
    for (const text of VALID[format]) for (let k = 0; k < 150; k++) check(format, mutate(rng, text))
  })

  it('is detected from its content', () => {
    for (const text of VALID[format]) expect(detectFormat(text, 'unnamed')?.format).toBe(format)
  })
})

describe('format detection', () => {
  it('falls back on the file name only when the content says nothing, and gives up otherwise', () => {
    expect(detectFormat('', 'results/bonnie-run1.csv')).toMatchObject({ format: 'bonnie-csv' })
    expect(detectFormat('garbage', 'x.json')?.format).toBe('fio-json')
    expect(detectFormat('garbage', 'notes.txt')).toBeNull()
    expect(() => importText('garbage', 'notes.txt')).toThrow(/^line 1: unrecognised format/)
  })
})
