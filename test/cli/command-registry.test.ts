// The command line's registry loads each command when it runs: each entry's module must hold the
// command of that name, and every command must be there once.
import { describe, expect, it } from 'vitest'
import { commands } from '../../src/cli/commands/index'

describe('the command registry', () => {
  it('loads, for each name, the command of that name', async () => {
    const loaded = await Promise.all(commands.map((c) => c.load()))
    expect(loaded.map((c) => c.name)).toEqual(commands.map((c) => c.name))
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length)
    for (const c of loaded) expect(c.usage.length, c.name).toBeGreaterThan(0)
  })
})
