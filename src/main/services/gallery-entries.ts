import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { galleryEntrySchema } from '../../shared/gallery/schema'
import type { GalleryEntry } from '../../shared/gallery/types'
import type { ClaimVerdict } from '../../shared/gallery/types'
import { judge, metricOf } from '../../shared/gallery/claims'
import { pageSummary } from '../../shared/gallery/report'
import { explainGallery } from '../../shared/gallery/explain'
import type { GalleryExplanation } from '../../shared/gallery/explain'
import type { GalleryRuns } from '../../shared/gallery/claims'
import { setAtPath } from '../../shared/api/sweep'
import { formatIssues, validateSpec } from '../../shared/experiment/validate'
import type { ExperimentResult } from '../../shared/experiment/compare'
import type { Example } from '../../shared/api/contract'
import { zodIssues } from '../../shared/experiment/format-issues'
import { ExperimentRunner } from './experiments'
import type { ExperimentEvents, ExperimentOptions } from './experiments'
import { packageRoot } from './package-root'

/** The package's root (gallery/ and examples/ live there), from the sources or a build alike. */
export const repoRoot = (): string => packageRoot()

export interface LoadedEntry {
  entry: GalleryEntry
  /** The page, as Markdown. */
  page: string
}

export class GalleryError extends Error {}

/** A reproduction stopped by its signal (the app's Cancel). */
export class ReproduceCancelled extends Error {
  constructor() {
    super('cancelled')
    this.name = 'CancelledError'
  }
}

/** Every gallery entry: name, title and source, in gallery order. */
export function listGallery(root = repoRoot()): { name: string; title: string; source: string }[] {
  const dir = join(root, 'gallery')
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => loadGalleryEntry(f.replace(/\.json$/, ''), root).entry)
    .sort((a, b) => a.order - b.order || a.name.localeCompare(b.name))
    .map((e) => ({ name: e.name, title: e.title, source: e.source }))
}

/** Read and check one entry: its format, every variant's spec, and its page. */
export function loadGalleryEntry(name: string, root = repoRoot()): LoadedEntry {
  const file = join(root, 'gallery', `${name}.json`)
  if (!/^[a-z0-9.-]+$/.test(name) || !existsSync(file)) {
    const known = readdirSync(join(root, 'gallery'))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''))
    throw new GalleryError(`no gallery entry "${name}"; known: ${known.join(', ')}`)
  }
  const doc = JSON.parse(readFileSync(file, 'utf8'))
  const parsed = galleryEntrySchema.safeParse(doc, { reportInput: true })
  if (!parsed.success) throw new GalleryError(`${file}: ${formatIssues(zodIssues(parsed.error, doc))}`)
  const entry = parsed.data as GalleryEntry & { variants: { specFile?: string }[] }
  for (const v of entry.variants) {
    if (v.spec === undefined && v.specFile)
      v.spec = JSON.parse(readFileSync(resolve(root, v.specFile), 'utf8'))
    if (v.spec === undefined)
      throw new GalleryError(`${file}: variant "${v.id}" has neither spec nor specFile`)
    for (const { spec, value } of specsOf(v)) {
      const check = validateSpec(spec)
      if (!check.ok)
        throw new GalleryError(
          `${file}: variant "${v.id}"${value !== undefined ? ` (${String(value)})` : ''}: ${formatIssues(check.issues)}`,
        )
    }
  }
  const aboutPath = resolve(root, entry.about)
  const page =
    entry.about.endsWith('.md') && existsSync(aboutPath) ? readFileSync(aboutPath, 'utf8') : entry.about
  return { entry, page }
}

/** The specs of a variant: one, or one per value of its sweep. */
export function specsOf(v: GalleryEntry['variants'][number]): { spec: unknown; value?: unknown }[] {
  const s = v.sweep
  return s ? s.values.map((value) => ({ value, spec: setAtPath(v.spec, s.path, value) })) : [{ spec: v.spec }]
}

export interface ReproduceResult {
  schema: 'iosched-lab/reproduce@1'
  name: string
  title: string
  source: string
  variants: { id: string; title: string; results: { value?: unknown; experiment: ExperimentResult }[] }[]
  published: {
    ref: GalleryEntry['published'][number]
    published: number
    simulated: number | null
    unit: string
  }[]
  claims: ClaimVerdict[]
  /** Why the published comparison came out as it did, from the runs (the entry's `explain`). */
  explanation?: GalleryExplanation
  pass: boolean
}

/**
 * Run every variant of an entry and judge its claims against the published measurement. Aborting
 * `opts.signal` kills the simulations going and rejects with ReproduceCancelled.
 */
export async function reproduce(
  loaded: LoadedEntry,
  ev: ExperimentEvents & { variant?(id: string, value?: unknown): void } = {},
  opts: ExperimentOptions = {},
): Promise<ReproduceResult> {
  const { entry } = loaded
  const runner = new ExperimentRunner()
  const variants: ReproduceResult['variants'] = []
  const runs: GalleryRuns = {}
  for (const v of entry.variants) {
    const results: ReproduceResult['variants'][number]['results'] = []
    for (const { spec, value } of specsOf(v)) {
      if (opts.signal?.aborted) throw new ReproduceCancelled()
      ev.variant?.(v.id, value)
      const check = validateSpec(spec)
      if (!check.ok) throw new GalleryError(formatIssues(check.issues))
      const experiment = await runner.run(check.spec, ev, opts)
      if (opts.signal?.aborted) throw new ReproduceCancelled()
      results.push(value === undefined ? { experiment } : { value, experiment })
    }
    variants.push({ id: v.id, title: v.title, results })
    runs[v.id] = results.map((r) => ({ value: r.value, runs: r.experiment.runs }))
  }
  const published = entry.published.map((p) => {
    let simulated: number | null = null
    try {
      simulated = metricOf(runs, p)
    } catch {
      simulated = null
    }
    return { ref: p, published: p.value_published, simulated, unit: p.unit }
  })
  const claims = judge(entry.claims, runs)
  const explanation = explainGallery(entry.explain, runs)
  return {
    schema: 'iosched-lab/reproduce@1',
    name: entry.name,
    title: entry.title,
    source: entry.source,
    variants,
    published,
    claims,
    ...(explanation ? { explanation } : {}),
    pass: claims.every((c) => c.pass),
  }
}

/**
 * The gallery as ready experiments: one per variant (a swept variant at its first value), named by
 * the entry and the variant, described by its source, with the entry it belongs to (the start page
 * shows one card per entry, its variants inside).
 * An entry that fails to load is left out (`iosched-lab gallery NAME` says why).
 */
export function galleryExamples(root = repoRoot()): Example[] {
  const out: Example[] = []
  let names: string[]
  try {
    names = listGallery(root).map((e) => e.name)
  } catch {
    return out
  }
  for (const name of names) {
    try {
      const { entry, page } = loadGalleryEntry(name, root)
      const card = {
        name: entry.name,
        title: entry.title,
        source: entry.source,
        summary: pageSummary(page),
        figures: entry.published.length,
        claims: entry.claims.length,
      }
      for (const v of entry.variants) {
        const spec = v.sweep ? setAtPath(v.spec, v.sweep.path, v.sweep.values[0]) : v.spec
        out.push({
          id: `gallery/${entry.name}/${v.id}`,
          name: entry.variants.length > 1 ? `${entry.title} — ${v.title}` : entry.title,
          description: entry.source,
          spec,
          entry: card,
          variant: v.title,
        })
      }
    } catch {
      /* left out */
    }
  }
  return out
}
