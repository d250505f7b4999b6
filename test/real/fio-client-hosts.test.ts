import { describe, expect, it } from 'vitest'
import { clientEndpoint, jobsByHost } from '../../src/main/services/real/fio-client'
import type { FioJobReport } from '../../src/shared/formats/fio-json'

const job = (jobname: string, hostname?: string, port?: number): FioJobReport =>
  ({ jobname, hostname, port }) as unknown as FioJobReport

describe('fio --client reports, host by host', () => {
  it('reads the host and port of every address form fio takes', () => {
    expect(clientEndpoint('ip:127.0.0.1,39513')).toEqual({ host: '127.0.0.1', port: 39513 })
    expect(clientEndpoint('lab2')).toEqual({ host: 'lab2', port: 8765 })
    expect(clientEndpoint('lab2,9000')).toEqual({ host: 'lab2', port: 9000 })
    expect(clientEndpoint('ip6:::1,9000')).toEqual({ host: '::1', port: 9000 })
    expect(clientEndpoint('sock:/run/fio.sock')).toBeNull()
  })

  it('groups jobs by the server that ran them, whatever order they arrived in', () => {
    const hosts = ['ip:127.0.0.1,1001', 'ip:127.0.0.1,1002']
    // the second server finished its writer first: fio lists jobs as they arrive
    const jobs = [job('writer', '127.0.0.1', 1002), job('writer', '127.0.0.1', 1001)]
    jobs.push(job('reader', '127.0.0.1', 1002), job('reader', '127.0.0.1', 1001))
    const [a, b] = jobsByHost(jobs, hosts, 2, 'out.json')
    expect(a.map((j) => `${j.jobname}@${j.port}`)).toEqual(['writer@1001', 'reader@1001'])
    expect(b.map((j) => `${j.jobname}@${j.port}`)).toEqual(['writer@1002', 'reader@1002'])
  })

  it('tells which host is short of jobs', () => {
    const jobs = [job('w', 'a', 1), job('w', 'b', 2), job('r', 'b', 2)]
    expect(() => jobsByHost(jobs, ['a,1', 'b,2'], 2, 'out.json')).toThrow(
      'out.json: expected 2 jobs from a,1, the report has 1',
    )
  })

  it('falls back to the order of the --client options when the report does not name hosts', () => {
    const jobs = [job('w'), job('r'), job('w'), job('r')]
    const [a, b] = jobsByHost(jobs, ['a', 'b'], 2, 'out.json')
    expect(a).toEqual(jobs.slice(0, 2))
    expect(b).toEqual(jobs.slice(2))
  })
})
