import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { userPresetDir } from '../../src/main/services/user-presets'
import { defaultLibraryFolder } from '../../src/main/services/sessions'

const root = new URL('../..', import.meta.url).pathname

/** The environment of a CLI run: the lab's own folder settings only those given. */
const labEnv = (settings: Record<string, string>): NodeJS.ProcessEnv => {
  const env = { ...process.env }
  delete env.IOSCHED_LAB_HOME
  delete env.IOSCHED_LAB_STATE_DIR
  return { ...env, ...settings }
}

const mySsd = (dir: string): void => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'my-ssd.json'),
    JSON.stringify({
      schema: 'iosched-lab/device-preset@1',
      name: 'my-ssd',
      model: 'flash',
      basePreset: 'ssd-sata-mlc',
      description: 'my own SSD, fitted',
      values: { queueDepth: 4 },
      sources: { queueDepth: 'fingerprint' },
    }),
  )
}

describe('user device presets', () => {
  const state = mkdtempSync(join(tmpdir(), 'iosched-state-'))
  mySsd(join(state, 'presets'))
  writeFileSync(join(state, 'presets', 'broken.json'), '{ "schema": "iosched-lab/device-preset@1" }')
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(root, 'bin/iosched-lab.mjs'), ...args], {
      cwd: root,
      encoding: 'utf8',
      env: labEnv({ IOSCHED_LAB_STATE_DIR: state }),
    })

  it('are listed and can be named in a spec like built-in presets; a broken one is reported', () => {
    const list = cli('list', '--json')
    expect(list.status).toBe(0)
    const presets = JSON.parse(list.stdout).devices.presets
    const mine = presets.find((p: { name: string }) => p.name === 'my-ssd')
    expect(mine).toMatchObject({ model: 'flash', values: { queueDepth: 4 } })
    expect(mine.values.channels).toBe(
      presets.find((p: { name: string }) => p.name === 'ssd-sata-mlc').values.channels,
    )
    expect(list.stderr).toMatch(/ignoring device preset .*broken\.json: needs "name" and "model"/)
    const spec = join(state, 'spec.json')
    writeFileSync(
      spec,
      JSON.stringify({
        device: { preset: 'my-ssd' },
        workload: {
          processes: [{ name: 'f', type: 'fio', params: { rw: 'randread', size: '16M', direct: true } }],
        },
        schedulers: ['noop'],
      }),
    )
    const run = cli('run', spec, '--json', '--jobs', '0')
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout).device).toBe('my-ssd')
  })

  it('live beside the sessions when the lab’s home is set (IOSCHED_LAB_HOME)', () => {
    const home = mkdtempSync(join(tmpdir(), 'iosched-home-'))
    const elsewhere = mkdtempSync(join(tmpdir(), 'iosched-state-'))
    const env = { IOSCHED_LAB_HOME: home, IOSCHED_LAB_STATE_DIR: elsewhere }
    expect(userPresetDir(env)).toBe(join(home, 'presets'))
    expect(dirname(userPresetDir(env))).toBe(dirname(defaultLibraryFolder(env)))
    mySsd(join(home, 'presets'))
    const list = spawnSync(process.execPath, [join(root, 'bin/iosched-lab.mjs'), 'list', '--json'], {
      cwd: root,
      encoding: 'utf8',
      env: labEnv(env),
    })
    expect(list.status, list.stderr).toBe(0)
    const names = JSON.parse(list.stdout).devices.presets.map((p: { name: string }) => p.name)
    expect(names).toContain('my-ssd')
  })

  it('without the home setting: in the state folder, as before', () => {
    expect(userPresetDir({ IOSCHED_LAB_STATE_DIR: '/srv/lab-state' })).toBe('/srv/lab-state/presets')
    expect(userPresetDir({ XDG_STATE_HOME: '/x/state' })).toBe('/x/state/iosched-lab/presets')
  })
})
