/**
 * update_write_batch: the number of writes the next write batch may send, from how long the last
 * one took (`writeTime`, jiffies, from its start to the first read completion after it) against its
 * budget (`batch` = write_batch_expire). Over budget → fewer (halved if more than 3× over), unless
 * the batch had run out of writes (`idled`); under budget with its count used up → more (doubled if
 * it took less than a third). Never below 1.
 */
export function nextWriteBatchCount(
  count: number,
  writeTime: number,
  batch: number,
  idled: boolean,
  usedUp: boolean,
): number {
  let n = count
  if (writeTime > batch && !idled) n = writeTime > batch * 3 ? Math.floor(n / 2) : n - 1
  else if (writeTime < batch && usedUp) n = batch > writeTime * 3 ? n * 2 : n + 1
  return Math.max(1, n)
}
