// The sweep being set up: which parameter, which values, and which metric to chart — or as a
// saved sweep was set up, when a session is opened.
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { SweepSpec, SweepValue } from '../../../shared/api/contract'
import { range } from '../../../shared/api/sweep'
import type { ParamSpec } from '../../../shared/util/params'
import { parseTyped } from '../lib/spec-doc'

export const useSweep = defineStore('sweep', () => {
  const path = ref('')
  const param = ref<ParamSpec | null>(null)
  const from = ref('')
  const to = ref('')
  const steps = ref(5)
  /** Explicit values, comma-separated; when set, from/to/steps are not used. */
  const list = ref('')
  const metric = ref('')

  const numeric = computed(() => ['int', 'number'].includes(param.value?.kind ?? ''))

  const values = computed<SweepValue[]>(() => {
    const p = param.value
    if (!p) return []
    if (list.value.trim())
      return list.value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => (p.kind === 'bool' ? s === 'true' : (parseTyped(s, p.kind) as SweepValue)))
    if (numeric.value) {
      const a = Number(from.value)
      const b = Number(to.value)
      if (from.value.trim() === '' || to.value.trim() === '' || !Number.isFinite(a) || !Number.isFinite(b))
        return []
      return range(a, b, steps.value, p.kind === 'int')
    }
    if (p.kind === 'enum') return [...(p.values ?? [])]
    if (p.kind === 'bool') return [false, true]
    return []
  })

  const problem = computed(() => {
    if (!path.value) return 'Choose a parameter to vary.'
    if (values.value.length < 2) return 'Give at least two values.'
    return ''
  })

  /** Choose the parameter, with a starting range around its default. */
  function choose(p: string, spec: ParamSpec | null): void {
    path.value = p
    param.value = spec
    list.value = ''
    if (spec && (spec.kind === 'int' || spec.kind === 'number')) {
      const d = Number(spec.default)
      const lo = spec.min ?? 0
      from.value = String(Math.max(lo, spec.kind === 'int' ? Math.max(1, Math.round(d / 4)) : d / 4))
      to.value = String(spec.max !== undefined ? Math.min(spec.max, d * 4 || 10) : d * 4 || 10)
    } else if (spec && (spec.kind === 'size' || spec.kind === 'duration')) {
      list.value = String(spec.default)
    }
  }

  /**
   * Set up as a saved sweep was: its parameter (`param`, from the catalogue) and exactly its
   * values — as a range when evenly spaced numbers are one, else as the list. Null: no sweep.
   */
  function restore(s: SweepSpec | null, p: ParamSpec | null): void {
    steps.value = 5
    if (!s) {
      path.value = list.value = from.value = to.value = ''
      param.value = null
      return
    }
    choose(s.path, p) // a range around the default, should the list be changed for one
    const v = s.values
    if (
      (p?.kind === 'int' || p?.kind === 'number') &&
      v.length >= 2 &&
      v.every((x) => typeof x === 'number')
    ) {
      const [a, b] = [v[0] as number, v[v.length - 1] as number]
      const r = range(a, b, v.length, p.kind === 'int')
      if (r.length === v.length && r.every((x, i) => x === v[i])) {
        list.value = ''
        from.value = String(a)
        to.value = String(b)
        steps.value = v.length
        return
      }
    }
    list.value = v.map(String).join(', ')
  }

  function spec(): SweepSpec | null {
    return problem.value ? null : { path: path.value, values: values.value }
  }

  return { path, param, from, to, steps, list, metric, numeric, values, problem, choose, restore, spec }
})
