export { LatencyHistogram, summarizeLatency } from './histogram'
export type { CdfPoint, LatencyHistogramJSON, LatencySummary } from './histogram'
export { TimeSeries } from './timeseries'
export type { TimeSeriesData, TimeSeriesOptions } from './timeseries'
export { DispatchSample } from './dispatch-sample'
export type { DispatchSampleData } from './dispatch-sample'
export {
  benjaminiHochberg,
  ci95,
  mean,
  median,
  pairedT,
  stddev,
  summarize,
  trimmedMean,
  variance,
  welch,
  welchCi95,
} from './stats'
export type { Summary, WelchResult } from './stats'
export { logGamma, regularizedIncompleteBeta, studentTCdf, studentTTwoSided, tCritical95 } from './student-t'
export { compare, isNoisy, needMoreRuns, NOISY_CV, orderedWithMean } from './compare-runs'
export type { Comparison, RepeatDecision, RepeatRule } from './compare-runs'
export { exactSf, mannWhitney, mannWhitneyHistograms } from './mann-whitney'
export type { MannWhitneyOptions, MannWhitneyResult } from './mann-whitney'
export { normalCdf, normalSf, regularizedGammaQ } from './normal'
