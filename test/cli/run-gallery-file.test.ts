import { describe, expect, it } from 'vitest'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../../src/cli/commands/run'
import { InputError } from '../../src/cli/spec-file'

const root = new URL('../..', import.meta.url).pathname
const io = { out: () => {}, err: () => {} }

/** The lines of the InputError `run` refuses the arguments with. */
async function refusal(...args: string[]): Promise<string[]> {
  try {
    await runCli.run(args, io)
  } catch (e) {
    if (e instanceof InputError) return e.lines
    throw e
  }
  throw new Error(`run ${args.join(' ')} was not refused`)
}

describe('iosched-lab run with a gallery entry', () => {
  const entry = join(root, 'gallery/textbook-disk-scheduling.json')

  it('says that gallery entries run with reproduce, instead of listing a spec’s missing keys', async () => {
    for (const args of [[entry], [entry, '--real', '--dry-run']])
      expect(await refusal(...args)).toEqual([
        `${entry}: a gallery entry, not a spec: run it with iosched-lab reproduce textbook-disk-scheduling; its page and variants: iosched-lab gallery textbook-disk-scheduling`,
      ])
  })

  it('a copy elsewhere is pointed at the gallery’s own file; an entry of another name gets the general rule', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'iosched-gallery-file-'))
    const doc = JSON.parse(readFileSync(entry, 'utf8'))
    const copy = join(dir, 'copy.json')
    writeFileSync(copy, JSON.stringify(doc))
    expect((await refusal(copy))[0]).toContain(
      `run it with iosched-lab reproduce textbook-disk-scheduling (the gallery's own ${entry})`,
    )
    const mine = join(dir, 'mine.json')
    writeFileSync(mine, JSON.stringify({ ...doc, name: 'my-own-entry' }))
    expect(await refusal(mine)).toEqual([
      `${mine}: a gallery entry (variants, published figures and claims), not a spec: iosched-lab reproduce runs the gallery's entries by name (iosched-lab gallery lists them); to run one variant, save its "spec" as a file of its own`,
    ])
  })

  it('a spec is still checked as a spec', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'iosched-gallery-file-'))
    const spec = join(dir, 'spec.json')
    writeFileSync(spec, JSON.stringify({ variants: [], schedulers: ['noop'] }))
    const lines = await refusal(spec)
    expect(lines).toContain(`${spec}: device: missing (expected an object)`)
    expect(lines.join('\n')).not.toContain('gallery entry')
  })
})
