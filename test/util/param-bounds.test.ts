// A value out of its bounds is refused with the bound as people read it: every digit kept,
// thousands grouped (the setup page shows the same), not `≤ 1073741824`.
import { describe, expect, it } from 'vitest'
import { checkParam } from '../../src/shared/util/params'
import type { ParamSpec } from '../../src/shared/util/params'
import { exact } from '../../src/shared/util/people-numbers'

const spec = (min: number, max: number, kind: ParamSpec['kind'] = 'int'): ParamSpec => ({
  name: 'x',
  kind,
  default: min,
  unit: 'KiB',
  meaning: 'a bounded value',
  min,
  max,
})

describe('bounds in a refusal', () => {
  it('groups the thousands of a large bound and keeps every digit', () => {
    expect(checkParam(spec(0, 1_073_741_824), 2 ** 31)).toEqual({
      error: 'expected an integer ≤ 1,073,741,824 KiB, got 2147483648',
    })
    expect(checkParam(spec(4096, 1 << 20), 7)).toEqual({
      error: 'expected an integer ≥ 4,096 KiB, got 7',
    })
  })

  it('keeps a small or fractional bound as it is', () => {
    expect(checkParam(spec(0.001, 100, 'number'), 0)).toEqual({
      error: 'expected a number ≥ 0.001 KiB, got 0',
    })
    expect(exact(0.000125)).toBe('0.000125')
    expect(exact(600_000)).toBe('600,000')
  })
})
