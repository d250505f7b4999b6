// Sessions: an experiment and its results saved as one versioned JSON document
// (`iosched-lab/session@1`, docs/session-json.md), in a library folder or at any path. Writes are
// atomic — a temporary file beside the target, fsync, rename, fsync of the folder — so a crash
// leaves either the old file or the new one, never half of one.
import { randomBytes } from 'node:crypto'
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import type { SessionDocument, SessionInfo, SessionSaveInput } from '../../shared/api/contract'
import { ApiError } from '../../shared/api/errors'
import { sessionDocumentSchema } from '../../shared/api/schemas'

export const SESSION_SCHEMA = 'iosched-lab/session@1'

/** The default library: $IOSCHED_LAB_HOME/sessions, else $XDG_DATA_HOME/iosched-lab/sessions. */
export function defaultLibraryFolder(env: NodeJS.ProcessEnv = process.env): string {
  if (env.IOSCHED_LAB_HOME) return join(env.IOSCHED_LAB_HOME, 'sessions')
  const data = env.XDG_DATA_HOME || join(homedir(), '.local', 'share')
  return join(data, 'iosched-lab', 'sessions')
}

/** A file name from a session name: lower case, letters, digits and dashes. */
export function slugOf(name: string): string {
  const s = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
  return s || 'session'
}

/** Write `text` to `path` atomically: temp file in the same folder, fsync, rename, fsync the folder. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path)
  await mkdir(dir, { recursive: true })
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  const fh = await open(tmp, 'wx', 0o644)
  try {
    await fh.writeFile(text, 'utf8')
    await fh.sync()
  } catch (e) {
    await fh.close()
    await rm(tmp, { force: true })
    throw e
  }
  await fh.close()
  try {
    await rename(tmp, path)
  } catch (e) {
    await rm(tmp, { force: true })
    throw e
  }
  // The rename itself is durable only once the folder is synced (not possible on every platform).
  try {
    const d = await open(dir, 'r')
    await d.sync().finally(() => d.close())
  } catch {
    /* best effort */
  }
}

/** Parse and check a session document; throws ApiError with the reason. */
export function parseSession(text: string, where: string): SessionDocument {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    throw new ApiError('bad-input', `${where}: not a JSON document`)
  }
  const schema = (doc as { schema?: unknown } | null)?.schema
  if (typeof schema === 'string' && schema.startsWith('iosched-lab/session@') && schema !== SESSION_SCHEMA)
    throw new ApiError(
      'bad-input',
      `${where}: session format ${schema} is newer than this lab reads (${SESSION_SCHEMA})`,
    )
  const parsed = sessionDocumentSchema.safeParse(doc)
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    throw new ApiError(
      'bad-input',
      `${where}: not an IOSched Lab session (${first.path.join('.') || 'document'}: ${first.message})`,
    )
  }
  return parsed.data
}

/** The library folder of session files, plus save-as and open at any path. */
export class SessionStore {
  constructor(
    readonly folder: string,
    private readonly appVersion = '0',
  ) {}

  /** Absolute path of `p`; relative paths are taken inside the library folder. */
  resolvePath(p: string): string {
    return isAbsolute(p) ? p : resolve(this.folder, p)
  }

  async save(input: SessionSaveInput): Promise<SessionInfo> {
    const path = input.path ? this.resolvePath(input.path) : join(this.folder, `${slugOf(input.name)}.json`)
    const doc: SessionDocument = {
      schema: SESSION_SCHEMA,
      name: input.name.trim(),
      savedAt: new Date().toISOString(),
      app: this.appVersion,
      spec: input.spec,
      result: input.result ?? null,
      sweep: input.sweep ?? null,
    }
    const text = JSON.stringify(doc)
    await writeFileAtomic(path, text)
    return infoOf(path, doc, Buffer.byteLength(text))
  }

  async open(path: string): Promise<SessionDocument> {
    const abs = this.resolvePath(path)
    let text: string
    try {
      text = await readFile(abs, 'utf8')
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'ENOENT') throw new ApiError('not-found', `${abs}: no such file`)
      throw new ApiError('bad-input', `${abs}: cannot read (${code ?? (e as Error).message})`)
    }
    return parseSession(text, abs)
  }

  /** Every readable session in the library folder, newest first; other files are skipped. */
  async list(): Promise<SessionInfo[]> {
    let names: string[]
    try {
      names = await readdir(this.folder)
    } catch {
      return []
    }
    const out: SessionInfo[] = []
    for (const n of names) {
      if (!n.endsWith('.json') || n.startsWith('.')) continue
      const path = join(this.folder, n)
      try {
        const [text, st] = await Promise.all([readFile(path, 'utf8'), stat(path)])
        out.push(infoOf(path, parseSession(text, path), st.size))
      } catch {
        /* not a session: not listed */
      }
    }
    return out.sort((a, b) => b.savedAt.localeCompare(a.savedAt))
  }
}

function infoOf(path: string, doc: SessionDocument, bytes: number): SessionInfo {
  return {
    path,
    name: doc.name,
    savedAt: doc.savedAt,
    schedulers: schedulerLabels(doc.spec),
    hasResult: doc.result !== null || doc.sweep !== null,
    bytes,
  }
}

/** Labels of a spec document's schedulers, as far as they can be read without validating it. */
function schedulerLabels(spec: unknown): string[] {
  const list = (spec as { schedulers?: unknown } | null)?.schedulers
  if (!Array.isArray(list)) return []
  return list.map((e) =>
    typeof e === 'string'
      ? e
      : String((e as { label?: unknown; name?: unknown })?.label ?? (e as { name?: unknown })?.name ?? '?'),
  )
}
