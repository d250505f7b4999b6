import { describe, expect, it } from 'vitest'
import {
  baseColour,
  canonicalScheduler,
  SCHEDULER_COLOURS,
  schedulerColour,
  schedulerOfLabel,
  shadeOf,
} from '../../src/shared/report/palette'

const HEX = /^#[0-9A-F]{6}$/

/** Hue of a colour, degrees. */
function hue(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
  const max = Math.max(r, g, b)
  const d = max - Math.min(r, g, b)
  if (d === 0) return 0
  const h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4
  return h * 60
}

/** Distance of two colours in RGB, 0 … 441. */
function distance(a: string, b: string): number {
  const rgb = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16))
  const [x, y] = [rgb(a), rgb(b)]
  return Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2])
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
          if (a !== b) expect(distance(baseColour(a), baseColour(b)), `${a}/${b}`).toBeGreaterThan(70)
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
    // a shade: its scheduler's hue, a visibly different colour
    expect(Math.abs(hue(variant) - hue(base))).toBeLessThanOrEqual(10)
    expect(distance(variant, base)).toBeGreaterThan(20)
    // a variant's shade keeps nearer its own scheduler's hue than its kin's
    for (const [a, b] of [
      ['deadline', 'mq-deadline'],
      ['noop', 'none'],
      ['cfq', 'bfq'],
    ])
      for (const v of ['x', 'y', 'z', 'w', 'v', 'u'])
        for (const [own, kin] of [
          [a, b],
          [b, a],
        ]) {
          const c = schedulerColour(`${own} ${v}`)
          const turn = (x: string) => Math.abs(hue(c) - hue(baseColour(x)))
          expect(turn(own), `${own} ${v}`).toBeLessThan(turn(kin))
        }
    // the same with the scheduler given, and for a label that does not name it
    expect(schedulerColour('bfq (slice_idle=0)', 'bfq')).toBe(variant)
    const fast = schedulerColour('fast one', 'deadline')
    expect(fast).not.toBe(SCHEDULER_COLOURS.deadline)
    expect(distance(fast, SCHEDULER_COLOURS.deadline)).toBeLessThan(distance(fast, SCHEDULER_COLOURS.noop))
    // a real run beside its simulation
    expect(schedulerColour('deadline (real)', 'deadline')).not.toBe(SCHEDULER_COLOURS.deadline)
  })

  it('colours a scheduler it does not model by its name, the same every time', () => {
    const c = schedulerColour('unknown')
    expect(c).toMatch(HEX)
    expect(schedulerColour('unknown')).toBe(c)
    expect(Object.values(SCHEDULER_COLOURS)).not.toContain(c)
  })

  it('shades by a share of the way to the lightest or darkest readable colour', () => {
    expect(shadeOf('#808080', 0)).toBe('#808080')
    expect(shadeOf('#808080', -1)).toBe('#333333') // lightness 0.2
    expect(shadeOf('#808080', 1)).toBe('#C7C7C7') // 0.78
    expect(shadeOf('#808080', 0.5)).toBe('#A3A3A3')
    // a colour already darker than the darkest is left as dark
    expect(shadeOf('#000000', -0.5)).toBe('#000000')
  })
})
