import { describe, expect, it } from 'vitest'
import {
  baseColour,
  canonicalScheduler,
  MIN_CONTRAST,
  MIN_SHADE_DIFFERENCE,
  OTHER_COLOURS,
  paletteFor,
  SCHEDULER_COLOURS,
  TIME_PART_COLOURS,
  schedulerColour,
  schedulerOfLabel,
  SHADE_HUE_TURN,
  shadesOf,
  stylesFor,
  DISTINCT_VARIANTS,
  VARIANT_SHADES,
} from '../../src/shared/report/palette'
import { MARKS, markOf, swatchClip } from '../../src/shared/report/marks'
import {
  colourDifference,
  contrastRatio,
  deltaE2000,
  labOf,
  oklchOf,
} from '../../src/shared/report/colour-space'
import { TIME_PARTS } from '../../src/shared/metrics/why'
import { DARK, LIGHT } from '../../src/shared/report/theme'

const HEX = /^#[0-9A-F]{6}$/

/** Hue of a colour, OKLCH degrees. */
const hue = (hex: string): number => oklchOf(hex).h

/** Turn from one hue to another, degrees, 0 … 180. */
const turn = (a: number, b: number): number => Math.abs(((a - b + 540) % 360) - 180)

/** Every background a scheduler's colour is drawn on: each theme's page and panel. */
const BACKGROUNDS = {
  'light panel': LIGHT.panel,
  'light page': LIGHT.bg,
  'dark panel': DARK.panel,
  'dark page': DARK.bg,
}

describe('scheduler palette', () => {
  it('gives every modelled scheduler a colour of its own', () => {
    const colours = Object.values(SCHEDULER_COLOURS)
    expect(new Set(colours).size).toBe(colours.length)
    for (const c of colours) expect(c).toMatch(HEX)
    // the ones compared most often are far apart
    for (const set of [
      ['noop', 'deadline', 'anticipatory', 'cfq'],
      ['none', 'mq-deadline', 'bfq', 'kyber'],
    ])
      for (const a of set)
        for (const b of set)
          if (a !== b) expect(colourDifference(baseColour(a), baseColour(b)), `${a}/${b}`).toBeGreaterThan(15)
  })

  it('colours a scheduler by its name, whatever the rows around it', () => {
    expect(schedulerColour('deadline')).toBe(SCHEDULER_COLOURS.deadline)
    expect(schedulerColour('deadline', 'deadline')).toBe(SCHEDULER_COLOURS.deadline)
    expect(schedulerColour('Deadline')).toBe(SCHEDULER_COLOURS.deadline)
    // an alias is its scheduler
    expect(schedulerColour('as')).toBe(SCHEDULER_COLOURS.anticipatory)
    expect(canonicalScheduler(' AS ')).toBe('anticipatory')
    // a function of the name alone: the same for any order or number of other rows
    const rows = ['noop', 'deadline', 'bfq (slice_idle=0)', 'bfq', 'kyber']
    const once = Object.fromEntries(rows.map((r) => [r, schedulerColour(r)]))
    for (const order of [[...rows].reverse(), rows.slice(2), ['bfq (slice_idle=0)']])
      for (const r of order) expect(schedulerColour(r)).toBe(once[r])
  })

  it('finds the scheduler a label names', () => {
    expect(schedulerOfLabel('bfq (slice_idle=0)')).toBe('bfq')
    expect(schedulerOfLabel('deadline-fb4')).toBe('deadline')
    expect(schedulerOfLabel('mq-deadline')).toBe('mq-deadline')
    expect(schedulerOfLabel('cfq_v1')).toBe('cfq')
    expect(schedulerOfLabel('c-look')).toBe('c-look')
    expect(schedulerOfLabel('as (antic_expire=0)')).toBe('anticipatory')
    expect(schedulerOfLabel('nonesuch')).toBeNull()
    expect(schedulerOfLabel('my favourite')).toBeNull()
  })

  it('gives a label variant a distinct shade of its scheduler colour', () => {
    const base = SCHEDULER_COLOURS.bfq
    const variant = schedulerColour('bfq (slice_idle=0)')
    expect(variant).toMatch(HEX)
    expect(variant).not.toBe(base)
    expect(shadesOf(base)).toContain(variant)
    // the same with the scheduler given, and for a label that does not name it
    expect(schedulerColour('bfq (slice_idle=0)', 'bfq')).toBe(variant)
    const fast = schedulerColour('fast one', 'deadline')
    expect(shadesOf(SCHEDULER_COLOURS.deadline)).toContain(fast)
    expect(fast).not.toBe(SCHEDULER_COLOURS.deadline)
    // a real run beside its simulation
    expect(schedulerColour('deadline (real)', 'deadline')).not.toBe(SCHEDULER_COLOURS.deadline)
  })

  it('colours a scheduler it does not model by its name, the same every time', () => {
    const c = schedulerColour('unknown')
    expect(c).toMatch(HEX)
    expect(schedulerColour('unknown')).toBe(c)
    expect(Object.values(SCHEDULER_COLOURS)).not.toContain(c)
  })
})

/** `n` variant labels of a scheduler, as people write them. */
const variants = (s: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${s}-v${i + 1}`)

describe('palette on both themes (WCAG 2.x non-text contrast, 1.4.11: at least 3:1)', () => {
  // The colours of every scheduler the lab models and of the ones it does not (an imported run's),
  // each with as many variants as it has shades and more, some of them real runs' ("… (real)").
  const cases = [
    ...Object.keys(SCHEDULER_COLOURS).map((s) => ({ s, base: SCHEDULER_COLOURS[s] })),
    ...OTHER_COLOURS.map((base) => {
      let s = 'imported'
      for (let i = 0; baseColour(s) !== base; i++) s = `imported-${i}`
      return { s, base }
    }),
  ]

  it('keeps every scheduler colour and every shade at 3:1 or more against each theme’s page and panel', () => {
    expect(MIN_CONTRAST).toBe(3)
    for (const { s, base } of cases)
      for (const n of [0, 1, 2, 3, VARIANT_SHADES + 2]) {
        const labels = [s, ...variants(s, n), `${s} (real)`]
        const colour = paletteFor(labels.map((label) => ({ label, scheduler: s })))
        expect(colour(s, s)).toBe(base)
        for (const l of labels)
          for (const [bg, hex] of Object.entries(BACKGROUNDS)) {
            const c = colour(l, s)
            expect(contrastRatio(c, hex), `${l} ${c} on the ${bg} ${hex}`).toBeGreaterThanOrEqual(
              MIN_CONTRAST,
            )
            expect(
              contrastRatio(schedulerColour(l, s), hex),
              `${l} alone on the ${bg}`,
            ).toBeGreaterThanOrEqual(MIN_CONTRAST)
          }
      }
  })

  it('holds for the colours the old palette lost on one theme', () => {
    // cfq-v1 was #75E9C9 (1.47:1 on white), noop's variants #004B75 (1.72:1 on the dark panel),
    // deadline's orange #E69F00 (2.25:1 on white)
    for (const [label, scheduler] of [
      ['cfq-v1', 'cfq'],
      ['noop-a', 'noop'],
      ['noop (real)', 'noop'],
      ['deadline', 'deadline'],
    ])
      for (const bg of Object.values(BACKGROUNDS))
        expect(contrastRatio(schedulerColour(label, scheduler), bg), label).toBeGreaterThanOrEqual(
          MIN_CONTRAST,
        )
  })

  it(`keeps variants shown together apart (CIEDE2000 ≥ ${MIN_SHADE_DIFFERENCE}) and of their scheduler’s hue`, () => {
    for (const { s, base } of cases) {
      const shades = shadesOf(base)
      expect(shades[0]).toBe(base)
      expect(shades).toHaveLength(VARIANT_SHADES + 1)
      for (let n = 1; n <= VARIANT_SHADES + 2; n++)
        for (const real of [false, true]) {
          // the variants, and the scheduler's own row, with a real run of it or not
          const labels = [s, ...variants(s, n), ...(real ? [`${s} (real)`] : [])]
          const colour = paletteFor(labels.map((label) => ({ label, scheduler: s })))
          const shown = labels.map((l) => colour(l, s))
          for (const c of shown) expect(shades, `${s} ×${n}: ${c}`).toContain(c)
          // as many shades as the scheduler has, each its own
          if (labels.length <= shades.length)
            expect(new Set(shown).size, `${s} ×${n}${real ? ' + real' : ''}`).toBe(labels.length)
          else expect(new Set(shown).size).toBe(shades.length)
        }
      for (let i = 0; i < shades.length; i++) {
        for (let j = i + 1; j < shades.length; j++)
          expect(
            colourDifference(shades[i], shades[j]),
            `${s}: ${shades[i]} / ${shades[j]}`,
          ).toBeGreaterThanOrEqual(MIN_SHADE_DIFFERENCE)
        if (i === 0) continue
        // the same hue (a grey's shades are faint tints, of any hue) …
        if (oklchOf(base).c >= 0.02)
          expect(turn(hue(shades[i]), hue(base)), `${s}: ${shades[i]}`).toBeLessThanOrEqual(
            SHADE_HUE_TURN + 0.5,
          )
        else expect(oklchOf(shades[i]).c).toBeLessThan(0.06)
        // … nearer its own scheduler's colour than any other scheduler's
        for (const [other, c] of Object.entries(SCHEDULER_COLOURS))
          if (c !== base)
            expect(colourDifference(shades[i], base), `${s}'s ${shades[i]} beside ${other}`).toBeLessThan(
              colourDifference(shades[i], c),
            )
      }
    }
  })

  it('gives variants that ask for the same shade shades of their own, whatever their order', () => {
    // labels whose own choice is the same shade
    const wants = new Map<string, string[]>()
    for (let i = 0; i < 200; i++) {
      const l = `deadline-${i}`
      const c = schedulerColour(l)
      wants.set(c, [...(wants.get(c) ?? []), l])
    }
    const same = [...wants.values()].find((ls) => ls.length >= VARIANT_SHADES)!.slice(0, VARIANT_SHADES)
    expect(new Set(same.map((l) => schedulerColour(l))).size).toBe(1) // alone, they would look alike
    const rows = ['deadline', ...same].map((label) => ({ label, scheduler: 'deadline' }))
    const colour = paletteFor(rows)
    expect(new Set(['deadline', ...same].map((l) => colour(l))).size).toBe(VARIANT_SHADES + 1)
    // the same colours in any order of the rows
    const back = paletteFor([...rows].reverse())
    for (const l of same) expect(back(l)).toBe(colour(l))
    // the first in label order keeps the shade it asks for
    expect(colour([...same].sort()[0])).toBe(schedulerColour(same[0]))
    // a real run coming in never moves a simulated row's shade
    const withReal = paletteFor([...rows, { label: 'deadline (real)', scheduler: 'deadline' }])
    for (const l of same) expect(withReal(l)).toBe(colour(l))
  })
})

describe('variants beyond the shades: a second channel (marks)', () => {
  const cases = [...Object.keys(SCHEDULER_COLOURS), 'imported']

  it('has marks that differ in every channel: dash, marker and swatch shape', () => {
    expect(MARKS[0].dash).toEqual([])
    for (const key of ['dash', 'point', 'clip'] as const)
      expect(new Set(MARKS.map((m) => JSON.stringify(m[key]))).size, key).toBe(MARKS.length)
    expect(markOf(MARKS.length + 1)).toBe(MARKS[1])
    expect(swatchClip(0)).toBe('')
    expect(swatchClip(2)).toContain(MARKS[2].clip)
  })

  it(`makes every variant of a scheduler shown together look different, up to ${DISTINCT_VARIANTS}`, () => {
    expect(DISTINCT_VARIANTS).toBeGreaterThanOrEqual(12)
    for (const s of cases) {
      const shades = shadesOf(baseColour(s))
      for (const n of [VARIANT_SHADES, VARIANT_SHADES + 1, VARIANT_SHADES + 2, 8, DISTINCT_VARIANTS])
        for (const real of [false, true]) {
          const labels = [s, ...variants(s, real ? n - 1 : n), ...(real ? [`${s} (real)`] : [])]
          const style = stylesFor(labels.map((label) => ({ label, scheduler: s })))
          const looks = labels.map((l) => style(l, s))
          // no two alike: colour and mark together
          expect(new Set(looks.map((x) => `${x.colour}/${x.mark}`)).size, `${s} ×${n}`).toBe(labels.length)
          // every colour one of the scheduler's (the rules above hold), a mark only past the shades
          for (const x of looks) {
            expect(shades).toContain(x.colour)
            expect(x.mark).toBeGreaterThanOrEqual(0)
            expect(x.mark).toBeLessThan(MARKS.length)
          }
          expect(looks.filter((x) => x.mark === 0)).toHaveLength(Math.min(labels.length, shades.length))
          // the first marked rows differ by their marks (a shape tells them apart at a glance)
          const marked = looks.filter((x) => x.mark > 0).slice(0, MARKS.length - 1)
          expect(new Set(marked.map((x) => x.mark)).size).toBe(marked.length)
          // the scheduler's own row is plain, in its own colour
          expect(style(s, s)).toEqual({ colour: baseColour(s), mark: 0 })
          // paletteFor's colours are the styles' colours
          const colour = paletteFor(labels.map((label) => ({ label, scheduler: s })))
          for (const l of labels) expect(colour(l, s)).toBe(style(l, s).colour)
        }
    }
  })

  it('keeps the looks of the simulated rows when a real run comes', () => {
    const simulated = ['deadline', ...variants('deadline', 6)]
    const before = stylesFor(simulated.map((label) => ({ label, scheduler: 'deadline' })))
    const after = stylesFor(
      [...simulated, 'deadline (real)'].reverse().map((label) => ({ label, scheduler: 'deadline' })),
    )
    for (const l of simulated) expect(after(l, 'deadline'), l).toEqual(before(l, 'deadline'))
    expect(after('deadline (real)', 'deadline').mark).toBeGreaterThan(0)
  })
})

describe('the parts of a process’s time (the Why panel’s stacked bars)', () => {
  it('stand out at 3:1 or more on both themes and stay apart from one another', () => {
    const parts = Object.entries(TIME_PART_COLOURS)
    expect(parts.map(([k]) => k).sort()).toEqual([...TIME_PARTS].sort())
    for (const [part, hex] of parts) {
      expect(hex).toMatch(HEX)
      for (const [bg, b] of Object.entries(BACKGROUNDS))
        expect(contrastRatio(hex, b), `${part} ${hex} on the ${bg}`).toBeGreaterThanOrEqual(MIN_CONTRAST)
    }
    for (let i = 0; i < parts.length; i++)
      for (let j = i + 1; j < parts.length; j++)
        expect(
          deltaE2000(labOf(parts[i][1]), labOf(parts[j][1])),
          `${parts[i][0]} against ${parts[j][0]}`,
        ).toBeGreaterThanOrEqual(13)
  })
})

describe('colour measures', () => {
  it('computes WCAG 2.x contrast ratios', () => {
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 6)
    expect(contrastRatio('#FFFFFF', '#FFFFFF')).toBe(1)
    expect(contrastRatio('#767676', '#FFFFFF')).toBeCloseTo(4.54, 2) // the usual AA grey
  })

  it('computes CIEDE2000 as Sharma, Wu and Dalal’s test data', () => {
    // pairs 1, 7, 17, 25 and 34 of their table 1
    const pairs: [number[], number[], number][] = [
      [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
      [[50, 0, 0], [50, -1, 2], 2.3669],
      [[50, 2.5, 0], [73, 25, -18], 27.1492],
      [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
      [[22.7233, 20.0904, -46.694], [23.0331, 14.973, -42.5619], 2.0373],
    ]
    for (const [a, b, d] of pairs)
      expect(deltaE2000(a as [number, number, number], b as [number, number, number])).toBeCloseTo(d, 4)
  })
})
