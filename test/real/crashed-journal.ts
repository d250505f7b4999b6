import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { JournalData } from '../../src/main/services/real/journal'
import { OTHER_SCHEDULER } from './real-env'

/**
 * The journal a lab process leaves when it crashes while `dev` is switched from mq-deadline
 * (read_expire 300) to OTHER_SCHEDULER (bfq, or kyber on a kernel without it). Its owner is this test's pid with another start time: surely gone.
 */
export function crashedJournal(stateDir: string, dev: { name: string }): string {
  const owner = { pid: process.pid, startTime: 1, argv: ['iosched-lab', 'run', 'spec.json', '--real'] }
  const data: JournalData = {
    schema: 'iosched-lab/journal@1',
    owner,
    createdAt: new Date().toISOString(),
    devices: [
      {
        name: dev.name,
        majMin: readFileSync(`/sys/block/${dev.name}/dev`, 'utf8').trim(),
        loopBackingFile: readFileSync(`/sys/block/${dev.name}/loop/backing_file`, 'utf8').trim(),
        original: { scheduler: 'mq-deadline', tunables: { read_expire: '300' } },
        switchedTo: OTHER_SCHEDULER,
      },
    ],
    loops: [],
    groups: [],
    tempDirs: [],
  }
  mkdirSync(join(stateDir, 'journal'), { recursive: true })
  const path = join(stateDir, 'journal', `${owner.pid}-1.json`)
  writeFileSync(path, JSON.stringify(data))
  return path
}
