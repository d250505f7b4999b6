// Why a session could not be written, in words, with where: a full disk, a read-only folder, no
// permission … as an ApiError of kind `storage` (CLI exit status 74, HTTP 507), or `bad-input`
// for a path that cannot be a file. Anything else is not ours to explain and stays as it is.
import { ApiError } from '../../../shared/api/errors'

const STORAGE: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'no permission to write there',
  EPERM: 'the operation is not permitted there',
  EIO: 'the device reported an I/O error',
  EFBIG: 'the file is too large for its file system',
  EMLINK: 'the folder holds too many entries',
}

const PATH: Record<string, string> = {
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'the path is a folder',
  ENAMETOOLONG: 'the name is too long',
}

/**
 * The error a failed write of the session at `path` becomes; `kept` says whether the file that
 * was there before is still there, unchanged (it is: writes are atomic).
 */
export function writeError(e: unknown, path: string, kept: boolean): unknown {
  const code = (e as NodeJS.ErrnoException | null)?.code
  const why = code ? (STORAGE[code] ?? PATH[code]) : undefined
  if (!code || !why) return e
  const after = kept ? 'the session file there is unchanged' : 'nothing was written'
  return new ApiError(
    STORAGE[code] ? 'storage' : 'bad-input',
    `${path}: cannot save the session: ${why} (${code}); ${after}`,
  )
}
