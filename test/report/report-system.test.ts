import { describe, expect, it } from 'vitest'
import type { RealSystemInfo } from '../../src/shared/experiment/real-system'
import { htmlReport } from '../../src/shared/report/html'
import { reportInput } from '../../src/shared/report/input'
import { mailingListText } from '../../src/shared/report/text'
import { runOutput, syntheticRuns } from './runs'

// Real runs carry the machine and device they were measured on (`real.system`): the text and HTML
// reports show it, once for what the runs share and per run where they differ.
const system = (nrRequests: string, scheduler: string): RealSystemInfo => ({
  kernel: { release: '6.12.9-amd64', version: '#1 SMP Debian', arch: 'x64' },
  cpu: { model: 'AMD EPYC 7B13', count: 2 },
  memory: { totalBytes: 4 * 2 ** 30, availableBytes: 3 * 2 ** 30 },
  device: {
    name: 'loop3',
    model: null,
    vendor: null,
    firmware: null,
    sizeBytes: 256 * 2 ** 20,
    rotational: false,
    scheduler,
    queue: { nr_requests: nrRequests, read_ahead_kb: '128' },
  },
  backing: {
    file: '/var/tmp/iosched-lab-scratch-x/scratch.img',
    directIo: true,
    fileSystem: {
      type: 'ext4',
      source: '/dev/vda1',
      mountPoint: '/',
      options: 'rw,relatime',
      superOptions: 'rw,errors=remount-ro',
    },
    disk: {
      name: 'vda',
      model: null,
      vendor: '0x1af4',
      firmware: null,
      sizeBytes: 20 * 2 ** 30,
      rotational: true,
      scheduler: 'mq-deadline',
      queue: { nr_requests: '256' },
    },
  },
})

function realInput() {
  const runs = syntheticRuns({ noop: [3.1], deadline: [2.9] })
  for (const r of runs) r.source = 'real'
  Object.assign(runs[0], { real: { system: system('256', 'none') } })
  Object.assign(runs[1], { real: { system: system('64', 'mq-deadline') } })
  return reportInput(JSON.parse(JSON.stringify(runOutput('on a scratch device', runs))))
}

describe('the system of the real runs in the reports', () => {
  it('the text report lists kernel, CPU, memory, device, backing file system and disk', () => {
    const t = mailingListText(realInput())
    const part = t.slice(t.indexOf('system of the real runs:'))
    expect(part).toContain('kernel: 6.12.9-amd64 #1 SMP Debian (x64)')
    expect(part).toContain('CPU: 2 × AMD EPYC 7B13')
    expect(part).toContain('memory: 4 GiB')
    expect(part).toContain('device size: 256 MiB')
    expect(part).toContain('device rotational: no')
    expect(part).toContain('device model: unknown')
    expect(part).toMatch(
      /file system: ext4 on \/dev\/vda1, mounted at \/\s+\(rw,relatime;\s+rw,errors=remount-ro\)/,
    )
    expect(part).toContain('disk under it model: unknown (vendor 0x1af4)')
    // what the runs differ in, per run
    expect(part).toMatch(/device scheduler: none \(noop #1\); mq-deadline\s+\(deadline #1\)/)
    expect(part).toMatch(
      /device queue: nr_requests 256 \(noop #1\); 64 \(deadline\s+#1\), read_ahead_kb\s+128/,
    )
    for (const line of t.split('\n')) expect(line.length).toBeLessThanOrEqual(80)
  })

  it('the HTML report has a table of it; simulated-only results have none', () => {
    const html = htmlReport(realInput())
    expect(html).toContain('<h2 id="system">System of the real runs</h2>')
    expect(html).toContain(
      '<td>file system</td><td>ext4 on /dev/vda1, mounted at / (rw,relatime; rw,errors=remount-ro)</td>',
    )
    const sim = reportInput(JSON.parse(JSON.stringify(runOutput('sim', syntheticRuns({ noop: [1] })))))
    expect(htmlReport(sim)).not.toContain('System of the real runs')
    expect(mailingListText(sim)).not.toContain('system of the real runs')
  })
})
