import { runCommand } from './exec'
import { writeSys } from './sysfs'

/** `sync; echo 3 > /proc/sys/vm/drop_caches`: write dirty data back, then drop clean page cache, dentries and inodes. */
export async function dropPageCache(): Promise<void> {
  await runCommand('sync', [])
  writeSys('/proc/sys/vm/drop_caches', '3')
}
