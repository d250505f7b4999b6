import { afterAll, beforeAll, expect, it } from 'vitest'
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { resolveSpec } from '../../src/shared/experiment/validate'
import { runOnFioServers } from '../../src/main/services/real/fio-client'
import { killGroup } from '../../src/main/services/real/process-group'
import { processGroupMembers } from '../../src/main/services/real/proc-identity'
import { cleanupDir, describeWithFio, tempDir, waitFor } from './real-env'

/** Whether something accepts connections on 127.0.0.1:port (checked synchronously through a child). */
const listening = (port: number): boolean =>
  spawnSync(process.execPath, [
    '-e',
    `require('net').connect(${port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`,
  ]).status === 0

/** A free TCP port on 127.0.0.1. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

/** Several lab machines, played by two `fio --server` processes on 127.0.0.1 started here and killed after. */
describeWithFio('the same experiment on several lab machines (fio --server / --client)', () => {
  let dir = ''
  const servers: ChildProcess[] = []
  const hosts: string[] = []

  beforeAll(async () => {
    dir = tempDir('iosched-fio-servers-')
    execFileSync('truncate', ['-s', '64M', join(dir, 'target')])
    for (let i = 0; i < 2; i++) {
      const port = await freePort()
      // its own process group: the server forks a child per client connection
      servers.push(spawn('fio', [`--server=ip:127.0.0.1,${port}`], { stdio: 'ignore', detached: true }))
      hosts.push(`ip:127.0.0.1,${port}`)
      await waitFor(() => listening(port), 5000, `fio --server on port ${port}`)
    }
  })
  afterAll(async () => {
    // the servers and their per-connection children, gone before the test ends
    for (const s of servers) expect(await killGroup(s.pid!, 'SIGTERM')).toBe(true)
    for (const s of servers) expect(processGroupMembers(s.pid!)).toEqual([])
    cleanupDir(dir)
  })

  it('runs the job on each server and compares the hosts side by side', async () => {
    const spec = resolveSpec({
      name: 'two-hosts',
      device: { preset: 'ssd-sata-mlc' },
      workload: {
        processes: [
          { name: 'writer', type: 'fio', params: { rw: 'write', bs: '64k', size: '16M', filename: '/dev' } },
          { name: 'reader', type: 'random-read', params: { file: '/dev', size: '16M', count: 300 } },
        ],
      },
      schedulers: ['noop'],
    })
    const r = await runOnFioServers(spec, {
      hosts,
      remoteTarget: { path: join(dir, 'target'), sizeBytes: 64 << 20 },
    })
    expect(r.command.filter((a) => a.startsWith('--client='))).toEqual(hosts.map((h) => `--client=${h}`))
    expect(r.result.runs.map((x) => x.label)).toEqual(hosts)
    for (const run of r.result.runs) {
      expect(run.source).toBe('real')
      expect(run.scheduler).toBe('as configured on the host')
      const [w, rd] = run.processes
      expect(w.writeBytes).toBe(16 << 20)
      expect(rd.ops).toBe(300)
      expect(rd.latency.count).toBe(300)
    }
    expect(r.result.summary.map((s) => s.label)).toEqual(hosts)
  }, 60_000)

  it('refuses addresses it cannot pass to fio safely', async () => {
    const spec = resolveSpec({
      device: { preset: 'ssd-sata-mlc' },
      workload: { processes: [{ name: 'c', type: 'cat', params: { size: '1M' } }] },
      schedulers: ['noop'],
    })
    await expect(
      runOnFioServers(spec, {
        hosts: ['h1; rm -rf /'],
        remoteTarget: { path: '/dev/null', sizeBytes: 1 << 30 },
      }),
    ).rejects.toThrow('fio server addresses: cannot use "h1; rm -rf /"')
  })
})
